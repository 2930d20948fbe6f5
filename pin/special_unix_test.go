//go:build unix

package pin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestReadRefusesSpecialFiles: a committed mcplint.lock that is a link to
// a FIFO (or to /dev/stdin, /dev/tty) is refused unread: it held
// check --locked until something wrote to it.
func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := testenv.FIFO(t, dir, "fifo")
	link := filepath.Join(dir, FileName)
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	testenv.RefusesUnread(t, fifo, "reading a lock file", func() error {
		_, err := Read(link, 1<<20)
		return err
	})
}
