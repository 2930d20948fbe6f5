package mcpserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/mcpserver"
)

// TestConvertWarnings checks that convert's warnings read as the command
// line's: a loss many tools share is said once, without the first tool's
// name before it, and a 3000-byte property key in a pointer is cut.
func TestConvertWarnings(t *testing.T) {
	long := strings.Repeat("k", 3000)
	src, _ := json.Marshal(map[string]any{"tools": []any{
		map[string]any{"name": "a", "inputSchema": map[string]any{"type": "object"}, "annotations": map[string]any{"readOnlyHint": true}},
		map[string]any{"name": "b", "inputSchema": map[string]any{"type": "object"}, "annotations": map[string]any{"readOnlyHint": true}},
		map[string]any{"name": "c", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{
			long: map[string]any{"type": "string", "format": "uri-reference"},
		}}},
	}})
	cs := connect(t, mcpserver.Options{Workspace: t.TempDir()})
	_, out, isErr := call(t, cs, "convert", map[string]any{"manifest": string(src), "to": "gemini"})
	if isErr {
		t.Fatalf("convert failed: %v", out)
	}
	warns, _ := out["warnings"].([]any)
	var summary, pointer string
	for _, w := range warns {
		s, _ := w.(string)
		switch {
		case strings.Contains(s, `"annotations" dropped from 2 tools`):
			summary = s
		case strings.HasPrefix(s, `tool "c" /inputSchema/properties/`):
			pointer = s
		}
	}
	if !strings.HasPrefix(summary, `"annotations" dropped from 2 tools`) {
		t.Errorf("the summary of a loss two tools share is %q, want it to start with what was dropped (%d warnings)", summary, len(warns))
	}
	if pointer == "" || strings.Contains(pointer, long) || len(pointer) > 2500 {
		t.Errorf("the warning under a 3000-byte key is %d bytes, want it found and its pointer cut: %.200q", len(pointer), pointer)
	}
}
