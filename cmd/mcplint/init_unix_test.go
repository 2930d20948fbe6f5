//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestFindManifestsSkipsSpecialFiles: init reads only regular files. A
// FIFO, or a committed link to one (or to /dev/stdin, /dev/tty), held init
// until something wrote to it.
func TestFindManifestsSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(good, []byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "wait.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if err := os.Symlink("wait.json", filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	type result struct {
		found []string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		found, err := findManifests(dir, 3)
		done <- result{found, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if want := []string{filepath.ToSlash(good)}; !slices.Equal(r.found, want) {
			t.Errorf("found %v, want %v", r.found, want)
		}
	case <-time.After(20 * time.Second):
		// Let the walk go: open a writer so the blocked read ends.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("init waits on a FIFO")
	}
}
