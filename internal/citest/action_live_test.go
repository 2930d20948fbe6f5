package citest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

var testServer struct {
	once sync.Once
	path string
	err  error
}

// stdioServer builds testdata/server, a go-sdk stdio server with a tool
// whose name has a space, and returns its path.
func stdioServer(t *testing.T) string {
	t.Helper()
	testServer.once.Do(func() {
		testServer.path = filepath.Join(sharedDir, "server", "citest-server")
		cmd := exec.Command("go", "build", "-o", testServer.path, "./internal/citest/testdata/server")
		cmd.Dir = testenv.RepoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			testServer.err = err
			t.Logf("%s", out)
		}
	})
	if testServer.err != nil {
		t.Fatalf("build the test server: %v", testServer.err)
	}
	return testServer.path
}

// sourceBuild runs the action once from source, so that the runs after it
// restore that build as actions/cache would.
func sourceBuild(t *testing.T) {
	if cache.dir == "" {
		TestActionLintsFiles(t)
	}
}

// TestActionLiveCheckWithConfig: the config input is mcplint's
// configuration for a live check too (check read it as an MCP client
// configuration, and failed with status 2), and sarif-file is written for
// a live check from the same run.
func TestActionLiveCheckWithConfig(t *testing.T) {
	sourceBuild(t)
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	server := stdioServer(t)
	files := map[string]string{".github/mcplint.yaml": "select: [tool-name-valid]\nfail-on: warning\n"}

	r := newRunner(t, a, root, map[string]string{
		"server-command": server, "config": ".github/mcplint.yaml", "sarif-file": "reports/live.sarif",
	}, files)
	if code := r.run(); code != 1 {
		t.Fatalf("exit %d, want 1 (the configuration fails on the warning)\n%s", code, r.stdout.String())
	}
	if out := r.stdout.String(); !strings.Contains(out, "::warning file=citest-server,line=1,") || !strings.Contains(out, "title=mcplint tool-name-valid::tool \"read note\"") {
		t.Errorf("no annotation of the live finding:\n%s", out)
	}
	if out := r.outputs(); out["exit-code"] != "1" || out["sarif-file"] != "reports/live.sarif" {
		t.Errorf("outputs %v", out)
	}
	var log struct {
		Runs []struct {
			AutomationDetails struct{ ID string }
			Results           []struct{ RuleID string }
		}
	}
	b, err := os.ReadFile(filepath.Join(r.workspace, "reports", "live.sarif"))
	if err != nil || json.Unmarshal(b, &log) != nil || len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "tool-name-valid" {
		t.Errorf("SARIF of the live check (%v):\n%s", err, b)
	}
	if id := log.Runs[0].AutomationDetails.ID; id != "mcplint/check/.github/mcplint.yaml/" {
		t.Errorf("automationDetails.id = %q", id)
	}

	// Without the configuration: the default rules and fail-on error.
	r = newRunner(t, a, root, map[string]string{"server-command": server}, nil)
	if code := r.run(); code != 0 {
		t.Fatalf("exit %d, want 0 (only warnings)\n%s", code, r.stdout.String())
	}
}

// bash32 is a BASH_ENV script that makes bash behave as Bash 3.2 (macOS
// runners) does for the action: globstar is not a shell option.
const bash32 = `shopt() {
	case " $* " in
	*" globstar "*) echo "shopt: globstar: invalid shell option name" >&2; return 1 ;;
	esac
	builtin shopt "$@"
}
`

var annotatedFile = regexp.MustCompile(`(?m)^::\w+ file=([^,]+),`)

// TestActionGlobstarWithoutBash4: the files input matches "**" the same
// with Bash 3.2, which has no globstar, as with a bash that has it.
func TestActionGlobstarWithoutBash4(t *testing.T) {
	sourceBuild(t)
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	warn := `{"tools": [{"name": "ok", "inputSchema": {"type": "object", "properties": {}}}]}`
	files := map[string]string{
		"servers/top.json":          warn,
		"servers/a/tools.json":      warn,
		"servers/a/b/deep.json":     warn,
		"servers/a/b/notes.txt":     "not a manifest",
		"servers/.cache/stale.json": warn,
		"other/x.json":              warn,
		"one [draft].json":          warn,
	}
	inputs := map[string]string{"files": "servers/**/*.json ./servers/a/t?ols.json one?[[]draft].json"}
	bashEnv := filepath.Join(t.TempDir(), "bash32.sh")
	if err := os.WriteFile(bashEnv, []byte(bash32), 0o644); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, env := range [][]string{nil, {"BASH_ENV=" + bashEnv}} {
		r := newRunner(t, a, root, inputs, files)
		r.env = append(r.env, env...)
		if code := r.run(); code != 0 {
			t.Fatalf("%v: exit %d\n%s", env, code, r.stdout.String())
		}
		var linted []string
		for _, m := range annotatedFile.FindAllStringSubmatch(r.stdout.String(), -1) {
			linted = append(linted, m[1])
		}
		slices.Sort(linted)
		got = append(got, slices.Compact(linted))
	}
	// ./servers/a/tools.json is linted twice, and annotated as
	// servers/a/tools.json, its path from the repository's root.
	want := []string{"one [draft].json", "servers/a/b/deep.json", "servers/a/tools.json", "servers/top.json"}
	if !slices.Equal(got[0], want) {
		t.Errorf("with globstar: linted %q, want %q", got[0], want)
	}
	if !slices.Equal(got[1], want) {
		t.Errorf("as Bash 3.2: linted %q, want %q", got[1], want)
	}
}

// TestActionListingNewlineNames: without globstar, "**" patterns are
// matched against a listing of the work tree. A folder whose name ends
// in a line feed must not split one path into two: a repository with
// "x\n/ABS/PATH/tools.json" in it would otherwise have mcplint read the
// runner's own /ABS/PATH/tools.json, out of the tree, into the log.
func TestActionListingNewlineNames(t *testing.T) {
	sourceBuild(t)
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	outside := filepath.Join(t.TempDir(), "secret", "tools.json")
	write(t, outside, `{"tools": [{"name": "outside the tree", "inputSchema": {"type": "object"}}]}`)
	clean := `{"tools": [{"name": "ok", "description": "Fine.", "inputSchema": {"type": "object", "properties": {}}}]}`
	files := map[string]string{"x\n" + outside: clean, "servers/-dash.json": clean}
	bashEnv := filepath.Join(t.TempDir(), "bash32.sh")
	if err := os.WriteFile(bashEnv, []byte(bash32), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, env := range [][]string{nil, {"BASH_ENV=" + bashEnv}} {
		r := newRunner(t, a, root, map[string]string{"files": "**/*.json", "fail-on": "never"}, files)
		r.env = append(r.env, env...)
		code := r.run()
		out := r.stdout.String()
		if strings.Contains(out, "outside the tree") || strings.Contains(out, "file="+outside) {
			t.Errorf("%v: a file out of the work tree was linted:\n%s", env, out)
		}
		if code != 0 {
			t.Errorf("%v: exit %d\n%s", env, code, out)
		}
	}
}
