package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a process that stages a write and waits to be
// killed, and as a writer run as another user.
const helperEnv = "ATOMICFILE_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "stage-and-wait":
		if _, err := stage(os.Getenv("ATOMICFILE_TEST_PATH"), []byte("new")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("staged")
		time.Sleep(time.Hour)
	case "write":
		if err := Write(os.Getenv("ATOMICFILE_TEST_PATH"), []byte("new")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// three makes a, b and c holding "old a", "old b", "old c".
func three(t *testing.T) (dir string, paths []string) {
	dir = t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, n+".json")
		writeFile(t, p, "old "+n, 0o644)
		paths = append(paths, p)
	}
	return dir, paths
}

func batchOf(paths []string) *Batch {
	b := &Batch{}
	for _, p := range paths {
		n := strings.TrimSuffix(filepath.Base(p), ".json")
		b.Add(p, []byte("old "+n), []byte("new "+n))
	}
	return b
}

// untouched checks that every file holds its old contents and that no
// temporary file is left.
func untouched(t *testing.T, dir string, paths []string) {
	t.Helper()
	for _, p := range paths {
		n := strings.TrimSuffix(filepath.Base(p), ".json")
		if got := read(t, p); got != "old "+n {
			t.Errorf("%s holds %q", p, got)
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.json", "b.json", "c.json"}) {
		t.Errorf("files in the directory: %v", got)
	}
}

func TestBatchWritesAll(t *testing.T) {
	dir, paths := three(t)
	if err := batchOf(paths).Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if !strings.HasPrefix(read(t, p), "new ") {
			t.Errorf("%s not written", p)
		}
	}
	if got := names(t, dir); len(got) != 3 {
		t.Errorf("files left: %v", got)
	}
}

// TestBatchNothingWritten: a file that cannot be written, one that changed
// since it was read, or a cancelled context: no file is written.
func TestBatchNothingWritten(t *testing.T) {
	t.Run("a file cannot be staged", func(t *testing.T) {
		dir, paths := three(t)
		b := batchOf(paths)
		b.Add(dir, nil, []byte("x")) // a directory
		err := b.Commit(context.Background())
		if !errors.Is(err, ErrNothingWritten) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("error %v", err)
		}
		untouched(t, dir, paths)
	})
	t.Run("a file changed since it was read", func(t *testing.T) {
		dir, paths := three(t)
		b := batchOf(paths)
		writeFile(t, paths[2], "edited c", 0o644)
		err := b.Commit(context.Background())
		var ce *ChangedError
		if !errors.As(err, &ce) || ce.Path != paths[2] || !errors.Is(err, ErrNothingWritten) {
			t.Errorf("error %v, want %s changed", err, paths[2])
		}
		writeFile(t, paths[2], "old c", 0o644)
		untouched(t, dir, paths)
	})
	t.Run("interrupted", func(t *testing.T) {
		dir, paths := three(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := batchOf(paths).Commit(ctx); !errors.Is(err, context.Canceled) || !errors.Is(err, ErrNothingWritten) {
			t.Errorf("error %v", err)
		}
		untouched(t, dir, paths)
	})
}

// TestBatchPartial: a rename that fails after others says which files
// were written and which were not, and leaves no temporary file.
func TestBatchPartial(t *testing.T) {
	dir, paths := three(t)
	n := 0
	beforeRename = func(string) error {
		if n++; n == 2 {
			return errors.New("disk full")
		}
		return nil
	}
	t.Cleanup(func() { beforeRename = nil })
	err := batchOf(paths).Commit(context.Background())
	var pe *PartialError
	if !errors.As(err, &pe) || !slices.Equal(pe.Written, paths[:1]) || !slices.Equal(pe.NotWritten, paths[1:]) {
		t.Fatalf("error %v, want a partial write of the first file", err)
	}
	if errors.Is(err, ErrNothingWritten) {
		t.Error("a partial write says nothing was written")
	}
	if read(t, paths[0]) != "new a" || read(t, paths[1]) != "old b" || read(t, paths[2]) != "old c" {
		t.Error("the files do not hold what the error says")
	}
	if got := names(t, dir); len(got) != 3 {
		t.Errorf("files left: %v", got)
	}
}

// TestKeepsSpecialBits: setuid, setgid and sticky bits are kept.
func TestKeepsSpecialBits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no such bits")
	}
	for _, mode := range []os.FileMode{0o755 | os.ModeSetuid, 0o755 | os.ModeSetgid, 0o644 | os.ModeSticky} {
		p := filepath.Join(t.TempDir(), "m.json")
		writeFile(t, p, "old", mode)
		if fi, _ := os.Stat(p); fi.Mode()&keptModeBits != mode {
			t.Skipf("this file system does not keep %v", mode)
		}
		if err := Write(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode()&keptModeBits != mode {
			t.Errorf("mode %v became %v", mode, fi.Mode())
		}
	}
}

// TestHardLinkKept: a file with several names is rewritten in place, so
// every name sees the new contents.
func TestHardLinkKept(t *testing.T) {
	dir := t.TempDir()
	p, other := filepath.Join(dir, "m.json"), filepath.Join(dir, "other.json")
	writeFile(t, p, "old", 0o644)
	if err := os.Link(p, other); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := Write(p, []byte("new, longer")); err != nil {
		t.Fatal(err)
	}
	if read(t, other) != "new, longer" {
		t.Errorf("the other name holds %q", read(t, other))
	}
	a, _ := os.Stat(p)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the link was broken")
	}
	if err := Write(p, []byte("short")); err != nil || read(t, other) != "short" {
		t.Errorf("a shorter rewrite: %v, %q", err, read(t, other))
	}
	if got := names(t, dir); len(got) != 2 {
		t.Errorf("files left: %v", got)
	}
}

// TestKilledLeavesNothing: a process killed (SIGKILL) with a write staged
// leaves no temporary file on Linux, where it has no name yet.
func TestKilledLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has unnamed temporary files")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	writeFile(t, p, "old", 0o644)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=stage-and-wait", "ATOMICFILE_TEST_PATH="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "staged" {
		t.Fatalf("helper: %q %v", buf, err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if got := names(t, dir); !slices.Equal(got, []string{"m.json"}) || read(t, p) != "old" {
		t.Errorf("after SIGKILL: files %v, contents %q", got, read(t, p))
	}
}
