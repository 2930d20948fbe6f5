//go:build unix

package mcpserver_test

import (
	"errors"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/mcpserver"
)

// TestWorkspaceFIFO: a FIFO in the workspace is refused before it is
// opened; the open itself waited for a writer, and the tool call with it.
func TestWorkspaceFIFO(t *testing.T) {
	dir := workspace(t)
	fifo := testenv.FIFO(t, dir, "wait.json")
	cs := connect(t, mcpserver.Options{Workspace: dir})
	testenv.RefusesUnread(t, fifo, "the lint tool", func() error {
		text, _, isErr := call(t, cs, "lint", map[string]any{"path": "wait.json"})
		if !isErr {
			return nil
		}
		return errors.New(text)
	})
}
