package pin

import (
	"encoding/json"
	"testing"

	"github.com/mcpfit/mcplint/internal/hostile"
	"github.com/mcpfit/mcplint/manifest"
)

// TestFileHostileNames pins tools whose names and descriptions are hostile
// strings and reads the lock file back: JSON must keep every name as a key
// and every definition as it was, whatever the strings hold.
func TestFileHostileNames(t *testing.T) {
	var tools []any
	for _, h := range hostile.Strings {
		tools = append(tools, map[string]any{"name": h, "description": h,
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{h: map[string]any{"description": h}}}})
	}
	src, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load("tools.json", src)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Of(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != len(hostile.Strings) {
		t.Fatalf("%d tools pinned, want %d", len(s.Tools), len(hostile.Strings))
	}
	f := New()
	for _, h := range hostile.Strings {
		f.Servers[h] = s
	}
	back := roundTrip(t, f)
	for _, h := range hostile.Strings {
		var def map[string]any
		if err := json.Unmarshal(back.Servers[h].Tools[h].Definition, &def); err != nil || def["description"] != h {
			t.Errorf("tool %q: definition reads back as %v (%v)", h, def, err)
		}
	}
}
