//go:build unix

package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/mcpserver"
)

// TestWorkspaceFIFO: a FIFO in the workspace is refused before it is
// opened; the open itself waited for a writer, and the tool call with it.
func TestWorkspaceFIFO(t *testing.T) {
	dir := workspace(t)
	fifo := filepath.Join(dir, "wait.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	cs := connect(t, mcpserver.Options{Workspace: dir})
	type result struct {
		text  string
		isErr bool
	}
	done := make(chan result, 1)
	go func() {
		text, _, isErr := call(t, cs, "lint", map[string]any{"path": "wait.json"})
		done <- result{text, isErr}
	}()
	select {
	case r := <-done:
		if !r.isErr || !strings.Contains(r.text, "not a regular file") {
			t.Errorf("error %v, %q; want not a regular file", r.isErr, r.text)
		}
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("the lint tool waits on a FIFO")
	}
}
