//go:build unix

package clients

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileRefusesSpecialFiles: a project's .mcp.json that is a FIFO,
// or a link to one (as to /dev/stdin or /dev/tty), is refused unread: it
// held check --discover until something wrote to it.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	link := filepath.Join(dir, ".mcp.json")
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readFile(link)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("err %v, want not a regular file", err)
		}
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("reading a FIFO's configuration waits for a writer")
	}
}
