//go:build unix

package clients

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestReadFileRefusesSpecialFiles: a project's .mcp.json that is a FIFO,
// or a link to one (as to /dev/stdin or /dev/tty), is refused unread: it
// held check --discover until something wrote to it.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := testenv.FIFO(t, dir, "fifo")
	link := filepath.Join(dir, ".mcp.json")
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	testenv.RefusesUnread(t, fifo, "reading a client configuration", func() error {
		_, err := readFile(link)
		return err
	})
}
