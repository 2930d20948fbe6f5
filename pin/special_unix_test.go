//go:build unix

package pin

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesSpecialFiles: a committed mcplint.lock that is a link to
// a FIFO (or to /dev/stdin, /dev/tty) is refused unread: it held
// check --locked until something wrote to it.
func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	link := filepath.Join(dir, FileName)
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Read(link, 1<<20)
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
		t.Fatal("reading a FIFO's lock file waits for a writer")
	}
}
