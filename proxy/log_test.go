package proxy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/redact"
)

// TestChangeLog: each change is said once per tool, kind, rule and
// client; secrets are masked; text is kept to what a terminal shows; JSON
// lines carry every field.
func TestChangeLog(t *testing.T) {
	var text, jsonl bytes.Buffer
	secrets := redact.New("hunter2-secret")
	for _, l := range []*changeLog{newChangeLog(&text, false, secrets), newChangeLog(&jsonl, true, secrets)} {
		l.now = func() time.Time { return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) }
		for range 2 {
			l.report(Change{Tool: "a.b", Kind: "rename", Client: "openai", Message: `renamed to "a_b"`})
			l.report(Change{Tool: "a.b", Kind: "fix", Rule: "r1", Client: "openai", Message: "fixed /x"})
			l.report(Change{Tool: "a.b", Kind: "fix", Rule: "r2", Client: "openai", Message: "fixed /y"})
		}
		l.report(Change{Tool: "evil\x1b[31m", Kind: "schema", Client: "mainstream", Message: "the server said hunter2-secret\x1b]8;;x\u202e"})
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	want := []string{
		`mcplint proxy: tool "a.b": renamed to "a_b" (for openai)`,
		`mcplint proxy: tool "a.b": fixed /x [r1] (for openai)`,
		`mcplint proxy: tool "a.b": fixed /y [r2] (for openai)`,
		`mcplint proxy: tool "evil\x1b[31m": the server said ***\x1b]8;;x\u202e (for mainstream)`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("text log:\n%s\nwant:\n%s", text.String(), strings.Join(want, "\n"))
	}
	var changes []Change
	for _, line := range strings.Split(strings.TrimSpace(jsonl.String()), "\n") {
		var c Change
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		changes = append(changes, c)
	}
	if len(changes) != 4 || changes[1].Rule != "r1" || changes[1].Kind != "fix" || changes[0].Client != "openai" || !changes[0].Time.Equal(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("JSON lines: %+v", changes)
	}
	if strings.Contains(jsonl.String(), "hunter2") {
		t.Errorf("a secret in the JSON log:\n%s", jsonl.String())
	}
}

// TestGuardWriter: the server's stderr reaches ours line by line,
// redacted and without terminal controls.
func TestGuardWriter(t *testing.T) {
	var out bytes.Buffer
	g := &guardWriter{w: &out, secrets: redact.New("hunter2-secret")}
	_, _ = g.Write([]byte("token hunter2-secret\tok\x1b[2J\n"))
	if got := out.String(); got != "token ***\\tok\\x1b[2J\n" {
		t.Errorf("got %q", got)
	}
}
