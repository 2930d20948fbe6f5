package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/redact"
)

// Change is one thing the proxy changed, or found and left, as its log
// says it: once per tool and kind of change (and rule, for fixes).
type Change struct {
	Time time.Time `json:"time"`
	// Tool is the server's name for the tool, "" for a change that
	// concerns no tool (the client chosen, the server's stdout).
	Tool string `json:"tool,omitempty"`
	// Kind is what happened: "client" (the client the proxy adapts for),
	// "fix" (a fix of Rule applied), "rename", "schema" (the client's
	// transform changed the input schema, Message says what it lost),
	// "refused" (what the client still refuses), "dropped" (a tool no
	// client can call, left out), "coerce" (arguments converted),
	// "structured-content" (a result breaking the output schema),
	// "result" (such a result turned into one the client takes),
	// "stdout" (non-protocol output of the server, dropped) or "listing"
	// (a tools/list result that is not a tool list, passed on as it is).
	Kind string `json:"kind"`
	// Rule is the rule whose fix was applied, or that still refuses.
	Rule string `json:"rule,omitempty"`
	// Client is the client the change was made for: one of
	// convert.Clients, or "mainstream" for every mainstream client.
	Client  string `json:"client"`
	Message string `json:"message"`
}

// maxLogged bounds the changes remembered for saying each once: past it
// they are forgotten, and said again if they happen again.
const maxLogged = 1 << 16

// changeLog writes the changes, each once, as text lines (stderr) or JSON
// lines (--log FILE); everything written is redacted, then guarded for its
// sink (package guard).
type changeLog struct {
	mu      sync.Mutex
	w       io.Writer
	jsonl   bool
	secrets *redact.Redactor
	seen    map[string]bool
	now     func() time.Time
}

func newChangeLog(w io.Writer, jsonl bool, secrets *redact.Redactor) *changeLog {
	return &changeLog{w: w, jsonl: jsonl, secrets: secrets, seen: map[string]bool{}, now: time.Now}
}

// report writes c unless the same change (tool, kind, rule and client)
// was written before.
func (l *changeLog) report(c Change) {
	if l == nil || l.w == nil {
		return
	}
	key := c.Tool + "\x00" + c.Kind + "\x00" + c.Rule + "\x00" + c.Client
	if c.Kind == "client" || c.Kind == "listing" {
		key += "\x00" + c.Message
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[key] {
		return
	}
	if len(l.seen) >= maxLogged {
		clear(l.seen)
	}
	l.seen[key] = true
	c.Time = l.now().UTC()
	c.Tool = l.secrets.String(c.Tool)
	c.Message = l.secrets.String(c.Message)
	if l.jsonl {
		b, err := json.Marshal(c)
		if err != nil {
			return
		}
		// The JSON layer of the guard: what a terminal or a CI runner
		// would act on is spelled as JSON escapes.
		g := guard.NewJSONWriter(l.w)
		_, _ = g.Write(append(b, '\n'))
		_ = g.Flush()
		return
	}
	var b strings.Builder
	b.WriteString("mcplint proxy: ")
	if c.Tool != "" {
		b.WriteString("tool " + strconv.Quote(c.Tool) + ": ")
	}
	b.WriteString(guard.Text(c.Message))
	if c.Rule != "" {
		b.WriteString(" [" + c.Rule + "]")
	}
	if c.Kind != "client" {
		b.WriteString(" (for " + c.Client + ")")
	}
	b.WriteByte('\n')
	_, _ = io.WriteString(l.w, b.String())
}

// reportf is report with a formatted message.
func (l *changeLog) reportf(tool, kind, client, format string, args ...any) {
	l.report(Change{Tool: tool, Kind: kind, Client: client, Message: fmt.Sprintf(format, args...)})
}

// guardWriter passes a server's stderr on to ours line by line, each line
// redacted, then made inert for a terminal (guard.Text).
type guardWriter struct {
	mu      sync.Mutex
	w       io.Writer
	secrets *redact.Redactor
}

func (g *guardWriter) Write(p []byte) (int, error) {
	out := guard.Text(g.secrets.String(strings.TrimRight(string(p), "\n"))) + "\n"
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, err := io.WriteString(g.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}
