//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/internal/testenv"
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
	fifo := testenv.FIFO(t, dir, "wait.json")
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

// TestReadMCPJSONSkipsSpecialFiles: a .mcp.json that is a FIFO, or a link
// to one, is passed over as no configuration, not waited on.
func TestReadMCPJSONSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := testenv.FIFO(t, dir, "fifo")
	link := filepath.Join(dir, ".mcp.json")
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, link} {
		done := make(chan int, 1)
		go func() { done <- len(readMCPJSON(path)) }()
		select {
		case n := <-done:
			if n != 0 {
				t.Errorf("%s: %d servers, want none", path, n)
			}
		case <-time.After(20 * time.Second):
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
			t.Fatalf("init waits on %s", path)
		}
	}
}
