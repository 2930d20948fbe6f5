package guard_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/sinktest"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text: a, b (c) é ü 名前 ✓":           "plain text: a, b (c) é ü 名前 ✓",
		"\x1b[2K\rline\nnext\ttab":                `\x1b[2K\rline\nnext\ttab`,
		"del\x7f nul\x00 bell\x07":                `del\x7f nul\x00 bell\x07`,
		"\u009b31m \u009d0;t\u009c \u0085":        `\u009b31m \u009d0;t\u009c \u0085`,
		"a\u202eb\u2066c\u2069\u200e\u200f\u061c": `a\u202eb\u2066c\u2069\u200e\u200f\u061c`,
		"zw\u200b\u200c\u200d\u2060\ufeff\u00ad":  `zw\u200b\u200c\u200d\u2060\ufeff\u00ad`,
		"tag\U000E0041 vs\ufe0f\U000E0100":        `tag\U000e0041 vs\ufe0f\U000e0100`,
		"hangul\u3164filler \u2028\u2029":         `hangul\u3164filler \u2028\u2029`,
		"private\ue000 unassigned\U0010fffe":      `private\ue000 unassigned\U0010fffe`,
		"bad \xff\xc3 end":                        `bad \xff\xc3 end`,
		"nbsp\u00a0ideographic\u3000space":        "nbsp\u00a0ideographic\u3000space",
	} {
		if got := guard.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := guard.Lines(in + "\n" + in); !strings.Contains(in, "\n") && got != want+"\n"+want {
			t.Errorf("Lines(%q) = %q", in, got)
		}
	}
	for _, h := range sinktest.Hostile {
		if bad := sinktest.TerminalUnsafe(guard.Text(h), false); len(bad) > 0 || strings.Contains(guard.Text(h), "\n") {
			t.Errorf("Text(%q) leaves %v", h, bad)
		}
	}
}

// writeSplit writes s through a Writer in pieces of n bytes.
func writeSplit(t *testing.T, mk func(*bytes.Buffer) *guard.Writer, s string, n int) string {
	t.Helper()
	var b bytes.Buffer
	w := mk(&b)
	for i := 0; i < len(s); i += n {
		if _, err := w.Write([]byte(s[i:min(len(s), i+n)])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func textWriter(color bool) func(*bytes.Buffer) *guard.Writer {
	return func(b *bytes.Buffer) *guard.Writer { return guard.NewWriter(b, color) }
}

// TestWriterCommands: no runner reads a command in what a Writer wrote,
// however the text was cut into writes, and what is not a command stays as
// it was.
func TestWriterCommands(t *testing.T) {
	log := strings.Join(sinktest.Hostile, "\n") + "\n" + strings.Join([]string{
		"::error::at the start", "  \t::warning file=a::after white space", "\u3000\u00a0::notice::after Unicode white space",
		"text ##[group]name", "x##vso[task.setvariable variable=a]b", "##VsO[task.complete]", "###[error]x", "#", "##", "##v", ":",
		"\x1b[31m::error::after a colour", "a::b is fine", "# heading ## [not] a marker",
	}, "\n")
	whole := writeSplit(t, textWriter(false), log, len(log))
	if cmds := sinktest.Commands(whole); len(cmds) > 0 {
		t.Errorf("%d commands, the first: %s", len(cmds), cmds[0])
	}
	if bad := sinktest.TerminalUnsafe(whole, false); len(bad) > 0 {
		t.Errorf("left %s", bad[0])
	}
	for _, want := range []string{`\x3a:error::at the start`, "  \t\\x3a:warning file=a", "\u3000\u00a0\\x3a:notice", "text #\\x23[group]", `x#\x23vso[`, `#\x23VsO[`, `##\x23[error]`,
		"\n#\n##\n##v\n:\n", "a::b is fine", "# heading ## [not] a marker"} {
		if !strings.Contains(whole, want) {
			t.Errorf("output lacks %q:\n%s", want, whole)
		}
	}
	for n := 1; n <= 8; n++ {
		if got := writeSplit(t, textWriter(false), log, n); got != whole {
			t.Fatalf("written %d bytes at a time:\n%q\nwant\n%q", n, got, whole)
		}
	}
}

// TestWriterColour: with colour, mcplint's SGR sequences pass, even
// before a line's first word; every other sequence is escaped.
func TestWriterColour(t *testing.T) {
	in := "\x1b[1;31merror\x1b[0m: x\n\x1b[1m::error::y\x1b[0m\n\x1b[2K\x1b]8;;u\x07\x1b[" + strings.Repeat("1;", 40) + "m\x1b"
	want := "\x1b[1;31merror\x1b[0m: x\n\x1b[1m\\x3a:error::y\x1b[0m\n\\x1b[2K\\x1b]8;;u\\x07\\x1b[" + strings.Repeat("1;", 40) + "m\\x1b"
	for n := 1; n <= len(in); n++ {
		if got := writeSplit(t, textWriter(true), in, n); got != want {
			t.Fatalf("written %d bytes at a time: %q, want %q", n, got, want)
		}
	}
	if got := writeSplit(t, textWriter(false), "\x1b[31mred", 3); got != `\x1b[31mred` {
		t.Errorf("colour off: %q", got)
	}
	// A stream is guarded once; a report that colours it allows colour.
	var b bytes.Buffer
	g := guard.NewWriter(&b, false)
	if guard.NewWriter(g, true) != g {
		t.Error("a Writer over a Writer")
	}
	g.Write([]byte("\x1b[1mx\n"))
	g.Flush()
	if b.String() != "\x1b[1mx\n" {
		t.Errorf("colour not allowed: %q", b.String())
	}
}

// TestJSONWriter: a document through the JSON layer decodes to the same
// values, and its bytes hold nothing a terminal or a runner acts on.
func TestJSONWriter(t *testing.T) {
	values := append(append([]string{}, sinktest.Hostile...), "\U0001F600 emoji", "\U000E0041 tag")
	doc, err := json.MarshalIndent(map[string]any{"values": values, "keys": map[string]string{"##[error]": "x"}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 7; n += 3 {
		out := writeSplit(t, func(b *bytes.Buffer) *guard.Writer { return guard.NewJSONWriter(b) }, string(doc), n)
		if bad := sinktest.TerminalUnsafe(out, false); len(bad) > 0 {
			t.Errorf("left %s", bad[0])
		}
		if cmds := sinktest.Commands(out); len(cmds) > 0 {
			t.Errorf("command %s", cmds[0])
		}
		var back struct {
			Values []string
			Keys   map[string]string
		}
		if err := json.Unmarshal([]byte(out), &back); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for i, v := range values {
			if want := string([]rune(v)); back.Values[i] != want {
				t.Errorf("value %d: %q, want %q", i, back.Values[i], want)
			}
		}
		if back.Keys["##[error]"] != "x" {
			t.Errorf("keys: %v", back.Keys)
		}
	}
}

// TestJSONDocument: a whole document guarded at once (a lock file, a
// baseline, a saved listing, a converted tool list) reads as the JSON
// Writer's, and a document with nothing to escape is returned as it is.
func TestJSONDocument(t *testing.T) {
	doc, err := json.MarshalIndent(map[string]any{"values": sinktest.Hostile}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := guard.JSON(doc)
	if want := writeSplit(t, func(b *bytes.Buffer) *guard.Writer { return guard.NewJSONWriter(b) }, string(doc), len(doc)); string(got) != want {
		t.Errorf("JSON differs from the JSON Writer:\n%s\nwant\n%s", got, want)
	}
	if bad := sinktest.TerminalUnsafe(string(got), false); len(bad) > 0 {
		t.Errorf("left %s", bad[0])
	}
	if cmds := sinktest.Commands(string(got)); len(cmds) > 0 {
		t.Errorf("command %s", cmds[0])
	}
	var back struct{ Values []string }
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	for i, v := range sinktest.Hostile {
		if want := string([]rune(v)); back.Values[i] != want {
			t.Errorf("value %d: %q, want %q", i, back.Values[i], want)
		}
	}
	plain := []byte(`{"a": "b: #1, ## [x] é"}` + "\n")
	if got := guard.JSON(plain); &got[0] != &plain[0] {
		t.Errorf("a document with nothing to escape was copied: %q", got)
	}
}

// TestXMLWriter: the same for XML, of the text XML can carry.
func TestXMLWriter(t *testing.T) {
	type doc struct {
		Attr string `xml:"a,attr"`
		Text string `xml:",chardata"`
	}
	in := doc{Attr: "##[error]x \u202e \u0085 ##vso[a.b]", Text: "line\n::error::y ##[group] \u200b \U000E0041"}
	var raw bytes.Buffer
	if err := xml.NewEncoder(&raw).Encode(in); err != nil {
		t.Fatal(err)
	}
	out := writeSplit(t, func(b *bytes.Buffer) *guard.Writer { return guard.NewXMLWriter(b) }, raw.String(), 5)
	if bad := sinktest.TerminalUnsafe(out, false); len(bad) > 0 {
		t.Errorf("left %s", bad[0])
	}
	if cmds := sinktest.Commands(out); len(cmds) > 0 {
		t.Errorf("command %s", cmds[0])
	}
	var back doc
	if err := xml.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if back != in {
		t.Errorf("read back %q, want %q", back, in)
	}
}

// TestWorkflowCommand: one command whatever the values hold, which the
// runner reads back as Log shows them.
func TestWorkflowCommand(t *testing.T) {
	for _, h := range sinktest.Hostile {
		line := "::error file=" + guard.WorkflowProperty(h) + ",title=" + guard.WorkflowProperty("t "+h) + "::" + guard.WorkflowData(h)
		cmds := sinktest.Commands(line)
		if len(cmds) != 1 || cmds[0].Runner != "github" || cmds[0].Name != "error" {
			t.Errorf("%q: commands %v", h, cmds)
			continue
		}
		c := cmds[0]
		if c.Props["file"] != guard.Log(h) || c.Props["title"] != guard.Log("t "+h) || c.Data != guard.Log(h) {
			t.Errorf("%q: read back %s, want %q", h, c, guard.Log(h))
		}
	}
}

// TestCode: a table of code spans renders the corpus as text, in code,
// with no link, image or HTML.
func TestCode(t *testing.T) {
	var b strings.Builder
	b.WriteString("| a | b |\n| --- | --- |\n")
	for _, h := range append(sinktest.Hostile, "`start", "end`", " ", "``", "") {
		b.WriteString("| " + guard.Code(h) + " | x |\n")
	}
	if live := sinktest.MarkdownLive(b.String()); len(live) > 0 {
		t.Errorf("live: %q\n%s", live, b.String())
	}
	if got := guard.Code("a`b|c"); got != "``a`b\\|c``" {
		t.Errorf("Code = %q", got)
	}
	if got := guard.Code("`x"); got != "`` `x ``" {
		t.Errorf("Code = %q", got)
	}
}

func TestSARIFText(t *testing.T) {
	if got := guard.SARIFText("see [x](https://evil.example)\x1b"); got != `see \[x\](https://evil.example)\x1b` {
		t.Errorf("SARIFText = %q", got)
	}
}

// BenchmarkWriter: a text report's worth of plain lines through a Writer,
// the cost every text output now pays.
func BenchmarkWriter(b *testing.B) {
	line := []byte("tools.json:4:7: warning tool-name-valid: tool name \"read file\" contains a space; use only A-Z a-z 0-9 _ - .\n")
	chunk := bytes.Repeat(line, 4096/len(line))
	w := guard.NewWriter(io.Discard, false)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		w.Write(chunk)
	}
}

// BenchmarkText: a plain message, the common case, needs no copy.
func BenchmarkText(b *testing.B) {
	msg := "tool name \"read file\" contains a space; use only A-Z a-z 0-9 _ - ."
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		_ = guard.Text(msg)
	}
}
