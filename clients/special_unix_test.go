//go:build unix

package clients

import (
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestReadFileRefusesSpecialFiles: a project's .mcp.json that is a FIFO,
// or a link to one (as to /dev/stdin or /dev/tty), is refused unread: it
// held check --discover until something wrote to it.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	testenv.RefusesFIFOs(t, ".mcp.json", "reading a client configuration", func(path string) error {
		_, err := readFile(path)
		return err
	})
}
