//go:build unix

package baseline

import (
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestReadRefusesSpecialFiles: a baseline that is a FIFO or a link to one
// (or to /dev/stdin, /dev/tty) is refused unread: opening it held lint
// --baseline until something wrote to it.
func TestReadRefusesSpecialFiles(t *testing.T) {
	testenv.RefusesFIFOs(t, "mcplint-baseline.json", "reading a baseline", func(path string) error {
		_, err := Read(path)
		return err
	})
}
