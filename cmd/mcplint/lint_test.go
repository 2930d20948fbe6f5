package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const namesText = `testdata/names.json:4:7: warning tool-name-valid: tool name "files/read file" contains '/', a space; use only A-Z a-z 0-9 _ - .
  |
4 |       "name": "files/read file",
  |       ^
  = discouraged by: MCP specification (SHOULD)

testdata/names.json:13:5: warning description-present: tool "search" has no description; the model needs one to know when and how to call it
   |
13 |     {
   |     ^

testdata/names.json:14:7: error tool-name-unique: tool name "search" is already used by tool 1 (line 9)
   |
14 |       "name": "search",
   |       ^
   = refused by: MCP specification

context: 3 tools, about 53 tokens of tool definitions (estimated)
1 error, 2 warnings, 0 infos in 1 file
`

func TestLintText(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", naming, "testdata/names.json")
	r.want(t, 1)
	if diff := cmp.Diff(namesText, r.stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
}

func TestLintClean(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", naming, "testdata/clean.json")
	r.want(t, 0)
	if r.stdout != "context: 1 tool, about 43 tokens of tool definitions (estimated)\n0 errors, 0 warnings, 0 infos in 1 file\n" {
		t.Errorf("stdout: %q", r.stdout)
	}
}

// jsonReport mirrors the documented JSON format, decoded strictly so that a
// renamed or added member shows up here.
type jsonReport struct {
	Version     int `json:"version"`
	Diagnostics []struct {
		Rule      string   `json:"rule"`
		Severity  string   `json:"severity"`
		Tool      string   `json:"tool"`
		ToolIndex int      `json:"toolIndex"`
		Pointer   string   `json:"pointer"`
		File      string   `json:"file"`
		Line      int      `json:"line"`
		Column    int      `json:"column"`
		Message   string   `json:"message"`
		Fix       string   `json:"fix"`
		RefusedBy []string `json:"refusedBy"`
		AlteredBy []string `json:"alteredBy"`
		AlsoRules []string `json:"alsoRules"`
		Rules     []string `json:"rules"`
		Consumers []struct {
			ID     string `json:"id"`
			Action string `json:"action"`
			Line   string `json:"line"`
		} `json:"consumers"`
	} `json:"diagnostics"`
	Summary struct {
		Errors        int `json:"errors"`
		Warnings      int `json:"warnings"`
		Infos         int `json:"infos"`
		Fixable       int `json:"fixable"`
		UnsafeFixable int `json:"unsafeFixable"`
		Files         int `json:"files"`
		Tools         int `json:"tools"`
		Prompts       int `json:"prompts"`
		Resources     int `json:"resources"`
		Templates     int `json:"resourceTemplates"`
		ContextTokens int `json:"contextTokens"`
		Context       []struct {
			File   string `json:"file"`
			Tools  int    `json:"tools"`
			Tokens int    `json:"tokens"`
		} `json:"context"`
	} `json:"summary"`
	Errors []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Message string `json:"message"`
	} `json:"errors"`
}

func decodeReport(t *testing.T, s string) jsonReport {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	var rep jsonReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value:\n%s", s)
	}
	return rep
}

func TestLintJSON(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", naming, "--format", "json", "testdata/names.json")
	r.want(t, 1)
	rep := decodeReport(t, r.stdout)
	if rep.Version != 1 || len(rep.Diagnostics) != 3 {
		t.Fatalf("report: %+v", rep)
	}
	d := rep.Diagnostics[2]
	if d.Rule != "tool-name-unique" || d.Severity != "error" || d.Tool != "search" || d.ToolIndex != 2 ||
		d.Pointer != "/tools/2/name" || d.File != "testdata/names.json" || d.Line != 14 || d.Column != 7 ||
		!strings.Contains(d.Message, "already used by tool 1") || d.Fix != "none" {
		t.Errorf("diagnostic: %+v", d)
	}
	if d := rep.Diagnostics[1]; d.Rule != "description-present" || d.Pointer != "/tools/2" || d.Severity != "warning" {
		t.Errorf("diagnostic: %+v", d)
	}
	s := rep.Summary
	if s.Errors != 1 || s.Warnings != 2 || s.Infos != 0 || s.Fixable != 0 || s.Files != 1 {
		t.Errorf("summary: %+v", s)
	}
	if s.ContextTokens < 20 || len(s.Context) != 1 || s.Context[0].File != "testdata/names.json" || s.Context[0].Tools != 3 || s.Context[0].Tokens != s.ContextTokens {
		t.Errorf("context of the summary: %d, %+v", s.ContextTokens, s.Context)
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Error("JSON output contains colour")
	}
}

func TestLintJSONClean(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", naming, "--format=json", "testdata/clean.json")
	r.want(t, 0)
	var raw map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil {
		t.Fatal(err)
	}
	if d, ok := raw["diagnostics"].([]any); !ok || len(d) != 0 {
		t.Errorf("diagnostics is %#v, want []", raw["diagnostics"])
	}
}

func TestLintJSONFixKinds(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", "--select=test", "--format=json", "testdata/fixable.json")
	r.want(t, 1)
	rep := decodeReport(t, r.stdout)
	var fixes []string
	for _, d := range rep.Diagnostics {
		fixes = append(fixes, d.Rule+":"+d.Fix)
	}
	want := []string{"test-trim-description:unsafe", "test-schema-type:safe"}
	if diff := cmp.Diff(want, fixes); diff != "" {
		t.Errorf("fixes (-want +got):\n%s", diff)
	}
	if rep.Summary.Fixable != 1 || rep.Summary.UnsafeFixable != 1 {
		t.Errorf("summary: %+v", rep.Summary)
	}
}

func TestFailOn(t *testing.T) {
	for _, c := range []struct {
		file, failOn string
		code         int
	}{
		{"warn.json", "", 0}, // default: error
		{"warn.json", "error", 0},
		{"warn.json", "warning", 1},
		{"warn.json", "info", 1},
		{"warn.json", "never", 0},
		{"names.json", "", 1},
		{"names.json", "never", 0},
		{"clean.json", "info", 0},
	} {
		t.Run(c.file+"/"+c.failOn, func(t *testing.T) {
			args := []string{"lint", naming, "--quiet", "testdata/" + c.file}
			if c.failOn != "" {
				args = append(args, "--fail-on", c.failOn)
			}
			mcplint(t, runOpts{}, args...).want(t, c.code)
		})
	}
}

func TestQuiet(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", naming, "-q", "testdata/clean.json")
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("clean and quiet, yet: %q", r.stdout)
	}
	r = mcplint(t, runOpts{}, "lint", naming, "--quiet", "testdata/names.json")
	r.want(t, 1)
	if r.stdout != "1 error, 2 warnings, 0 infos in 1 file\n" {
		t.Errorf("quiet: %q", r.stdout)
	}
}

// rulesFound runs lint --format json and returns the rules reported.
func rulesFound(t *testing.T, args ...string) []string {
	t.Helper()
	r := mcplint(t, runOpts{}, append([]string{"lint", "--format=json", "--fail-on=never"}, args...)...)
	r.want(t, 0)
	var found []string
	for _, d := range decodeReport(t, r.stdout).Diagnostics {
		found = append(found, d.Rule)
	}
	return found
}

func TestSelection(t *testing.T) {
	all := []string{"tool-name-valid", "description-present", "tool-name-unique"}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"comma-separated", []string{naming}, all},
		{"repeated", []string{"--select", "tool-name-valid", "--select", "tool-name-unique,description-present"}, all},
		{"spaces and empty entries", []string{"--select", " tool-name-valid , ,tool-name-unique,"}, []string{"tool-name-valid", "tool-name-unique"}},
		{"one rule", []string{"--select=tool-name-unique"}, []string{"tool-name-unique"}},
		{"ignore", []string{naming, "--ignore", "tool-name-valid,tool-name-unique"}, []string{"description-present"}},
		{"ignore beats select", []string{"--select=tool-name-valid", "--ignore=tool-name-valid"}, nil},
		{"extend-select", []string{"--select=tool-name-unique", "--extend-select", "description-present"}, []string{"description-present", "tool-name-unique"}},
		{"pack", []string{"--select=mcp", "--ignore=test"}, nil}, // checked below: superset
	} {
		t.Run(c.name, func(t *testing.T) {
			got := rulesFound(t, append(c.args, "testdata/names.json")...)
			if c.name == "pack" {
				for _, r := range all {
					if !strings.Contains(strings.Join(got, " "), r) {
						t.Errorf("--select mcp misses %s: %v", r, got)
					}
				}
				return
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProtocol(t *testing.T) {
	// Tool-name characters are checked from 2025-11-25 on; a missing
	// description at every version.
	got := rulesFound(t, naming, "--protocol", "2025-06-18", "testdata/names.json")
	if diff := cmp.Diff([]string{"description-present", "tool-name-unique"}, got); diff != "" {
		t.Errorf("2025-06-18 (-want +got):\n%s", diff)
	}
	got = rulesFound(t, naming, "--protocol=2025-11-25", "testdata/names.json")
	if len(got) != 3 {
		t.Errorf("2025-11-25: %v", got)
	}
	r := mcplint(t, runOpts{}, "lint", "--help")
	// Help is wrapped: the list may span lines.
	if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28") {
		t.Errorf("lint --help does not list the protocol versions:\n%s", r.stdout)
	}
}

func TestStdin(t *testing.T) {
	src, err := os.ReadFile("testdata/names.json")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(namesText, "testdata/names.json", "<stdin>")
	for _, args := range [][]string{{}, {"-"}} {
		r := mcplint(t, runOpts{stdin: string(src)}, append([]string{"lint", naming}, args...)...)
		r.want(t, 1)
		if diff := cmp.Diff(want, r.stdout); diff != "" {
			t.Errorf("lint %v (-want +got):\n%s", args, diff)
		}
	}
	// A terminal is read only when named.
	for _, cmd := range []string{"lint", "fix"} {
		r := mcplint(t, runOpts{stdin: string(src), stdinTTY: true}, cmd, naming)
		r.want(t, 2)
		if !strings.Contains(r.stderr, "no FILE given and standard input is a terminal") {
			t.Errorf("%s: stderr %q", cmd, r.stderr)
		}
	}
	mcplint(t, runOpts{stdin: string(src), stdinTTY: true}, "lint", naming, "-").want(t, 1)

	r := mcplint(t, runOpts{stdin: "{\"tools\": [\n  {\"name\": 1}\n"}, "lint", naming)
	r.want(t, 2)
	if !strings.HasPrefix(r.stderr, "mcplint: <stdin>:3:1: invalid JSON") {
		t.Errorf("stderr: %q", r.stderr)
	}
}

func TestSeveralFiles(t *testing.T) {
	r := mcplint(t, runOpts{}, "lint", naming, "--format=json", "testdata/names.json", "testdata/warn.json", "testdata/clean.json")
	r.want(t, 1)
	rep := decodeReport(t, r.stdout)
	if rep.Summary.Files != 3 || len(rep.Diagnostics) != 4 || rep.Diagnostics[3].File != "testdata/warn.json" {
		t.Errorf("report: %+v", rep)
	}
	r = mcplint(t, runOpts{}, "lint", naming, "testdata/warn.json", "testdata/clean.json")
	if !strings.HasSuffix(r.stdout, "\n0 errors, 1 warning, 0 infos in 2 files\n") {
		t.Errorf("stdout: %s", r.stdout)
	}
}

// TestInputErrors: files that cannot be read or parsed are reported once
// each on stderr, the others are still linted, and the status is 2 even
// when the good ones have findings.
func TestInputErrors(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		r := mcplint(t, runOpts{}, "lint", naming, "--format", format,
			"testdata/invalid.json", "testdata/missing.json", "testdata/names.json")
		r.want(t, 2)
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		if len(lines) != 2 ||
			!strings.HasPrefix(lines[0], "mcplint: testdata/invalid.json:3:18: invalid JSON: ") ||
			!strings.HasPrefix(lines[1], "mcplint: ") || !strings.Contains(lines[1], "testdata/missing.json") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		if format == "text" && r.stdout != namesText {
			t.Errorf("the good file is not reported:\n%s", r.stdout)
		}
		if format == "json" {
			// The report says what it lacks.
			if rep := decodeReport(t, r.stdout); rep.Summary.Files != 1 || len(rep.Diagnostics) != 3 || len(rep.Errors) != 2 ||
				rep.Errors[0].File != "testdata/invalid.json" || rep.Errors[0].Line != 3 || rep.Errors[0].Column != 18 || rep.Errors[1].File != "testdata/missing.json" {
				t.Errorf("report: %+v", rep)
			}
		}
	}
	r := mcplint(t, runOpts{}, "lint", naming, "testdata")
	r.want(t, 2)
	if r.stderr != "mcplint: testdata: is a directory, not a manifest file; name the manifests in it\n" {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// TestLintStreams: a run with one report, text or JSON, prints findings as
// the tools are linted (lintStreaming); a run that also writes another
// report holds them all first. Both print the same, for several files, one
// unreadable, with colour or quiet.
func TestLintStreams(t *testing.T) {
	files := []string{"../../testdata/example/manifest.json", "testdata/invalid.json", "testdata/names.json",
		"testdata/warn.json", "../../testdata/realworld/server-github/tools.json"}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, flags := range [][]string{nil, {"--select=all"}, {"--color=always"}, {"--quiet"}, {"--fail-on=never"}, {"--format=json"}, {"--format=json", "--select=all"}} {
		args := append(append([]string{"lint"}, flags...), files...)
		streamed := mcplint(t, runOpts{}, args...)
		more := []string{"--format=sarif=" + filepath.Join(t.TempDir(), "r.sarif")}
		if !slices.Contains(flags, "--format=json") {
			more = append(more, "--format=text")
		}
		held := mcplint(t, runOpts{}, append(args, more...)...)
		if streamed.code != held.code || streamed.stdout != held.stdout || streamed.stderr != held.stderr {
			t.Errorf("%v: streamed (exit %d) and held (exit %d) differ:\n%s", flags, streamed.code, held.code,
				cmp.Diff(held.stdout+held.stderr, streamed.stdout+streamed.stderr))
		}
		if !strings.Contains(streamed.stdout, "in 4 files") && !strings.Contains(streamed.stdout, `"files": 4,`) {
			t.Errorf("%v: stdout ends %q", flags, streamed.stdout[max(0, len(streamed.stdout)-200):])
		}
	}
}
