package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const breakingText = `testdata/breaking-new.json:3:24: info description-changed: the description of tool "search" changed; check that agents still choose and call it as intended
  |
3 |     {"name": "search", "description": "Search the docs.", "inputSchema": {"required": ["q", "limit"]…
  |                        ^

testdata/breaking-new.json:3:93: error property-became-required: tool "search": property "limit" of the input is now required; calls that leave it out are rejected: keep it optional
  |
3 | …inputSchema": {"required": ["q", "limit"], "properties": {"q": {"type": "string"}, "limit": {"type":…
  |                                   ^

testdata/breaking-new.json:3:172: error bound-tightened: tool "search": property "limit": maximum tightened from 100 to 50; values between them are now rejected: keep 100
  |
3 | …perties": {"q": {"type": "string"}, "limit": {"type": "integer", "maximum": 50}}, "type": "object"}}
  |                                                                   ^

testdata/breaking-old.json:4:6: error tool-removed: tool "fetch" was removed; clients and agents that call it fail: keep it (deprecated in its description) until its users have moved
  |
4 |     {"name": "fetch", "description": "Fetch a URL.", "inputSchema": {"type": "object", "properties":…
  |      ^

3 errors, 0 warnings, 1 info in 2 files
`

func TestBreakingText(t *testing.T) {
	r := mcplint(t, runOpts{}, "breaking", "--against", "testdata/breaking-old.json", "testdata/breaking-new.json")
	r.want(t, 1)
	if diff := cmp.Diff(breakingText, r.stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}

func TestBreakingJSON(t *testing.T) {
	r := mcplint(t, runOpts{}, "breaking", "--format=json", "--ignore=non-breaking", "--against", "testdata/breaking-old.json", "testdata/breaking-new.json")
	r.want(t, 1)
	var rep jsonReport
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, d := range rep.Diagnostics {
		got = append(got, d.File+" "+d.Rule+" "+d.Pointer)
	}
	want := []string{
		"testdata/breaking-new.json property-became-required /tools/0/inputSchema/required/1",
		"testdata/breaking-new.json bound-tightened /tools/0/inputSchema/properties/limit/maximum",
		"testdata/breaking-old.json tool-removed /tools/1/name",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if rep.Summary.Errors != 3 || rep.Summary.Infos != 0 || rep.Summary.Files != 2 {
		t.Errorf("summary: %+v", rep.Summary)
	}
}

func TestBreakingNoChange(t *testing.T) {
	old, err := os.ReadFile("testdata/breaking-old.json")
	if err != nil {
		t.Fatal(err)
	}
	// Standard input as OLD; the same list is no change, exit 0.
	r := mcplint(t, runOpts{stdin: string(old)}, "breaking", "--against", "-", "testdata/breaking-old.json")
	r.want(t, 0)
	if r.stdout != "0 errors, 0 warnings, 0 infos in 2 files\n" {
		t.Errorf("stdout: %q", r.stdout)
	}
	// Only infos: below --fail-on error, exit 0; --fail-on info makes them count.
	r = mcplint(t, runOpts{}, "breaking", "--against", "testdata/breaking-new.json", "testdata/breaking-old.json", "--select", "non-breaking")
	r.want(t, 0)
	r = mcplint(t, runOpts{}, "breaking", "--against", "testdata/breaking-new.json", "testdata/breaking-old.json", "--select", "non-breaking", "--fail-on", "info", "-q")
	r.want(t, 1)
}

func TestBreakingGit(t *testing.T) {
	dir := t.TempDir()
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	old, err := os.ReadFile("testdata/breaking-old.json")
	if err != nil {
		t.Fatal(err)
	}
	gitRun("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun("add", "tools.json")
	gitRun("commit", "-q", "-m", "tools")
	newPath, err := filepath.Abs("testdata/breaking-new.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	r := mcplint(t, runOpts{}, "breaking", "--against", "git:HEAD:tools.json", "--ignore=non-breaking", newPath)
	r.want(t, 1)
	if !strings.Contains(r.stdout, "git:HEAD:tools.json:4:6: error tool-removed: tool \"fetch\" was removed") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	r = mcplint(t, runOpts{}, "breaking", "--against", "git:nope:tools.json", newPath)
	r.want(t, 2)
	if !strings.Contains(r.stderr, "git:nope:tools.json: git show nope:tools.json failed") {
		t.Errorf("stderr: %s", r.stderr)
	}
}

func TestBreakingLive(t *testing.T) {
	old := filepath.Join(t.TempDir(), "old.json")
	// The test server's echo requires "text"; here it is optional.
	src := `{"tools": [
  {"name": "echo", "description": "Echo the text back.", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
  {"name": "read file", "description": "Read a file.", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}
]}`
	if err := os.WriteFile(old, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcplint(t, runOpts{}, "breaking", "--against", old, "--live", serverEnvFlag("ok"), "--", os.Args[0], "-test.run=^$")
	r.want(t, 1)
	if !strings.Contains(r.stdout, `error property-became-required: tool "echo": property "text" of the input is now required`) || !strings.Contains(r.stdout, "1 error, 0 warnings, 0 infos in 2 files") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

func TestBreakingUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"breaking", "testdata/breaking-new.json"}, `mcplint: --against is required; `},
		{[]string{"breaking", "--against", "-", "-"}, "standard input (-) can be read only once"},
		{[]string{"breaking", "--against", "git:main", "testdata/breaking-new.json"}, `"git:main": want git:REF:PATH`},
		{[]string{"breaking", "--against", "testdata/breaking-old.json", "a.json", "b.json"}, "one NEW tool list"},
		{[]string{"breaking", "--against", "testdata/breaking-old.json", "--select", "tool-name-valid", "testdata/breaking-new.json"}, `unknown rule or pack "tool-name-valid"`},
		{[]string{"breaking", "--against", "testdata/breaking-old.json", "--format", "xml", "testdata/breaking-new.json"}, "--format: unknown format"},
		{[]string{"breaking", "--against", "testdata/missing.json", "testdata/breaking-new.json"}, "missing.json"},
	} {
		r := mcplint(t, runOpts{}, c.args...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: stderr %q lacks %q", c.args, r.stderr, c.want)
		}
	}
}

func TestBreakingSARIF(t *testing.T) {
	r := mcplint(t, runOpts{}, "breaking", "--format=sarif", "--against", "testdata/breaking-old.json", "testdata/breaking-new.json")
	r.want(t, 1)
	if !strings.Contains(r.stdout, `"ruleId": "tool-removed"`) {
		t.Errorf("SARIF lacks the tool-removed result:\n%s", r.stdout)
	}
}
