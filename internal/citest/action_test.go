package citest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpfit/mcplint/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// action is the part of action.yml's syntax the test runs
// (https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions).
type action struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Author      string            `yaml:"author"`
	Branding    map[string]string `yaml:"branding"`
	Inputs      map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Env              map[string]string `yaml:"env"`
	With             map[string]string `yaml:"with"`
	WorkingDirectory string            `yaml:"working-directory"`
}

// runner plays the part of the GitHub Actions runner for a composite
// action: it evaluates the few expressions action.yml uses, runs each run:
// step as `bash --noprofile --norc -eo pipefail FILE` (the runner's command
// for shell: bash) in the workspace with the runner's variables
// (GITHUB_WORKSPACE, GITHUB_ACTION_PATH, GITHUB_OUTPUT a new file each
// step, GITHUB_PATH, GITHUB_ENV, GITHUB_STEP_SUMMARY, RUNNER_TEMP, CI), and
// collects step outputs. uses: steps are not run: setup-go must be skipped
// (Go is on this machine) and actions/cache is a cache miss.
type runner struct {
	t                       *testing.T
	action                  *action
	inputs                  map[string]string
	actionPath, workspace   string
	temp, summary, pathFile string
	steps                   map[string]map[string]string
	stdout                  bytes.Buffer
	ranUses                 []string

	// What the runner would say: github.action_ref (the ref in
	// `uses: mcpfit/mcplint@REF`, "" for a local action), runner.os and
	// runner.arch. newRunner sets Linux and the machine's architecture.
	actionRef, os, arch string
	// env is added to every step's environment; path replaces $PATH.
	env  []string
	path string
	// stopAfter names the step after which the run stops ("": none).
	stopAfter string
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval evaluates the expressions action.yml uses: context values
// (inputs.X, github.action_path, github.action_ref, runner.temp, runner.os,
// runner.arch, steps.ID.outputs.X), 'literals', a || b, and a != b / a == b.
// Anything else fails the test, so the action cannot outgrow what is tested.
func (r *runner) eval(e string) string {
	e = strings.TrimSpace(e)
	if parts := strings.Split(e, "||"); len(parts) > 1 {
		for _, p := range parts {
			if v := r.eval(p); v != "" {
				return v
			}
		}
		return ""
	}
	for _, op := range []string{"!=", "=="} {
		if a, b, ok := strings.Cut(e, op); ok {
			eq := r.eval(a) == r.eval(b)
			if (op == "==") == eq {
				return "true"
			}
			return ""
		}
	}
	if strings.HasPrefix(e, "'") && strings.HasSuffix(e, "'") && len(e) >= 2 {
		return e[1 : len(e)-1]
	}
	switch {
	case strings.HasPrefix(e, "inputs."):
		name := strings.TrimPrefix(e, "inputs.")
		in, ok := r.action.Inputs[name]
		if !ok {
			r.t.Fatalf("action.yml uses undeclared input %q", name)
		}
		if v, ok := r.inputs[name]; ok {
			return v
		}
		return in.Default
	case e == "github.action_path":
		return r.actionPath
	case e == "github.action_ref":
		return r.actionRef
	case e == "runner.temp":
		return r.temp
	case e == "runner.os":
		return r.os
	case e == "runner.arch":
		return r.arch
	case strings.HasPrefix(e, "steps."):
		id, rest, _ := strings.Cut(strings.TrimPrefix(e, "steps."), ".")
		name, ok := strings.CutPrefix(rest, "outputs.")
		if !ok {
			r.t.Fatalf("unsupported expression %q", e)
		}
		return r.steps[id][name]
	}
	r.t.Fatalf("action.yml uses the expression %q, which this test does not evaluate", e)
	return ""
}

func (r *runner) subst(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		return r.eval(expr.FindStringSubmatch(m)[1])
	})
}

// cond evaluates an if: (bare expression or ${{ }}); empty is true.
func (r *runner) cond(s string) bool {
	if s == "" {
		return true
	}
	if m := expr.FindStringSubmatch(s); m != nil && m[0] == strings.TrimSpace(s) {
		s = m[1]
	}
	return r.eval(s) != ""
}

// run runs the action's steps until one fails; it returns the failing
// step's exit status (0 when all pass).
func (r *runner) run() int {
	t := r.t
	if r.action.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", r.action.Runs.Using)
	}
	var extraPath []string
	for i, s := range r.action.Runs.Steps {
		if !r.cond(s.If) {
			continue
		}
		if s.Uses != "" {
			for _, v := range s.With {
				r.subst(v) // the expressions must evaluate
			}
			r.ranUses = append(r.ranUses, s.Uses)
			// What actions/cache restores: the binary an earlier run
			// built (its key file says from which source).
			if strings.HasPrefix(s.Uses, "actions/cache@") && cache.dir != "" {
				copyDir(t, cache.dir, r.subst(s.With["path"]))
			}
			continue
		}
		if s.Shell != "bash" {
			t.Fatalf("step %d: shell %q; the test runs bash steps", i, s.Shell)
		}
		script := filepath.Join(r.temp, fmt.Sprintf("step%d.sh", i))
		if err := os.WriteFile(script, []byte(r.subst(s.Run)), 0o644); err != nil {
			t.Fatal(err)
		}
		output := filepath.Join(r.temp, fmt.Sprintf("output%d", i))
		if err := os.WriteFile(output, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		dir := r.workspace
		if s.WorkingDirectory != "" {
			dir = filepath.Join(r.workspace, r.subst(s.WorkingDirectory))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), r.env...),
			"PATH="+strings.Join(append(extraPath, r.path), string(os.PathListSeparator)),
			"CI=true", "GITHUB_ACTIONS=true",
			"GITHUB_WORKSPACE="+r.workspace, "GITHUB_ACTION_PATH="+r.actionPath,
			"GITHUB_OUTPUT="+output, "GITHUB_PATH="+r.pathFile,
			"GITHUB_ENV="+filepath.Join(r.temp, "env"),
			"GITHUB_STEP_SUMMARY="+r.summary, "RUNNER_TEMP="+r.temp,
			"RUNNER_OS="+r.os, "RUNNER_ARCH="+r.arch,
		)
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+r.subst(v))
		}
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &r.stdout, &stderr
		err := cmd.Run()
		if s.ID != "" {
			r.steps[s.ID] = readOutputs(t, output)
		}
		// GITHUB_PATH additions apply to the steps after this one.
		if data, err := os.ReadFile(r.pathFile); err == nil {
			extraPath = nil
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if line != "" {
					extraPath = append([]string{line}, extraPath...)
				}
			}
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Logf("step %d (%s) exited %d; stderr:\n%s", i, s.ID, exit.ExitCode(), stderr.String())
			r.stdout.WriteString(stderr.String())
			return exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if s.ID != "" && s.ID == r.stopAfter {
			break
		}
	}
	return 0
}

// readOutputs reads a GITHUB_OUTPUT file: NAME=VALUE lines and
// NAME<<DELIMITER blocks.
func readOutputs(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var lines []string
			for sc.Scan() && sc.Text() != delim {
				lines = append(lines, sc.Text())
			}
			out[name] = strings.Join(lines, "\n")
			continue
		}
		if name, value, ok := strings.Cut(line, "="); ok {
			out[name] = value
		}
	}
	return out
}

func (r *runner) outputs() map[string]string {
	out := map[string]string{}
	for name, o := range r.action.Outputs {
		out[name] = r.subst(o.Value)
	}
	return out
}

func loadAction(t *testing.T, root string) *action {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.UnmarshalWithOptions(src, &a, yaml.Strict()); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

// newRunner prepares a workspace holding files.
func newRunner(t *testing.T, a *action, root string, inputs map[string]string, files map[string]string) *runner {
	base := t.TempDir()
	r := &runner{
		t: t, action: a, inputs: inputs, actionPath: root,
		workspace: filepath.Join(base, "workspace"), temp: filepath.Join(base, "temp"),
		steps: map[string]map[string]string{},
		os:    "Linux", arch: map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH],
		path: os.Getenv("PATH"),
	}
	r.summary = filepath.Join(r.temp, "summary.md")
	r.pathFile = filepath.Join(r.temp, "path")
	for _, d := range []string{r.workspace, r.temp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{r.summary, r.pathFile} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		write(t, filepath.Join(r.workspace, name), text)
	}
	return r
}

// cache holds the first run's mcplint-bin, for the runs after it.
var cache struct{ dir string }

func (r *runner) keepBuild() {
	if cache.dir == "" {
		cache.dir = filepath.Join(sharedDir, "mcplint-bin")
		copyDir(r.t, filepath.Join(r.temp, "mcplint-bin"), cache.dir)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

const actionManifest = `{
  "tools": [
    {"name": "get_item", "description": "Get one item.", "inputSchema": {"properties": {}}},
    {"name": "ping", "inputSchema": {"type": "object", "properties": {}}}
  ]
}
`

func TestActionLintsFiles(t *testing.T) {
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	r := newRunner(t, a, root, map[string]string{
		"files":      "servers/**/*.json",
		"sarif-file": "reports/mcplint.sarif",
	}, map[string]string{
		"servers/a/tools.json": actionManifest,
		"notes.txt":            "not linted",
	})
	code := r.run()
	r.keepBuild()
	if code != 1 {
		t.Fatalf("the action exited %d, want 1 (an error reaches fail-on error)\nstdout:\n%s", code, r.stdout.String())
	}
	if len(r.ranUses) != 1 || !strings.HasPrefix(r.ranUses[0], "actions/cache@") {
		t.Errorf("uses steps taken: %v; want only actions/cache (setup-go only without Go)", r.ranUses)
	}
	stdout := r.stdout.String()
	for _, want := range []string{
		"::error file=servers/a/tools.json,line=3,col=",
		"title=mcplint input-schema-root-object::tool \"get_item\": ",
		"::warning file=servers/a/tools.json,line=4,col=",
		"title=mcplint description-present::",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("annotations lack %q:\n%s", want, stdout)
		}
	}
	summary, err := os.ReadFile(r.summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### ❌ mcplint", "1 error, 1 warning, 0 infos in 1 file (1 fixable)", "| error | `servers/a/tools.json` | 3 | [input-schema-root-object]",
		// The client matrix, after the findings.
		"### mcplint: which clients take each tool", "| `get_item` | ❌ input-schema-root-object |", "| `ping` | ✅ |"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("step summary lacks %q:\n%s", want, summary)
		}
	}
	out := r.outputs()
	if out["exit-code"] != "1" || out["sarif-file"] != "reports/mcplint.sarif" {
		t.Errorf("outputs %v", out)
	}
	sarif, err := os.ReadFile(filepath.Join(r.workspace, "reports", "mcplint.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct{ Results []any }
	}
	if err := json.Unmarshal(sarif, &log); err != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) != 2 {
		t.Errorf("SARIF file: %v, %s", err, sarif)
	}
}

func TestActionPassesAndFails(t *testing.T) {
	if cache.dir == "" {
		TestActionLintsFiles(t) // builds mcplint; these runs reuse it
	}
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	clean := `{"tools": [{"name": "ok", "description": "Says ok.", "inputSchema": {"type": "object", "properties": {}}}]}`
	warn := `{"tools": [{"name": "ok", "inputSchema": {"type": "object", "properties": {}}}]}`
	for _, c := range []struct {
		name   string
		inputs map[string]string
		code   int
		stdout string
	}{
		{"clean", map[string]string{"files": "clean.json"}, 0, ""},
		{"warning below fail-on", map[string]string{"files": "warn.json"}, 0, "::warning file=warn.json"},
		{"warning at fail-on", map[string]string{"files": "warn.json", "fail-on": "warning"}, 1, "::warning file=warn.json"},
		{"config files and select", map[string]string{"select": "tool-name-valid"}, 0, ""},
		{"no match", map[string]string{"files": "missing/*.json"}, 2, "::error title=mcplint::files: no file matches missing/*.json"},
		// The pattern is escaped as the toolkit escapes a command's data.
		{"no match, escaped", map[string]string{"files": "missing/%0A::error::*.json"}, 2, "::error title=mcplint::files: no file matches missing/%250A::error::*.json"},
		{"text format", map[string]string{"files": "warn.json", "format": "text"}, 0, "warning description-present"},
		{"both server inputs", map[string]string{"server-command": "x", "server-url": "http://127.0.0.1:1/mcp"}, 2, "give server-command or server-url, not both"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRunner(t, a, root, c.inputs, map[string]string{
				"clean.json": clean, "warn.json": warn,
				".mcplint.yaml": "files: [clean.json, warn.json]\n",
			})
			code := r.run()
			if !strings.Contains(r.stdout.String(), "mcplint from cache\n") {
				t.Errorf("the build of the first run was not reused")
			}
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s", code, c.code, r.stdout.String())
			}
			if !strings.Contains(r.stdout.String(), c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, r.stdout.String())
			}
			if c.code != 2 && r.outputs()["exit-code"] != fmt.Sprint(c.code) {
				t.Errorf("exit-code output %q", r.outputs()["exit-code"])
			}
		})
	}
}

// TestActionHostileInputs: a file named like a flag is linted as a file,
// and an input holding a line break cannot write step outputs of its own.
func TestActionHostileInputs(t *testing.T) {
	if cache.dir == "" {
		TestActionLintsFiles(t) // builds mcplint; these runs reuse it
	}
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	warn := `{"tools": [{"name": "ok", "inputSchema": {"type": "object"}}]}`

	r := newRunner(t, a, root, map[string]string{"files": "-x.json"}, map[string]string{"-x.json": warn})
	if code := r.run(); code != 0 {
		t.Fatalf("exit %d, want 0 (a warning below fail-on)\n%s", code, r.stdout.String())
	}
	if !strings.Contains(r.stdout.String(), "::warning file=-x.json,") {
		t.Errorf("-x.json was not linted as a file:\n%s", r.stdout.String())
	}

	sarif := "reports/a.sarif\ninjected=yes"
	r = newRunner(t, a, root, map[string]string{"files": "warn.json", "fail-on": "warning", "sarif-file": sarif}, map[string]string{"warn.json": warn})
	if code := r.run(); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, r.stdout.String())
	}
	outs := r.steps["lint"]
	if _, ok := outs["injected"]; ok || outs["sarif-file"] != sarif || outs["exit-code"] != "1" {
		t.Errorf("step outputs %q: want sarif-file %q whole, exit-code 1, and nothing injected", outs, sarif)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, sarif)); err != nil {
		t.Errorf("the SARIF file: %v", err)
	}
}
