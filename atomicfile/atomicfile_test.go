package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no permission bits")
	}
	for _, mode := range []os.FileMode{0o600, 0o644, 0o755, 0o444} {
		dir := t.TempDir()
		p := filepath.Join(dir, "m.json")
		writeFile(t, p, "old", mode)
		if err := Write(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode || read(t, p) != "new" {
			t.Errorf("mode %v: now %v, %q", mode, fi.Mode().Perm(), read(t, p))
		}
		if got := names(t, dir); !slices.Equal(got, []string{"m.json"}) {
			t.Errorf("files left: %v", got)
		}
	}
}

func TestWriteCreates(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new.json")
	if err := Write(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestWriteRelative(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "m.json", "old", 0o644)
	if err := Write("m.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if read(t, "m.json") != "new" {
		t.Error("not written")
	}
}

func TestWriteFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	writeFile(t, target, "old", 0o600)
	if err := os.Symlink("real.json", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Write(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if read(t, target) != "new" {
		t.Errorf("target: %q", read(t, target))
	}
}

// TestWriteFailure: whatever fails, the original is untouched and no
// temporary file is left behind.
func TestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	writeFile(t, p, "old", 0o644)

	beforeRename = func(tmp string) error {
		if read(t, tmp) != "new" {
			t.Errorf("temporary file holds %q", read(t, tmp))
		}
		return errors.New("disk full")
	}
	t.Cleanup(func() { beforeRename = nil })
	err := Write(p, []byte("new"))
	if err == nil || err.Error() != "write "+p+": disk full (the file is unchanged)" {
		t.Errorf("error: %v", err)
	}
	if read(t, p) != "old" {
		t.Error("the original changed")
	}
	if got := names(t, dir); !slices.Equal(got, []string{"m.json"}) {
		t.Errorf("files left: %v", got)
	}
	beforeRename = nil

	// The temporary file cannot be created: its name is too long.
	long := filepath.Join(dir, strings.Repeat("x", 250))
	writeFile(t, long, "old", 0o644)
	if err := Write(long, []byte("new")); err == nil {
		t.Error("no error for a temporary name that is too long")
	}
	if read(t, long) != "old" {
		t.Error("the original changed")
	}

	// Not a regular file.
	if err := Write(dir, []byte("new")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	// A directory that does not exist.
	if err := Write(filepath.Join(dir, "no", "m.json"), []byte("new")); err == nil {
		t.Error("no error for a missing directory")
	}
}
