package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/sinktest"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TestInfosSummedUp: without ShowInfos, a rule's infos are one line, the
// others are written in full, and the summary still counts every one.
func TestInfosSummedUp(t *testing.T) {
	fs := files(t)
	more := fs[0].Diagnostics[2]
	more.Tool = "b"
	fs[0].Diagnostics = append(fs[0].Diagnostics, more, lint.Diagnostic{Rule: "r-other", Severity: lint.Info, Tool: "a\x1b[2J", File: "m.json", Message: "x"})
	var b bytes.Buffer
	if err := WriteText(&b, fs, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	want := strings.Replace(wantText, "m.json: info r-none: whole file\n\n", "", 1)
	want = strings.Replace(want, "context: 2 tools", "info r-none: 2 findings (\"b\")\n"+
		"info r-other: 1 finding (\"a\\x1b[2J\")\n"+
		"(infos summed up: --show-infos shows each; mcplint rules ID explains a rule)\n\n"+
		"context: 2 tools", 1)
	want = strings.Replace(want, "1 error, 1 warning, 1 info", "1 error, 1 warning, 3 infos", 1)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b.Reset()
	if err := WriteText(&b, fs, TextOptions{Quiet: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "r-none") {
		t.Errorf("quiet: %q", b.String())
	}
}

const serverSrc = `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","description":"Adds.","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"integer","maximum":9007199254740991},"b":{"type":"integer"}},"required":["a"]}}]}}
{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"calc","version":"1.2.0"}}}
{"jsonrpc":"2.0","id":"prompts/list","result":{"prompts":[{"name":"sum up","description":"Sums."}]}}
`

// TestServerText: a server's finding names the server and the tool,
// frames the tool pretty-printed with the place marked, advises in the
// generator's idiom, and the fixes are said once.
func TestServerText(t *testing.T) {
	m, err := manifest.Load("calc", []byte(serverSrc))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[0]
	at := func(rel string) (int, int, int) {
		p := tool.Locate(rel)
		return p.Line, p.Column, p.Offset
	}
	l, c, o := at("/inputSchema/properties/b")
	pl := m.Prompts[0].Locate("/name")
	ds := []lint.Diagnostic{
		{Rule: "integer-accepts-string", Severity: lint.Warning, Tool: "add", ToolIndex: 0, RelPointer: "/inputSchema/properties/b",
			Pointer: tool.DocPointer("/inputSchema/properties/b"), File: "calc", Line: l, Column: c, Offset: o, Message: `"b" is an integer`,
			Fix: &lint.Fix{Message: "accept strings"}, Eras: []string{"2025-11-25"}},
		{Rule: "prompt-name-valid", Severity: lint.Error, ToolIndex: -1, Pointer: "/result/prompts/0/name", File: "calc",
			Line: pl.Line, Column: pl.Column, Offset: pl.Offset, Message: `prompt name "sum up" contains a space`},
	}
	srv := &Server{Name: "calc", Version: "1.2.0", Transport: "stdio", Eras: []ServerEra{{Protocol: "2025-11-25", Handshake: "initialize", Manifest: m}}}
	var b bytes.Buffer
	if err := WriteText(&b, []File{{Manifest: m, Diagnostics: ds}}, TextOptions{Server: srv}); err != nil {
		t.Fatal(err)
	}
	want := `calc: tool "add": warning integer-accepts-string: "b" is an integer
  --> /inputSchema/properties/b
   |
10 |         "maximum": 9007199254740991
11 |       },
12 |       "b": {
   |       ^^^
13 |         "type": "integer"
14 |       }
   = in the server's code: accept the string form in the schema: z.union([z.number().int(), z.string().regex(/^-?\d+$/)]), and convert it in the handler

calc: prompt "sum up": error prompt-name-valid: prompt name "sum up" contains a space
 --> /name
  |
1 | {
2 |   "name": "sum up",
  |   ^^^^^^
3 |   "description": "Sums."
4 | }

1 finding has a fix for a saved listing: mcplint check --save FILE, then mcplint fix FILE, 1 of them with --unsafe-fixes
context: 1 tool, about 60 tokens of tool definitions (estimated)
1 error, 1 warning, 0 infos in 1 file
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := srv.Header(); got != "server calc 1.2.0, protocol 2025-11-25 over stdio: 1 tool, 1 prompt, 0 resources, 0 resource templates\n" {
		t.Errorf("header %q", got)
	}
}

// TestServerEras: the header says how the eras compare, and a finding of
// one era of two says which.
func TestServerEras(t *testing.T) {
	m, err := manifest.Load("calc", []byte(serverSrc))
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Name: "calc", Transport: "http", Eras: []ServerEra{{Protocol: "2026-07-28", Handshake: "server/discover", Manifest: m}, {Protocol: "2025-11-25", Handshake: "initialize", Manifest: m}}}
	if h := srv.Header(); !strings.Contains(h, "clients of protocol 2025-11-25 and older (initialize) see another list: 1 tool") {
		t.Errorf("header %q", h)
	}
	srv.Same = true
	if h := srv.Header(); !strings.HasSuffix(h, "\n  the same for clients of protocol 2025-11-25 and older (initialize)\n") {
		t.Errorf("header %q", h)
	}
	if n := srv.eraNote(&lint.Diagnostic{Eras: []string{"2025-11-25"}}); n != "only for clients of protocol 2025-11-25 and older (initialize)" {
		t.Errorf("note %q", n)
	}
	if n := srv.eraNote(&lint.Diagnostic{Eras: []string{"2026-07-28", "2025-11-25"}}); n != "" {
		t.Errorf("note for both eras %q", n)
	}
	// A live-only rule's finding says so.
	srv.LiveOnly = []string{"list-result-valid"}
	var b bytes.Buffer
	if err := WriteText(&b, []File{{Manifest: m, Diagnostics: []lint.Diagnostic{{Rule: "list-result-valid", Severity: lint.Error, ToolIndex: -1, File: "calc", Message: "no resultType"}}}}, TextOptions{Server: srv}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "= seen live only: what the server did") {
		t.Errorf("live-only finding:\n%s", b.String())
	}
	one := &Server{Name: "calc", Transport: "http", Eras: srv.Eras[:1], InitializeRefused: "HTTP 400"}
	if h := one.Header(); !strings.Contains(h, "clients of protocol 2025-11-25 and older (initialize) cannot use it: HTTP 400") {
		t.Errorf("header %q", h)
	}
}

// TestServerErasHostile: the protocol version of each era is the server's
// answer, so the header and the era note of a finding show it guarded,
// whichever era it names.
func TestServerErasHostile(t *testing.T) {
	m, err := manifest.Load("calc", []byte(serverSrc))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range sinktest.Hostile {
		srv := &Server{Name: "calc", Transport: "http", Eras: []ServerEra{{Protocol: h, Handshake: "server/discover", Manifest: m}, {Protocol: h + "old", Handshake: "initialize", Manifest: m}}}
		for _, same := range []bool{false, true} {
			srv.Same = same
			out := srv.Header() + srv.eraNote(&lint.Diagnostic{Eras: []string{h + "old"}})
			if bad := sinktest.TerminalUnsafe(out, false); len(bad) > 0 {
				t.Errorf("protocol %q (same %v): %v in %q", h, same, bad, out)
			}
		}
	}
}

func TestGenerator(t *testing.T) {
	for src, want := range map[string]string{
		`{"name":"t","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}}`:                                          GeneratorZod,
		`{"name":"t","inputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}}}}`: GeneratorZod,
		`{"name":"t","inputSchema":{"type":"object","title":"searchArguments","properties":{"q":{"type":"string"}}}}`:                               GeneratorPydantic,
		`{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string","title":"Q"}}}}`:                                             GeneratorPydantic,
		`{"name":"t","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#/$defs/A","$defs":{}}}`:                       GeneratorInvopop,
		`{"name":"t","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/a","type":"object"}}`:       GeneratorInvopop,
		`{"name":"t","inputSchema":{"$schema":"https://json-schema.org/draft/2019-09/schema","$id":"https://example.com/a","type":"object"}}`:       "",
		`{"name":"t","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"https://example.com/a.json"}}`:                 "",
		`{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}}`:                            GeneratorGoSDK,
		`{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`:                                                         "",
	} {
		m, err := manifest.Load("x", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := Generator(m.Tools[0]); got != want {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}

// TestPrettyFrame: members keep their order and numbers their spelling;
// an array element is marked at its start, a missing member at its
// nearest ancestor, and empty containers stay on one line.
func TestPrettyFrame(t *testing.T) {
	raw := []byte(`{"b":1.50,"a":{"enum":["x","y"],"empty":{},"none":[]},"c":"\u202e"}`)
	f := prettyFrame(raw, "/a/enum/1")
	got := strings.Join(f.lines, "\n")
	want := strings.Join([]string{`    "enum": [`, `      "x",`, `      "y"`, `    ],`, `    "empty": {},`}, "\n")
	if got != want || f.first != 3 || f.at != 5 || f.col != 6 || f.span != 1 {
		t.Errorf("frame at %d:%d+%d from %d:\n%s\nwant\n%s", f.at, f.col, f.span, f.first, got, want)
	}
	all := prettyFrame(raw, "")
	if all.at != 0 || all.total != 12 {
		t.Errorf("whole: at %d of %d", all.at, all.total)
	}
	missing := prettyFrame(raw, "/a/additionalProperties")
	if missing.at != 2 || missing.span != 3 {
		t.Errorf("missing member marked at line %d, span %d", missing.at, missing.span)
	}
	tail := prettyFrame(raw, "/c")
	// An empty container on one line; a format character escaped.
	if !strings.Contains(strings.Join(tail.lines, "\n"), `"none": []`) || !strings.Contains(strings.Join(tail.lines, "\n"), `"c": "\u202e"`) {
		t.Errorf("tail:\n%s", strings.Join(tail.lines, "\n"))
	}
	if !strings.Contains(strings.Join(prettyFrame(raw, "/b").lines, "\n"), `"b": 1.50,`) {
		t.Errorf("the number's spelling changed")
	}
}

// BenchmarkServerText writes the findings of a server of 1,000 tools, four
// a tool, as check does: each tool is pretty-printed once for its
// findings.
func BenchmarkServerText(b *testing.B) {
	var src strings.Builder
	src.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := range 1000 {
		if i > 0 {
			src.WriteByte(',')
		}
		fmt.Fprintf(&src, `{"name":"t%d","description":"Does %d.","inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"string"},"d":{"type":"array","items":{"type":"integer"}}}}}`, i, i)
	}
	src.WriteString("]}}\n")
	m, err := manifest.Load("big", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	var ds []lint.Diagnostic
	for _, t := range m.Tools {
		for _, rel := range []string{"/inputSchema/properties/a", "/inputSchema/properties/b", "/inputSchema/properties/d/items", "/inputSchema/additionalProperties"} {
			pos := t.Locate(rel)
			ds = append(ds, lint.Diagnostic{Rule: "r", Severity: lint.Warning, Tool: t.Name, ToolIndex: t.Index, RelPointer: rel, File: "big", Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Message: "m"})
		}
	}
	srv := &Server{Name: "big", Transport: "stdio", Eras: []ServerEra{{Protocol: "2025-11-25", Handshake: "initialize", Manifest: m}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteText(io.Discard, []File{{Manifest: m, Diagnostics: ds}}, TextOptions{Server: srv}); err != nil {
			b.Fatal(err)
		}
	}
}
