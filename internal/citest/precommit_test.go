package citest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// snapshot commits this repository's current files (tracked and new, not
// ignored) into a fresh git repository, since pre-commit clones a hook
// repository at a revision, and returns its path and commit.
func snapshot(t *testing.T, root string) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mcplint")
	list := run(t, root, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	for _, name := range strings.Split(strings.TrimRight(list, "\x00"), "\x00") {
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "snapshot")
	return dir, strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
}

var gitIdentity = []string{
	"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return run(t, dir, gitIdentity, "git", args...)
}

const brokenFixable = `{"tools": [{"name": "get_item", "description": "Get one item.", "inputSchema": {"properties": {}}}]}
`

// brokenUnfixable has two tools of one name: an error no fix repairs.
const brokenUnfixable = `{"tools": [
  {"name": "a", "description": "A.", "inputSchema": {"type": "object"}},
  {"name": "a", "description": "A again.", "inputSchema": {"type": "object"}}
]}
`

// TestPreCommitHooks installs the hooks of .pre-commit-hooks.yaml with the
// real pre-commit, which builds mcplint from a clone of this repository
// (language: golang) from the module cache alone (GOPROXY=off: no network),
// and commits manifests through them.
func TestPreCommitHooks(t *testing.T) {
	testenv.Command(t, "pre-commit")
	root := testenv.RepoRoot(t)
	hooks, rev := snapshot(t, root)

	repo := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	config := "repos:\n  - repo: " + hooks + "\n    rev: " + rev + "\n    hooks:\n      - id: mcplint-fix\n      - id: mcplint\n"
	write(t, filepath.Join(repo, ".pre-commit-config.yaml"), config)
	write(t, filepath.Join(repo, "README.md"), "not a manifest\n")
	write(t, filepath.Join(repo, "package.json"), `{"name": "not a manifest"}`)
	env := append([]string{
		"PRE_COMMIT_HOME=" + filepath.Join(t.TempDir(), "pre-commit"),
		"GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
		"GOCACHE=" + goEnv(t, "GOCACHE"),
		"GOPROXY=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
	}, gitIdentity...)
	run(t, repo, env, "pre-commit", "install")
	git(t, repo, "add", "-A")
	run(t, repo, env, "git", "commit", "-q", "-m", "files that are not manifests pass")

	commit := func(msg string) (string, error) {
		git(t, repo, "add", "-A")
		out, err := command(repo, env, "git", "commit", "-q", "-m", msg).CombinedOutput()
		return string(out), err
	}

	// A manifest with a fixable error: the commit fails, the fix hook has
	// repaired the file, and the repaired file commits.
	manifest := filepath.Join(repo, "server", "tools.json")
	write(t, manifest, brokenFixable)
	if out, err := commit("broken"); err == nil {
		t.Fatalf("a broken manifest was committed:\n%s", out)
	} else if !strings.Contains(out, "files were modified by this hook") {
		t.Errorf("the fix hook did not report its change:\n%s", out)
	}
	fixed, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), `"type": "object"`) {
		t.Errorf("the fix hook did not repair the manifest:\n%s", fixed)
	}
	if out, err := commit("fixed"); err != nil {
		t.Fatalf("the repaired manifest does not commit: %v\n%s", err, out)
	}

	// An error no fix repairs: the lint hook fails the commit and says why.
	write(t, filepath.Join(repo, "more.tools.json"), brokenUnfixable)
	out, err := commit("duplicate names")
	if err == nil {
		t.Fatalf("a manifest with duplicate tool names was committed:\n%s", out)
	}
	if !strings.Contains(out, "tool-name-unique") {
		t.Errorf("the lint hook's output does not name the rule:\n%s", out)
	}

	// pre-commit passes file names as arguments, after the hook's own: a
	// committed file at the root whose name is a flag would be read as one
	// (here, a report written over a file of the attacker's choosing), so
	// the hooks' pattern takes no name that starts with a dash.
	if err := os.Remove(filepath.Join(repo, "more.tools.json")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "--format=json=planted-tools.json"), brokenFixable)
	if out, err := commit("a file named as a flag"); err != nil {
		t.Fatalf("a file named as a flag failed the commit: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(repo, "planted-tools.json")); err == nil {
		t.Errorf("a committed file named --format=json=planted-tools.json was read as a flag and wrote a report")
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
