package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpfit/mcplint/internal/testenv"
)

// fixedSafe is testdata/fixable.json after the safe fix of the test rules.
const fixedSafe = `{
  "tools": [
    {
      "name": "list_items",
      "description": "List the items. ",
      "inputSchema": {
        "properties": {},
        "type": "object"
      }
    },
    {
      "name": "get_item",
      "description": "Get one item.",
      "inputSchema": {"type": "object"}
    }
  ]
}
`

// fixedUnsafe is testdata/fixable.json after the safe and unsafe fixes.
var fixedUnsafe = strings.Replace(fixedSafe, `"List the items. "`, `"List the items."`, 1)

const remainingText = `testdata/fixable.json:5:7: warning test-trim-description: description ends with a space
  |
5 |       "description": "List the items. ",
  |       ^
  = hint: unsafe fix available with --unsafe-fixes (trim it)

context: 2 tools, about 45 tokens of tool definitions (estimated)
0 errors, 1 warning, 0 infos in 1 file (1 fixed in the output, 1 fixable with --unsafe-fixes)
`

func TestFixStdout(t *testing.T) {
	r := mcplint(t, runOpts{}, "fix", "--select=test", "testdata/fixable.json")
	r.want(t, 0) // what remains is a warning; --fail-on is error
	if diff := cmp.Diff(fixedSafe, r.stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(remainingText, r.stderr); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	mcplint(t, runOpts{}, "fix", "--select=test", "--fail-on=warning", "testdata/fixable.json").want(t, 1)

	r = mcplint(t, runOpts{}, "fix", "--select=test", "--unsafe-fixes", "--fail-on=info", "testdata/fixable.json")
	r.want(t, 0)
	if diff := cmp.Diff(fixedUnsafe, r.stdout); diff != "" {
		t.Errorf("--unsafe-fixes stdout (-want +got):\n%s", diff)
	}
	if r.stderr != "context: 2 tools, about 44 tokens of tool definitions (estimated)\n0 errors, 0 warnings, 0 infos in 1 file (2 fixed in the output)\n" {
		t.Errorf("--unsafe-fixes stderr: %q", r.stderr)
	}
	r = mcplint(t, runOpts{}, "fix", "--select=test", "--unsafe-fixes", "--quiet", "testdata/fixable.json")
	if r.code != 0 || r.stdout != fixedUnsafe || r.stderr != "" {
		t.Errorf("--quiet: %+v", r)
	}
	// What no rule can fix stays and fails the run.
	r = mcplint(t, runOpts{}, "fix", naming, "testdata/names.json")
	r.want(t, 1)
	src, _ := os.ReadFile("testdata/names.json")
	if r.stdout != string(src) || !strings.HasSuffix(r.stderr, "1 error, 2 warnings, 0 infos in 1 file\n") {
		t.Errorf("unfixable: %+v", r)
	}
}

func TestFixStdin(t *testing.T) {
	src, err := os.ReadFile("testdata/fixable.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {"-"}} {
		r := mcplint(t, runOpts{stdin: string(src)}, append([]string{"fix", "--select=test"}, args...)...)
		r.want(t, 0)
		if r.stdout != fixedSafe || !strings.HasPrefix(r.stderr, "<stdin>:5:7: warning test-trim-description") {
			t.Errorf("fix %v: %+v", args, r)
		}
	}
}

func TestFixUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"testdata/fixable.json", "testdata/clean.json"}, "2 files: standard output can carry only one manifest; use -w to rewrite them in place or --diff to print a patch"},
		{[]string{"-w"}, "-w cannot rewrite standard input"},
		{[]string{"-w", "testdata/clean.json", "-"}, "-w cannot rewrite standard input"},
	} {
		r := mcplint(t, runOpts{}, append([]string{"fix", "--select=test"}, c.args...)...)
		r.want(t, 2)
		if r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("fix %v: %+v", c.args, r)
		}
	}
}

// copyFile copies testdata/name to dir/as with the given mode.
func copyFile(t *testing.T, name, dir, as string, mode os.FileMode) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, as)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, src, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestFixWrite(t *testing.T) {
	dir := t.TempDir()
	a := copyFile(t, "fixable.json", dir, "a.json", 0o640)
	b := copyFile(t, "clean.json", dir, "b.json", 0o600)
	before, _ := os.Stat(b)
	r := mcplint(t, runOpts{}, "fix", "--select=test", "-w", a, b)
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("-w printed to stdout: %s", r.stdout)
	}
	if !strings.HasSuffix(r.stderr, "0 errors, 1 warning, 0 infos in 2 files (1 fixed and written, 1 fixable with --unsafe-fixes)\n") {
		t.Errorf("stderr: %s", r.stderr)
	}
	got, _ := os.ReadFile(a)
	if string(got) != fixedSafe {
		t.Errorf("a.json:\n%s", got)
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o640 {
		t.Errorf("a.json mode %v, want 0640", fi.Mode().Perm())
	}
	// A file without fixes is not rewritten.
	if after, _ := os.Stat(b); !os.SameFile(before, after) || after.Mode().Perm() != 0o600 {
		t.Error("b.json was rewritten")
	}
	if diff := cmp.Diff([]string{"a.json", "b.json"}, dirNames(t, dir)); diff != "" {
		t.Errorf("files left (-want +got):\n%s", diff)
	}
}

// TestFixWriteFailure: with -w, files are written all or nothing: one
// that cannot be rewritten leaves every file as it was, with no temporary
// file beside them, and says so; status 2.
func TestFixWriteFailure(t *testing.T) {
	dir := t.TempDir()
	// The name fits (255 bytes at most) but the temporary name beside it,
	// longer, does not: a failure even for root.
	long := strings.Repeat("x", 245) + ".json"
	good := copyFile(t, "fixable.json", dir, "good.json", 0o644)
	bad := copyFile(t, "fixable.json", dir, long, 0o644)
	r := mcplint(t, runOpts{}, "fix", "--select=test", "-w", good, bad)
	r.want(t, 2)
	// The input error comes last, after the report of what the fixes do.
	if !strings.Contains(r.stderr, "\nmcplint: write "+bad+": ") || !strings.HasSuffix(r.stderr, "file name too long; no file was written\n") ||
		!strings.Contains(r.stderr, "good.json:5:7: warning test-trim-description") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	src, _ := os.ReadFile("testdata/fixable.json")
	for _, p := range []string{good, bad} {
		if got, _ := os.ReadFile(p); !bytes.Equal(got, src) {
			t.Errorf("%s changed:\n%s", p, got)
		}
	}
	want := []string{"good.json", long}
	slices.Sort(want)
	if diff := cmp.Diff(want, dirNames(t, dir)); diff != "" {
		t.Errorf("files left (-want +got):\n%s", diff)
	}
}

func git(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s\npatch:\n%s", args, err, out, stdin)
	}
	return string(out)
}

// TestFixDiffGitApply checks --diff against the real judge: git apply, in a
// repository, with the paths as given on the command line.
func TestFixDiffGitApply(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs git:", err)
	}
	fixable, err := os.ReadFile("testdata/fixable.json")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	copyFile(t, "fixable.json", repo, "fixable.json", 0o644)
	copyFile(t, "clean.json", repo, "clean.json", 0o644)
	// CRLF line ends and a space in the path; a change on a last line
	// without a newline.
	crlf := strings.ReplaceAll(string(fixable), "\n", "\r\n")
	for name, src := range map[string]string{
		"sub dir/crlf.json": crlf,
		"oneline.json":      `{"tools": [{"name": "a", "description": "A. ", "inputSchema": {"type": "object"}}]}`,
	} {
		if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(repo)
	git(t, "", "init", "-q")

	files := []string{"fixable.json", "./sub dir/crlf.json", "clean.json", "oneline.json"}
	// What each file becomes, fixed on its own.
	want := map[string]string{}
	for _, f := range files {
		r := mcplint(t, runOpts{}, "fix", "--select=test", "--unsafe-fixes", f)
		r.want(t, 0)
		want[f] = r.stdout
	}
	r := mcplint(t, runOpts{}, append([]string{"fix", "--select=test", "--unsafe-fixes", "--diff"}, files...)...)
	r.want(t, 0)
	patch := r.stdout
	if !strings.HasPrefix(patch, "--- a/fixable.json\n+++ b/fixable.json\n@@ ") ||
		!strings.Contains(patch, "--- a/sub dir/crlf.json\n+++ b/sub dir/crlf.json\n") ||
		!strings.Contains(patch, "--- a/oneline.json\n+++ b/oneline.json\n") ||
		!strings.Contains(patch, "\\ No newline at end of file\n") || strings.Contains(patch, "clean.json") {
		t.Errorf("patch:\n%s", patch)
	}
	if got, _ := os.ReadFile("fixable.json"); !bytes.Equal(got, fixable) {
		t.Error("--diff changed the file")
	}
	git(t, patch, "apply", "--check", "-")
	git(t, patch, "apply", "-")
	for _, f := range files {
		got, _ := os.ReadFile(f)
		if diff := cmp.Diff(want[f], string(got)); diff != "" {
			t.Errorf("%s after git apply (-want +got):\n%s", f, diff)
		}
	}

	// --diff with -w prints the patch and writes the files.
	if err := os.WriteFile("fixable.json", fixable, 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{}, "fix", "--select=test", "--diff", "-w", "fixable.json")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "--- a/fixable.json\n") {
		t.Errorf("--diff -w printed:\n%s", r.stdout)
	}
	if got, _ := os.ReadFile("fixable.json"); string(got) != fixedSafe {
		t.Errorf("--diff -w wrote:\n%s", got)
	}
}

// TestFixNotConverging checks that fixes undoing each other make fix say
// which rules they are and exit 1, still writing the last round's result.
func TestFixNotConverging(t *testing.T) {
	r := mcplint(t, runOpts{stdin: `{"name": "a", "title": "x"}`}, "fix", "--select", "test-cycle", "--no-config")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "<stdin>: the fixes did not settle in 10 rounds: those of test-title-lower and test-title-upper keep changing") {
		t.Errorf("stderr does not say the fixes did not settle:\n%s", r.stderr)
	}
	if r.stdout != `{"name": "a", "title": "x"}` {
		t.Errorf("stdout: %q", r.stdout)
	}
}

// TestFixDiffAbsolutePath: --diff of a file named by its absolute path
// gives a patch git apply accepts: under the current directory, from
// there; elsewhere, from the root of the file's git work tree.
func TestFixDiffAbsolutePath(t *testing.T) {
	testenv.Command(t, "git")
	fixable, err := os.ReadFile("testdata/fixable.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		file, from string // the file under the repository, where mcplint runs
	}{
		{"under the current directory", "servers/tools.json", "."},
		{"in another repository", "servers/tools.json", "elsewhere"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			repo := filepath.Join(base, "repo")
			abs := filepath.Join(repo, c.file)
			copyFile(t, "fixable.json", repo, c.file, 0o644)
			git(t, "", "-C", repo, "init", "-q")
			wd := repo
			if c.from != "." {
				wd = filepath.Join(base, c.from)
				if err := os.MkdirAll(wd, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(wd)
			r := mcplint(t, runOpts{}, "fix", "--select=test", "--diff", abs)
			r.want(t, 0)
			if !strings.HasPrefix(r.stdout, "--- a/servers/tools.json\n+++ b/servers/tools.json\n") {
				t.Fatalf("patch headers:\n%s", r.stdout)
			}
			git(t, r.stdout, "-C", repo, "apply", "-")
			if got, _ := os.ReadFile(abs); string(got) != fixedSafe || bytes.Equal(got, fixable) {
				t.Errorf("after git apply:\n%s", got)
			}
		})
	}
}

// TestFixCountsWhatLintCounts checks that fix says it fixed as many
// findings as lint called fixable, on the README's example (where a fix
// uncovers another finding, whose fix is part of it) and on the manifests
// of every other format, and that the summary says where the fixes went.
func TestFixCountsWhatLintCounts(t *testing.T) {
	fixable := regexp.MustCompile(`\((\d+) fixable`)
	fixed := regexp.MustCompile(`\((\d+) (fixed in the output|to fix with -w|fixed and written)[,)]`)
	for _, file := range []string{"../../testdata/example/manifest.json", "testdata/foreign/openai-chat.json", "testdata/foreign/anthropic.yaml", "testdata/foreign/gemini.json"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			lint := mcplint(t, runOpts{}, "lint", file)
			m := fixable.FindStringSubmatch(lint.stdout)
			if m == nil {
				t.Fatalf("lint says nothing is fixable:\n%s", lint.stdout)
			}
			dir := t.TempDir()
			for _, c := range []struct {
				args  []string
				where string
			}{
				{nil, "fixed in the output"},
				{[]string{"--diff"}, "to fix with -w"},
				{[]string{"-w"}, "fixed and written"},
				{[]string{"-w", "--diff"}, "fixed and written"},
			} {
				path := file
				if slices.Contains(c.args, "-w") {
					src, err := os.ReadFile(file)
					if err != nil {
						t.Fatal(err)
					}
					path = filepath.Join(dir, filepath.Base(file))
					if err := os.WriteFile(path, src, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				r := mcplint(t, runOpts{}, append(append([]string{"fix"}, c.args...), path)...)
				f := fixed.FindStringSubmatch(r.stderr)
				if f == nil || f[1] != m[1] || f[2] != c.where {
					t.Errorf("fix %v says %q; lint said %s fixable, and the fixes went %s", c.args, f, m[1], c.where)
				}
			}
		})
	}
}
