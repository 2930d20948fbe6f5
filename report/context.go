package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/tokens"
)

// FileContext is what one file's (one server's) tool definitions cost in
// a model's context: a client sends them with every request.
type FileContext struct {
	File string
	// Tools counts the tools; Tokens estimates the tokens of their
	// definitions (package tokens).
	Tools, Tokens int
}

// addContext counts the tokens of m's tool definitions.
func (s *Summary) addContext(m *manifest.Manifest) {
	n := tokens.Manifest(m)
	s.ContextTokens += n
	s.Context = append(s.Context, FileContext{File: m.Path, Tools: len(m.Tools), Tokens: n})
}

// maxContextFiles bounds the files a context line names, the largest
// first.
const maxContextFiles = 5

// ContextLine is the line of the text format that says what the tool
// definitions cost, "" when there are none:
//
//	context: 7 tools, about 850 tokens of tool definitions (estimated)
//
// With several files it names the largest: ": a.json 1,300, b.json 1,000".
func (s Summary) ContextLine() string {
	if s.Tools == 0 {
		return ""
	}
	line := fmt.Sprintf("context: %s, about %s of tool definitions", count(s.Tools, "tool"), Thousands(s.ContextTokens)+" "+english.Plural(s.ContextTokens, "token", "tokens"))
	var files []FileContext
	for _, c := range s.Context {
		if c.Tools > 0 {
			files = append(files, c)
		}
	}
	if len(files) < 2 {
		return line + " (estimated)"
	}
	slices.SortStableFunc(files, func(a, b FileContext) int { return b.Tokens - a.Tokens })
	var parts []string
	for _, c := range files[:min(len(files), maxContextFiles)] {
		parts = append(parts, guard.Text(c.File)+" "+Thousands(c.Tokens))
	}
	if more := len(files) - maxContextFiles; more > 0 {
		parts = append(parts, english.Count(more, "more file"))
	}
	return line + " (estimated): " + strings.Join(parts, ", ")
}

// Thousands writes n with a comma between thousands: 18,700.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
