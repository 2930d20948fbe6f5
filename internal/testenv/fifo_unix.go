//go:build unix

package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FIFO makes a named pipe called name in dir and returns its path; the test
// is skipped where the file system has none.
func FIFO(t *testing.T, dir, name string) string {
	t.Helper()
	fifo := filepath.Join(dir, name)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	return fifo
}

// RefusesUnread runs read, which must refuse the FIFO at fifo (or a link
// to it) as not a regular file, without opening it: an open waits for a
// writer, which a committed link to /dev/stdin or a pipe would make a run
// wait for forever. what names the reader in the failure.
func RefusesUnread(t *testing.T, fifo, what string, read func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: err %v, want not a regular file", what, err)
		}
	case <-time.After(20 * time.Second):
		// Unblock the reader, so that the test binary can end.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatalf("%s waits for a writer on a FIFO", what)
	}
}

// RefusesFIFOs runs read on a FIFO called name, then on a link called name
// to a FIFO (as a repository can commit one, or one to /dev/stdin), each in
// a folder of its own: read must refuse both unread, as RefusesUnread
// checks.
func RefusesFIFOs(t *testing.T, name, what string, read func(path string) error) {
	t.Helper()
	fifo := FIFO(t, t.TempDir(), name)
	RefusesUnread(t, fifo, what+" (a FIFO)", func() error { return read(fifo) })
	dir := t.TempDir()
	target := FIFO(t, dir, "fifo")
	link := filepath.Join(dir, name)
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	RefusesUnread(t, target, what+" (a link to a FIFO)", func() error { return read(link) })
}
