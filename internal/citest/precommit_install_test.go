package citest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestPreCommitInstallPolicy runs scripts/install-pre-commit.sh, which make
// test runs, on a PATH that offers only what each case names: a
// pre-commit already there is used as it is; with no pre-commit, no
// Python and no root, the script fails with one line saying what to do.
func TestPreCommitInstallPolicy(t *testing.T) {
	root := testenv.RepoRoot(t)
	script := filepath.Join(root, "scripts", "install-pre-commit.sh")
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not on PATH")
	}
	tool := func(dir, name, body string) {
		write(t, filepath.Join(dir, name), "#!"+bash+"\n"+body+"\n")
		if err := os.Chmod(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		tools  map[string]string
		code   int
		stderr string
		noVenv bool
	}{
		{"pre-commit on PATH", map[string]string{"pre-commit": "exit 0", "id": "echo 1000"}, 0, "", true},
		{"nothing available, not root", map[string]string{"id": "echo 1000"}, 1,
			"make test: pre-commit is missing and could not be installed (no PyPI, not root): install it (pipx install pre-commit, or your system's package), or run go test ./... to skip its test\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := t.TempDir()
			for name, body := range c.tools {
				tool(bin, name, body)
			}
			// The script's own needs, and nothing else.
			for _, name := range []string{"dirname", "rm"} {
				p, err := exec.LookPath(name)
				if err != nil {
					t.Skipf("%s is not on PATH", name)
				}
				if err := os.Symlink(p, filepath.Join(bin, name)); err != nil {
					t.Fatal(err)
				}
			}
			repo := t.TempDir()
			write(t, filepath.Join(repo, "scripts", "install-pre-commit.sh"), readFile(t, script))
			cmd := exec.Command(bash, filepath.Join(repo, "scripts", "install-pre-commit.sh"))
			cmd.Env = []string{"PATH=" + bin, "HOME=" + t.TempDir()}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code || stderr.String() != c.stderr {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr.String(), c.code, c.stderr)
			}
			if _, err := os.Stat(filepath.Join(repo, ".venv")); c.noVenv && err == nil {
				t.Error("a .venv was left behind")
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
