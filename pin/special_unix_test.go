//go:build unix

package pin

import (
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestReadRefusesSpecialFiles: a committed mcplint.lock that is a FIFO or
// a link to one (or to /dev/stdin, /dev/tty) is refused unread: it held
// check --locked until something wrote to it.
func TestReadRefusesSpecialFiles(t *testing.T) {
	testenv.RefusesFIFOs(t, FileName, "reading a lock file", func(path string) error {
		_, err := Read(path, 1<<20)
		return err
	})
}
