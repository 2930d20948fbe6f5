//go:build unix

package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// otherUID is a user that is not the test's and owns nothing.
const otherUID = 4242

// chown gives path to otherUID, skipping the test where this process may
// not (only root may give a file away).
func chown(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root; run the tests as root to cover it")
	}
	if err := os.Lchown(path, otherUID, otherUID); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestSearchSharedParent: outside a repository, the search does not take
// a configuration another user left in a directory every user can write
// (the /tmp attack); it names the file it refused and why.
func TestSearchSharedParent(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "tmp")
	work := filepath.Join(shared, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	chmod(t, shared, 0o777|os.ModeSticky)
	planted := write(t, shared, ".mcplint.yaml", "servers: {x: {command: evil}}\n")
	chown(t, planted)
	got, err := Search(work)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != "" {
		t.Fatalf("took %s", got.Path)
	}
	if len(got.Refused) != 1 || got.Refused[0].Path != planted || !strings.Contains(got.Refused[0].Reason, "can be written by other users") {
		t.Errorf("refused %+v, want %s named", got.Refused, planted)
	}
	if p, _ := Find(work); p != "" {
		t.Errorf("Find took %s", p)
	}
}

// TestSearchOwnership: a configuration file is taken only when it and
// the directory holding it are the user's (or root's) and no one else
// can write them; and the search goes no further up than a directory
// that is not.
func TestSearchOwnership(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(t *testing.T, dir, file string)
		reason string
	}{
		{"mine", func(*testing.T, string, string) {}, ""},
		{"file of another user", func(t *testing.T, _, file string) { chown(t, file) }, "owned by uid 4242"},
		{"directory of another user", func(t *testing.T, dir, _ string) { chown(t, dir) }, "owned by uid 4242"},
		{"file others can write", func(t *testing.T, _, file string) { chmod(t, file, 0o666) }, "can be written by other users"},
		{"directory others can write", func(t *testing.T, dir, _ string) { chmod(t, dir, 0o777) }, "can be written by other users"},
		{"link to a file of another user", func(t *testing.T, dir, file string) {
			target := filepath.Join(filepath.Dir(dir), "elsewhere.yaml")
			if err := os.Rename(file, target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, file); err != nil {
				t.Fatal(err)
			}
			chown(t, target)
		}, "owned by uid 4242"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "project")
			sub := filepath.Join(dir, "sub")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			file := write(t, dir, ".mcplint.yaml", "select: [mcp]\n")
			// Above it, one of the user's own, which must not be taken
			// instead of a refused one.
			write(t, root, ".mcplint.yaml", "select: [robust]\n")
			c.setup(t, dir, file)
			got, err := Search(sub)
			if err != nil {
				t.Fatal(err)
			}
			if c.reason == "" {
				if got.Path != file || len(got.Refused) != 0 {
					t.Errorf("got %+v, want %s", got, file)
				}
				return
			}
			if got.Path != "" || len(got.Refused) != 1 || !strings.Contains(got.Refused[0].Reason, c.reason) {
				t.Errorf("got %+v, want nothing taken and %s refused: %s", got, file, c.reason)
			}
		})
	}
}

// TestSearchStopsAtRepository: the walk ends at the root of the git work
// tree; a configuration above it is not the project's.
func TestSearchStopsAtRepository(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".mcplint.yaml", "select: [mcp]\n")
	repo := filepath.Join(root, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Search(sub); err != nil || got.Path != "" || len(got.Refused) != 0 {
		t.Errorf("got %+v %v, want nothing", got, err)
	}
	want := write(t, repo, ".mcplint.yml", "select: [mcp]\n")
	if got, err := Search(sub); err != nil || got.Path != want {
		t.Errorf("got %+v %v, want %s", got, err, want)
	}
}

// TestSearchRefusesSpecialFiles: a configuration that is a FIFO, or a link
// to one (or to /dev/stdin), is refused unread, not waited on.
func TestSearchRefusesSpecialFiles(t *testing.T) {
	testenv.RefusesFIFOs(t, Names[0], "Search", func(path string) error {
		found, err := Search(filepath.Dir(path))
		switch {
		case err != nil:
			return err
		case len(found.Refused) == 1 && found.Path == "":
			return errors.New(found.Refused[0].Reason)
		}
		if found.Path != "" {
			// Found, so Load would read it: what Search must prevent.
			_, err := Load(found.Path)
			return fmt.Errorf("found and read %s: %v", found.Path, err)
		}
		return fmt.Errorf("nothing found or refused: %+v", found)
	})
}
