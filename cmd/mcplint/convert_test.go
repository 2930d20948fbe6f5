package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/manifest"
)

const convertTools = "testdata/convert/tools.json"

// converted is what the library makes of a manifest, which the command
// must print unchanged.
func converted(t *testing.T, path, target string, o convert.Options) string {
	t.Helper()
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := convert.FromManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := convert.To(target, tools, o)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// openaiWarnings are the warnings for convertTools --to openai: each names
// the file, the place of the tool member, the tool and its pointer.
const openaiWarnings = `testdata/convert/tools.json:4:7: warning: tool "files.read" /name: renamed to "files_read": OpenAI tool names must match ^[a-zA-Z0-9_-]{1,64}$
testdata/convert/tools.json:5:7: warning: "title" dropped from 1 tool (OpenAI has no place for it: only the name and description reach the model): files.read
`

func TestConvert(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		target string
		o      convert.Options
	}{
		{[]string{"--to", "mcp"}, "mcp", convert.Options{}},
		{[]string{"--to=openai"}, "openai", convert.Options{}},
		{[]string{"--to=openai", "--api=chat"}, "openai", convert.Options{API: "chat"}},
		{[]string{"--to=openai", "--api=responses", "--strict"}, "openai", convert.Options{API: "responses", Strict: true}},
		{[]string{"--to=anthropic"}, "anthropic", convert.Options{}},
		{[]string{"--to=gemini"}, "gemini", convert.Options{}},
		{[]string{"--to=gemini", "--gemini-max-depth=3"}, "gemini", convert.Options{}},
		{[]string{"--to=gemini", "--gemini-max-depth=1"}, "gemini", convert.Options{GeminiMaxDepth: 1}},
		{[]string{"--to=gemini", "--gemini-json-schema"}, "gemini", convert.Options{GeminiJSONSchema: true}},
		{[]string{"--to=zod"}, "zod", convert.Options{}},
		{[]string{"--to=zod", "--zod=4"}, "zod", convert.Options{Zod: 4}},
		{[]string{"--to=zod", "--zod=3"}, "zod", convert.Options{Zod: 3}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := mcplint(t, runOpts{}, append(append([]string{"convert"}, tt.args...), convertTools)...)
			r.want(t, 0)
			if diff := cmp.Diff(converted(t, convertTools, tt.target, tt.o), r.stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
	r := mcplint(t, runOpts{}, "convert", "--to=openai", convertTools)
	if diff := cmp.Diff(openaiWarnings, r.stderr); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	r = mcplint(t, runOpts{}, "convert", "--to=mcp", convertTools)
	if r.stderr != "" {
		t.Errorf("--to mcp warned: %q", r.stderr)
	}
}

func TestConvertFailOn(t *testing.T) {
	r := mcplint(t, runOpts{}, "convert", "--to=openai", "--fail-on=warning", convertTools)
	r.want(t, 1)
	if r.stdout == "" || r.stderr != openaiWarnings {
		t.Errorf("with warnings, the output is still written and the warnings printed: %+v", r)
	}
	mcplint(t, runOpts{}, "convert", "--to=openai", "--fail-on=warning", "testdata/convert/clean.json").want(t, 0)
	mcplint(t, runOpts{}, "convert", "--to=openai", "--fail-on=never", convertTools).want(t, 0)
}

func TestConvertStdin(t *testing.T) {
	src, err := os.ReadFile(convertTools)
	if err != nil {
		t.Fatal(err)
	}
	want := converted(t, convertTools, "anthropic", convert.Options{})
	for _, args := range [][]string{{"convert", "--to=anthropic", "-"}, {"convert", "--to=anthropic"}} {
		r := mcplint(t, runOpts{stdin: string(src)}, args...)
		r.want(t, 0)
		if r.stdout != want {
			t.Errorf("%v: stdout %q", args, r.stdout)
		}
		if !strings.HasPrefix(r.stderr, "<stdin>:4:7: warning: tool \"files.read\" /name: renamed") {
			t.Errorf("%v: stderr %q", args, r.stderr)
		}
	}
	r := mcplint(t, runOpts{stdinTTY: true}, "convert", "--to=anthropic")
	r.want(t, 2)
}

func TestConvertOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "tools.openai.json")
	r := mcplint(t, runOpts{}, "convert", "--to=openai", "-o", out, convertTools)
	r.want(t, 0)
	if r.stdout != "" || r.stderr != openaiWarnings {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != converted(t, convertTools, "openai", convert.Options{}) {
		t.Errorf("-o wrote %s", got)
	}
	// A file that cannot be written is an input error.
	bad := filepath.Join(dir, "missing", "out.json")
	r = mcplint(t, runOpts{}, "convert", "--to=mcp", "-o", bad, convertTools)
	r.want(t, 2)
	if r.stdout != "" || !strings.Contains(r.stderr, "missing") {
		t.Errorf("unwritable -o: %+v", r)
	}
	// An existing file is replaced.
	mcplint(t, runOpts{}, "convert", "--to=mcp", "--output", out, convertTools).want(t, 0)
	if got, _ := os.ReadFile(out); string(got) != converted(t, convertTools, "mcp", convert.Options{}) {
		t.Errorf("--output did not replace the file: %s", got)
	}
}

func TestConvertErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{convertTools}, "--to is required"},
		{[]string{"--to=yaml", convertTools}, `--to: unknown format "yaml"`},
		{[]string{"--to=anthropic", "--strict", convertTools}, "--strict applies only to --to openai"},
		{[]string{"--to=gemini", "--api=chat", convertTools}, "--api applies only to --to openai"},
		{[]string{"--to=openai", "--gemini-json-schema", convertTools}, "--gemini-json-schema applies only to --to gemini"},
		{[]string{"--to=openai", "--zod=3", convertTools}, "--zod applies only to --to zod"},
		{[]string{"--to=openai", "--api=assistants", convertTools}, `--api: unknown API "assistants"`},
		{[]string{"--to=zod", "--zod=5", convertTools}, "--zod: unknown Zod major version 5"},
		{[]string{"--to=gemini", "--gemini-max-depth=-1", convertTools}, "--gemini-max-depth: -1 is not a positive number"},
		{[]string{"--to=gemini", "--gemini-json-schema", "--gemini-max-depth=2", convertTools}, "--gemini-max-depth applies to parameters"},
		{[]string{"--to=mcp", "--fail-on=error", convertTools}, `--fail-on: unknown value "error"`},
		{[]string{"--to=mcp", convertTools, convertTools}, "2 files: convert reads one manifest"},
		{[]string{"--to=mcp", "testdata/convert/missing.json"}, "testdata/convert/missing.json"},
		{[]string{"--to=mcp", "testdata/convert/invalid.json"}, "testdata/convert/invalid.json:2:53: invalid JSON"},
		{[]string{"--to=openai", "testdata/convert/string-root.json"}, `testdata/convert/string-root.json:2:20: tool "echo" /inputSchema: `},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			r := mcplint(t, runOpts{}, append([]string{"convert", "-o", out}, tt.args...)...)
			r.want(t, 2)
			if !strings.Contains(r.stderr, tt.msg) {
				t.Errorf("stderr %q does not say %q", r.stderr, tt.msg)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q", r.stdout)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("-o %s was written", out)
			}
		})
	}
}

// TestConvertLintsClean: what convert writes for a provider passes that
// provider's rules. The manifest is the library's representative one.
func TestConvertLintsClean(t *testing.T) {
	const tools = "../../convert/testdata/tools.json"
	for _, tt := range []struct{ convert, packs []string }{
		{[]string{"--to=openai"}, []string{"openai"}},
		{[]string{"--to=openai", "--api=responses"}, []string{"openai"}},
		{[]string{"--to=openai", "--strict"}, []string{"openai,openai-strict"}},
		{[]string{"--to=openai", "--api=responses", "--strict"}, []string{"openai,openai-strict"}},
		{[]string{"--to=anthropic"}, []string{"claude"}},
		{[]string{"--to=mcp"}, []string{"mcp"}},
	} {
		t.Run(strings.Join(tt.convert, " "), func(t *testing.T) {
			r := mcplint(t, runOpts{}, append(append([]string{"convert"}, tt.convert...), tools)...)
			r.want(t, 0)
			l := mcplint(t, runOpts{stdin: r.stdout}, "lint", "--select="+strings.Join(tt.packs, ","), "--fail-on=info", "-")
			l.want(t, 0)
		})
	}
}

// TestConvertSkipped: a provider's own tools (not functions) are not
// converted, and the run says so.
func TestConvertSkipped(t *testing.T) {
	r := mcplint(t, runOpts{}, "convert", "--to=mcp", "--fail-on=warning", "testdata/convert/openai-builtin.json")
	r.want(t, 1)
	want := `testdata/convert/openai-builtin.json:2:3: warning: the provider tool "web_search" /tools/0: not a function, so there is nothing to convert; dropped
testdata/convert/openai-builtin.json:3:87: warning: "strict" dropped from 1 tool (MCP has no place for it: it belongs to the format the tools were read from): ping
`
	if diff := cmp.Diff(want, r.stderr); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.stdout, `"name": "ping"`) || strings.Contains(r.stdout, "web_search") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// TestConvertRewrites: the rewrites that make a target accept what it
// would refuse are warnings, printed in the order of the source (the
// library lists a tool's description cut after its schema's losses), and
// the members every tool loses are one line, at the first tool.
func TestConvertRewrites(t *testing.T) {
	const file = "testdata/convert/rewrites.json"
	r := mcplint(t, runOpts{}, "convert", "--to=openai", "--strict", file)
	r.want(t, 0)
	want := []string{
		file + `:4:7: warning: tool "issues.search" /name: renamed to "issues_search"`,
		file + `:5:7: warning: "title" dropped from 4 tools (OpenAI has no place for it: only the name and description reach the model): issues.search, issues.get, issues.close, …`,
		file + `:6:7: warning: tool "issues.search" /description: the description has 1539 characters and OpenAI takes at most 1024: cut at a word boundary, ending with "…" (522 characters cut)`,
		file + `:10:39: warning: tool "issues.search" /inputSchema/properties/query/minLength: strict mode does not support "minLength"`,
		file + `:11:40: warning: tool "issues.search" /inputSchema/properties/labels/propertyNames: strict mode does not support "propertyNames"`,
		file + `:11:82: warning: tool "issues.search" /inputSchema/properties/labels/additionalProperties: strict mode requires "additionalProperties": false`,
		file + `:13:9: warning: tool "issues.search" /inputSchema/required: "project" was required but never declared in "properties"`,
		file + `:17:7: warning: tool "issues.get" /name: renamed to "issues_get"`,
		file + `:22:7: warning: tool "issues.close" /name: renamed to "issues_close"`,
		file + `:27:7: warning: tool "issues.reopen" /name: renamed to "issues_reopen"`,
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), r.stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d:\n got %s\nwant %s…", i+1, lines[i], w)
		}
	}
	// The description OpenAI reads fits, and ends where a word does.
	var doc struct {
		Tools []struct {
			Function struct{ Description string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	src, err := manifest.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := convert.FromManifest(src)
	if err != nil {
		t.Fatal(err)
	}
	orig := tools[0].Description
	d := doc.Tools[0].Function.Description
	kept, cut := strings.CutSuffix(d, "…")
	if n := utf8.RuneCountInString(d); n > 1024 || n < 900 || !cut || !strings.HasPrefix(orig, kept) || orig[len(kept)] != ' ' {
		t.Errorf("description of %d characters, not a prefix of the original cut at a word boundary: ...%q", n, d[max(0, len(d)-20):])
	}
}

// TestConvertRefused: what the target still refuses after the rewrites is
// an error at its place in the source, and the run exits with status 1
// whatever --fail-on says; the output is written all the same.
func TestConvertRefused(t *testing.T) {
	const file = "testdata/convert/gemini-shapes.json"
	out := filepath.Join(t.TempDir(), "gemini.json")
	for _, args := range [][]string{
		{"convert", "--to=gemini", file},
		{"convert", "--to=gemini", "--fail-on=never", "-o", out, file},
	} {
		r := mcplint(t, runOpts{}, args...)
		r.want(t, 1)
		want := file + `:9:11: error: tool "search" /inputSchema/properties/query: refused by Gemini parameters: object schema without properties, which Gemini refuses ("should be non-empty for OBJECT type"); declare its properties, or take it as a JSON string; it is required, so it cannot be left out; Gemini's parametersJsonSchema (convert --gemini-json-schema) takes it as JSON Schema [gemini-object-properties]
` + file + `:10:11: warning: tool "search" /inputSchema/properties/tags: Gemini's parameters cannot say an array without "items", which Gemini refuses: the optional property "tags" is left out, so the model can no longer send it
`
		if diff := cmp.Diff(want, r.stderr); diff != "" {
			t.Errorf("%v: stderr (-want +got):\n%s", args, diff)
		}
	}
	if got, err := os.ReadFile(out); err != nil || !strings.Contains(string(got), `"query"`) || strings.Contains(string(got), `"tags"`) {
		t.Errorf("-o wrote %q (%v)", got, err)
	}
	// The way out the error names takes the map as it is.
	r := mcplint(t, runOpts{}, "convert", "--to=gemini", "--gemini-json-schema", file)
	r.want(t, 0)
	if r.stderr != "" || !strings.Contains(r.stdout, `"tags"`) {
		t.Errorf("--gemini-json-schema: %+v", r)
	}
}

// TestReportLine: convert's report lines read FILE:LINE:COL: SEVERITY:
// TEXT, and FILE: SEVERITY: TEXT for what has no place in the file; they
// sort by the offset of their place.
func TestReportLine(t *testing.T) {
	l := reportLine("dir/tools.json", manifest.Position{Offset: 1234, Line: 56, Column: 7}, "error", "tool \"x\" /name: refused")
	if got, want := string(l.text), "dir/tools.json:56:7: error: tool \"x\" /name: refused\n"; got != want || l.off != 1234 {
		t.Errorf("placed: got %q at %d, want %q at 1234", got, l.off, want)
	}
	l = reportLine("<stdin>", manifest.Position{}, "warning", "w")
	if got, want := string(l.text), "<stdin>: warning: w\n"; got != want || l.off != 0 {
		t.Errorf("unplaced: got %q at %d, want %q at 0", got, l.off, want)
	}
}
