package live

import (
	"context"
	"strings"

	"github.com/mcpfit/mcplint/internal/elide"
	"github.com/mcpfit/mcplint/redact"
)

// A server's own words (an error message, a cursor, its stderr) are shown
// cut to shownLength bytes, and masked with the target's secrets before
// they are cut: cut first, a secret at the cut would be left in part,
// which no mask recognises.

// shownLength is how much of a server's text a failure shows.
const shownLength = 200

// readLength bounds what is masked of a server's text: the mask costs
// time in the text's length, and only its first shownLength bytes are
// shown. The cut there is marked, so that redact masks a secret it
// splits (redact.CutPiece).
const readLength = 64 << 10

type secretsKey struct{}

// withSecrets makes r the redactor of what the conversation under ctx
// shows of the server's words.
func withSecrets(ctx context.Context, r *redact.Redactor) context.Context {
	return context.WithValue(ctx, secretsKey{}, r)
}

func secretsOf(ctx context.Context) *redact.Redactor {
	r, _ := ctx.Value(secretsKey{}).(*redact.Redactor)
	return r
}

// shown is s as a failure shows it: masked with r, then cut.
func shown(r *redact.Redactor, s string) string {
	if len(s) > readLength {
		s = cut(s, readLength)
	}
	return clip(r.String(s))
}

// shownLine is shown on one line, its runs of white space made one space.
func shownLine(ctx context.Context, s string) string {
	if len(s) > readLength {
		s = cut(s, readLength)
	}
	return shown(secretsOf(ctx), strings.Join(strings.Fields(s), " "))
}

// clip cuts s to shownLength bytes, at a character's boundary, marking
// the cut.
func clip(s string) string {
	if len(s) > shownLength {
		return cut(s, shownLength)
	}
	return s
}

// cut is s's first n bytes (fewer, to end on a whole character) and "…".
func cut(s string, n int) string { return elide.Head(s, n) + "…" }
