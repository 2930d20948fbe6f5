package worktree

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestOutput(t *testing.T) {
	base := t.TempDir()
	tree := filepath.Join(base, "repo")
	outside := filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(tree, ".git"), filepath.Join(tree, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, ".profile"), []byte("PATH=/usr/bin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(name, target string) {
		if err := os.Symlink(target, filepath.Join(tree, name)); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
	link("report.txt", filepath.Join(outside, ".profile"))
	link("relative.txt", filepath.Join("..", "home", ".profile"))
	link("dangling.txt", filepath.Join(outside, "missing"))
	link("reports", outside)
	link("inside.txt", filepath.Join("sub", "real.txt"))
	link("subdir", "sub")
	t.Chdir(filepath.Join(tree, "sub"))
	for _, c := range []struct {
		path string
		out  bool // leads out of the tree
	}{
		{"../report.txt", true},
		{filepath.Join(tree, "relative.txt"), true},
		{"../dangling.txt", true},
		{"../reports/x.sarif", true},
		{"../reports/new/x.sarif", true},
		{"../inside.txt", false},
		{"../subdir/new.txt", false},
		{"new.txt", false},
		{"../new/dir/new.txt", false},
		{filepath.Join(outside, "x.sarif"), false},
		{"../../home/x.sarif", false},
	} {
		err := Output(c.path)
		var le *LinkError
		if c.out != errors.As(err, &le) {
			t.Errorf("Output(%s) = %v, want a link out of the tree: %v", c.path, err, c.out)
		}
		if c.out && le.Tree != tree {
			t.Errorf("Output(%s): tree %s, want %s", c.path, le.Tree, tree)
		}
	}
	// Outside a repository, the tree is the current directory.
	plain := filepath.Join(base, "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, ".profile"), filepath.Join(plain, "out.txt")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(plain)
	if err := Output("out.txt"); err == nil {
		t.Error("a link out of the current directory was accepted")
	}
}
