package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/tokens"
)

func TestSnippet(t *testing.T) {
	long := strings.Repeat("a", 150) + "X" + strings.Repeat("b", 150)
	for _, c := range []struct {
		name, line string
		col        int
		shown, pad string
	}{
		{"start", `{"name": 1}`, 1, `{"name": 1}`, ""},
		{"middle", `  "name": 1`, 3, `  "name": 1`, "  "},
		{"tabs kept", "\t\t\"name\": 1", 3, "\t\t\"name\": 1", "\t\t"},
		{"multi-byte before", `"é": "x"`, 8, `"é": "x"`, "      "},
		{"control character", "a\x1bb", 3, `a\x1bb`, "     "},
		{"C1 and bidi", "\u009b\u202eb", 6, `\u009b\u202eb`, "            "},
		{"invalid UTF-8", "\xffb", 2, `\xffb`, "    "},
		{"past the end", "ab", 9, "ab", "  "},
		{"column zero", "ab", 0, "ab", ""},
		{"long line", long, 151, "…" + strings.Repeat("a", 33) + "X" + strings.Repeat("b", 66) + "…", strings.Repeat(" ", 34)},
		{"long line, near start", long, 2, strings.Repeat("a", 100) + "…", " "},
		{"long line, near end", long, 300, "…" + strings.Repeat("b", 100), strings.Repeat(" ", 99)},
	} {
		t.Run(c.name, func(t *testing.T) {
			shown, pad := snippet(c.line, c.col)
			if shown != c.shown || pad != c.pad {
				t.Errorf("snippet(%q, %d) = %q, %q; want %q, %q", c.line, c.col, shown, pad, c.shown, c.pad)
			}
		})
	}
}

// TestFrameCountsOn checks that findings on one line, shown one after the
// other as the text format does, get the snippets each would get alone,
// whether they come in source order or not.
func TestFrameCountsOn(t *testing.T) {
	line := strings.Repeat("é", 120) + "\tX" + strings.Repeat("b", 150)
	fr := frame{text: line, runes: -1}
	for _, col := range []int{1, 2, 241, 242, 243, 300, 393, 5, 241, 1000} {
		shown, pad := fr.snippet(col)
		wantShown, wantPad := snippet(line, col)
		if shown != wantShown || pad != wantPad {
			t.Errorf("column %d after others: %q, %q; alone: %q, %q", col, shown, pad, wantShown, wantPad)
		}
	}
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{Files: 1}, "0 errors, 0 warnings, 0 infos in 1 file"},
		{Summary{Errors: 1, Warnings: 1, Infos: 1, Files: 2, Fixable: 1}, "1 error, 1 warning, 1 info in 2 files (1 fixable)"},
		{Summary{Errors: 2, Files: 1, Fixable: 1, UnsafeFixable: 1}, "2 errors, 0 warnings, 0 infos in 1 file (1 fixable, 1 more with --unsafe-fixes)"},
		{Summary{Warnings: 3, Files: 1, UnsafeFixable: 2, Fixed: Fixed{Findings: 1, Written: true}}, "0 errors, 3 warnings, 0 infos in 1 file (1 fixed and written, 2 fixable with --unsafe-fixes)"},
		{Summary{Files: 1, Fixed: Fixed{Findings: 4}}, "0 errors, 0 warnings, 0 infos in 1 file (4 fixed in the output)"},
		{Summary{Files: 1, Fixed: Fixed{Findings: 4, Diff: true}}, "0 errors, 0 warnings, 0 infos in 1 file (4 to fix with -w)"},
		{Summary{Files: 1, Fixed: Fixed{Findings: 4, Diff: true, Written: true}}, "0 errors, 0 warnings, 0 infos in 1 file (4 fixed and written)"},
		{Summary{Files: 1, Fixed: Fixed{Written: true}}, "0 errors, 0 warnings, 0 infos in 1 file"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
	for _, c := range []struct {
		s    Summary
		min  lint.Severity
		want bool
	}{
		{Summary{Infos: 1}, lint.Info, true},
		{Summary{Infos: 1}, lint.Warning, false},
		{Summary{Warnings: 1}, lint.Warning, true},
		{Summary{Warnings: 1}, lint.Error, false},
		{Summary{Errors: 1}, lint.Error, true},
		{Summary{Errors: 1}, 0, false},
	} {
		if got := c.s.Reaches(c.min); got != c.want {
			t.Errorf("%+v.Reaches(%v) = %v", c.s, c.min, got)
		}
	}
}

const src = "{\"tools\": [\n\t{\"name\": \"a\", \"inputSchema\": {}},\n\t{\"name\": \"b\"}\n]}\n"

// files is one manifest with a finding of each fix kind and one without a
// place.
func files(t *testing.T) []File {
	t.Helper()
	m, err := manifest.Load("m.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return []File{{Manifest: m, Diagnostics: []lint.Diagnostic{
		{Rule: "r-safe", Severity: lint.Error, Tool: "a", Pointer: "/tools/0/inputSchema", File: "m.json", Line: 2, Column: 30,
			Message: "no type", Fix: &lint.Fix{Message: "add it", Safe: true}},
		{Rule: "r-unsafe", Severity: lint.Warning, Tool: "b", ToolIndex: 1, Pointer: "/tools/1", File: "m.json", Line: 3, Column: 2,
			Message: "no schema", Fix: &lint.Fix{}},
		{Rule: "r-none", Severity: lint.Info, File: "m.json", Message: "whole file"},
	}}}
}

const wantText = "m.json:2:30: error r-safe: no type\n" +
	"  |\n" +
	"2 | \t{\"name\": \"a\", \"inputSchema\": {}},\n" +
	"  | \t                            ^\n" +
	"  = hint: fixable with `mcplint fix` (add it)\n" +
	"\n" +
	"m.json:3:2: warning r-unsafe: no schema\n" +
	"  |\n" +
	"3 | \t{\"name\": \"b\"}\n" +
	"  | \t^\n" +
	"  = hint: unsafe fix available with --unsafe-fixes\n" +
	"\n" +
	"m.json: info r-none: whole file\n" +
	"\n" +
	"context: 2 tools, about 14 tokens of tool definitions (estimated)\n" +
	"1 error, 1 warning, 1 info in 1 file (1 fixable, 1 more with --unsafe-fixes)\n"

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, files(t), TextOptions{ShowInfos: true}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantText, b.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	b.Reset()
	WriteText(&b, files(t), TextOptions{Quiet: true, Fixed: Fixed{Findings: 2, Written: true}})
	if got := b.String(); got != "1 error, 1 warning, 1 info in 1 file (2 fixed and written, 1 fixable, 1 more with --unsafe-fixes)\n" {
		t.Errorf("quiet: %q", got)
	}
	b.Reset()
	clean := []File{{Manifest: files(t)[0].Manifest}}
	WriteText(&b, clean, TextOptions{Quiet: true})
	if b.Len() != 0 {
		t.Errorf("quiet and clean: %q", b.String())
	}
	WriteText(&b, nil, TextOptions{})
	if b.Len() != 0 {
		t.Errorf("no file: %q", b.String())
	}
	b.Reset()
	WriteText(&b, files(t), TextOptions{Color: true, ShowInfos: true})
	if !strings.Contains(b.String(), "\x1b[31;1merror") {
		t.Errorf("colour: %q", b.String())
	}
	// Colour changes nothing but the escapes.
	if plain := stripANSI(b.String()); plain != wantText {
		t.Errorf("coloured text differs:\n%s", cmp.Diff(wantText, plain))
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "diagnostics": [],
  "summary": {
    "errors": 0,
    "warnings": 0,
    "infos": 0,
    "fixable": 0,
    "unsafeFixable": 0,
    "files": 0,
    "tools": 0,
    "prompts": 0,
    "resources": 0,
    "resourceTemplates": 0,
    "contextTokens": 0,
    "context": []
  }
}
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("empty report (-want +got):\n%s", diff)
	}
	b.Reset()
	WriteJSON(&b, files(t))
	var rep JSONReport
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	wantDiags := []JSONDiagnostic{
		{Rule: "r-safe", Severity: "error", Tool: "a", Pointer: "/tools/0/inputSchema", File: "m.json", Line: 2, Column: 30, Message: "no type", Fix: "safe", Rules: []string{"r-safe"}},
		{Rule: "r-unsafe", Severity: "warning", Tool: "b", ToolIndex: 1, Pointer: "/tools/1", File: "m.json", Line: 3, Column: 2, Message: "no schema", Fix: "unsafe", Rules: []string{"r-unsafe"}},
		{Rule: "r-none", Severity: "info", File: "m.json", Message: "whole file", Fix: "none", Rules: []string{"r-none"}},
	}
	if diff := cmp.Diff(wantDiags, rep.Diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	fs := files(t)
	n := tokens.Manifest(fs[0].Manifest)
	if n == 0 {
		t.Fatal("the tools' definitions take no tokens")
	}
	wantSum := JSONSummary{Errors: 1, Warnings: 1, Infos: 1, Fixable: 1, UnsafeFixable: 1, Files: 1, Tools: 2,
		ContextTokens: n, Context: []JSONContext{{File: "m.json", Tools: 2, Tokens: n}}}
	if diff := cmp.Diff(wantSum, rep.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if strings.Contains(b.String(), `\u003c`) {
		t.Error("HTML escaping in the JSON report")
	}
}

func TestDiff(t *testing.T) {
	if d, err := Diff("a.json", []byte("x\n"), []byte("x\n")); d != "" || err != nil {
		t.Errorf("equal: %q, %v", d, err)
	}
	d, err := Diff("./dir/../m.json", []byte("a\r\nb\r\nc"), []byte("a\r\nB\r\nc"))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- a/m.json\n+++ b/m.json\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\n\\ No newline at end of file\n"
	if d != want {
		t.Errorf("diff:\n%q\nwant\n%q", d, want)
	}
	for _, c := range []struct{ in, want string }{
		{"a/plain name.json", "a/plain name.json"},
		{"a/tab\there", `"a/tab\there"`},
		{`a/quote"and\back`, `"a/quote\"and\\back"`},
		{"a/esc\x1b", `"a/esc\033"`},
		{"a/trailing ", `"a/trailing "`},
	} {
		if got := quotePath(c.in); got != c.want {
			t.Errorf("quotePath(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestColorMode(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		mode     string
		terminal bool
		getenv   func(string) string
		want     bool
	}{
		{"auto", true, env(), true},
		{"", true, env(), true},
		{"auto", false, env(), false},
		{"auto", true, env("NO_COLOR", "1"), false},
		{"auto", true, env("NO_COLOR", ""), true},
		{"auto", true, env("TERM", "dumb"), false},
		{"always", false, env("NO_COLOR", "1"), true},
		{"never", true, env(), false},
		{"auto", false, env("FORCE_COLOR", "1"), true},
		{"auto", true, env("FORCE_COLOR", "1", "NO_COLOR", "1"), false},
		{"auto", false, env("FORCE_COLOR", ""), false},
		{"never", true, env("FORCE_COLOR", "1"), false},
		{"always", false, env("FORCE_COLOR", "0", "NO_COLOR", "1"), true},
		{"auto", true, env("FORCE_COLOR", "0"), false},
		{"auto", true, env("FORCE_COLOR", "false"), false},
		{"auto", true, env("FORCE_COLOR", "FALSE"), false},
		{"auto", false, env("FORCE_COLOR", "0"), false},
		{"auto", false, env("FORCE_COLOR", "true"), true},
		{"auto", false, env("FORCE_COLOR", "2"), true},
		{"auto", false, env("FORCE_COLOR", "3"), true},
		{"auto", true, env("FORCE_COLOR", "1", "TERM", "dumb"), true},
	} {
		m, err := ParseColorMode(c.mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Enabled(c.terminal, c.getenv); got != c.want {
			t.Errorf("%q terminal=%v: %v", c.mode, c.terminal, got)
		}
	}
	if _, err := ParseColorMode("yes"); err == nil {
		t.Error("ParseColorMode(yes) succeeded")
	}
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
}

func TestRuleTable(t *testing.T) {
	rules := []*lint.Rule{
		{ID: "a", Packs: []string{"mcp", "x"}, Severity: lint.Error, Fix: lint.MixedFix, Summary: "first"},
		{ID: "longer-id", Packs: []string{"robust"}, Severity: lint.Info, Summary: "second"},
	}
	var b bytes.Buffer
	WriteRuleTable(&b, rules, rules)
	want := "RULE       PACKS   SEVERITY  FIX          SUMMARY\n" +
		"a          mcp,x   error     safe/unsafe  first\n" +
		"longer-id  robust  info      none         second\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	b.Reset()
	WriteRuleJSON(&b, rules[1], rules)
	if !strings.Contains(b.String(), `"options": {}`) || !strings.Contains(b.String(), `"default": true`) {
		t.Errorf("rule JSON:\n%s", b.String())
	}
}

// TestWriteTextChunks: a file with more findings than one goroutine renders
// prints them in order, each with its own code frame and consumer note, as
// a small file does.
func TestWriteTextChunks(t *testing.T) {
	one := files(t)[0]
	anthropic := []consumer.Refusal{{Consumer: consumer.Anthropic}}
	openai := []consumer.Refusal{{Consumer: consumer.OpenAIChat}}
	const copies = 4*textChunk + 7 // several windows of chunks, the last one short
	var many []lint.Diagnostic
	for i := range copies {
		for j, d := range one.Diagnostics {
			switch j {
			case 0:
				d.Consumers = anthropic
			case 1:
				d.Consumers = openai
			}
			d.Message += " " + strconv.Itoa(i)
			many = append(many, d)
		}
	}
	var want strings.Builder
	for i := range copies {
		var b bytes.Buffer
		f := File{Manifest: one.Manifest, Diagnostics: many[3*i : 3*i+3]}
		if err := WriteText(&b, []File{f}, TextOptions{ShowInfos: true}); err != nil {
			t.Fatal(err)
		}
		block := b.String()
		block = block[:strings.LastIndex(strings.TrimSuffix(block, "\n"), "\n")+1]           // less the count
		want.WriteString(block[:strings.LastIndex(strings.TrimSuffix(block, "\n"), "\n")+1]) // less the context
	}
	want.WriteString("context: 2 tools, about 14 tokens of tool definitions (estimated)\n")
	want.WriteString(fmt.Sprintf("%d errors, %d warnings, %d infos in 1 file (%d fixable, %d more with --unsafe-fixes)\n", copies, copies, copies, copies, copies))
	var got bytes.Buffer
	if err := WriteText(&got, []File{{Manifest: one.Manifest, Diagnostics: many}}, TextOptions{ShowInfos: true}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), got.String()); diff != "" {
		t.Errorf("chunked text (-want +got):\n%s", diff)
	}
	for _, note := range []string{"= refused by: Anthropic API", "= refused by: OpenAI Chat Completions"} {
		if n := strings.Count(got.String(), note); n != copies {
			t.Errorf("%q printed %d times, want %d", note, n, copies)
		}
	}
}

// TestStreams: the streams write, byte for byte, what WriteText and
// WriteJSON write of the same files, handed over in parts; with no file,
// with one, and with several (one with consumers, merged rules and "<").
func TestStreams(t *testing.T) {
	one := files(t)
	two := files(t)
	two[0].Diagnostics = append(two[0].Diagnostics, lint.Diagnostic{Rule: "r-<", Severity: lint.Warning, File: "m.json", Line: 2, Column: 3,
		Message: "a <b> & c", Merged: []string{"r-x"}, Consumers: []consumer.Refusal{{Consumer: consumer.ClaudeCode}, {Consumer: consumer.VSCode, Mangles: true}}})
	for _, fs := range [][]File{nil, one, append(one, two...)} {
		var wantJSON, gotJSON bytes.Buffer
		if err := WriteJSON(&wantJSON, fs); err != nil {
			t.Fatal(err)
		}
		feed(t, NewJSONStream(&gotJSON), fs)
		if diff := cmp.Diff(wantJSON.String(), gotJSON.String()); diff != "" {
			t.Errorf("%d files, JSON (-WriteJSON +stream):\n%s", len(fs), diff)
		}
		for _, opt := range []TextOptions{{}, {Color: true}, {Quiet: true}} {
			var wantText, gotText bytes.Buffer
			if err := WriteText(&wantText, fs, opt); err != nil {
				t.Fatal(err)
			}
			feed(t, NewTextStream(&gotText, opt), fs)
			if diff := cmp.Diff(wantText.String(), gotText.String()); diff != "" {
				t.Errorf("%d files, text %+v (-WriteText +stream):\n%s", len(fs), opt, diff)
			}
		}
	}
}

// feed writes fs to a stream one finding at a time, and closes it.
func feed(t *testing.T, s interface {
	Start(*manifest.Manifest)
	Write([]lint.Diagnostic)
	End()
	Close() error
}, fs []File) {
	t.Helper()
	for _, f := range fs {
		s.Start(f.Manifest)
		for i := range f.Diagnostics {
			s.Write(f.Diagnostics[i : i+1])
		}
		s.End()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
