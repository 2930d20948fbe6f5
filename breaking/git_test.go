package breaking

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestReadGit(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	old := `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "tools.json")
	git(t, dir, "commit", "-q", "-m", "tools")
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(`{"tools": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadGit(context.Background(), dir, "git:HEAD:tools.json", manifest.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Path != "git:HEAD:tools.json" || len(m.Tools) != 1 || m.Tools[0].Name != "a" {
		t.Errorf("got %s with %d tools, want the committed file", m.Path, len(m.Tools))
	}
	// git's output is read no further than the size limit.
	_, err = ReadGit(context.Background(), dir, "git:HEAD:tools.json", manifest.Limits{Size: 20})
	var e *manifest.Error
	if !errors.As(err, &e) || e.Limit != manifest.LimitSize || !strings.Contains(err.Error(), "git:HEAD:tools.json: the input is larger than the limit of 20 bytes") {
		t.Errorf("over the size limit: %v", err)
	}
	for _, bad := range []string{"git:HEAD", "git::x", "git:HEAD:missing.json", "git:--output=x:tools.json"} {
		if _, err := ReadGit(context.Background(), dir, bad, manifest.Limits{}); err == nil {
			t.Errorf("%s: no error", bad)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: error %q does not name the source", bad, err)
		}
	}
}
