package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcplint/mcplint/convert"
	"github.com/mcplint/mcplint/manifest"
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
testdata/convert/tools.json:5:7: warning: tool "files.read" /title: OpenAI has no place for "title": dropped (only the name and description reach the model)
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
testdata/convert/openai-builtin.json:3:87: warning: tool "ping" /strict: MCP has no place for "strict": dropped (it belongs to the format the tool was read from)
`
	if diff := cmp.Diff(want, r.stderr); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.stdout, `"name": "ping"`) || strings.Contains(r.stdout, "web_search") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}
