package rules

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/lint"
)

// TestGeminiToolCountDefault holds the default to the API's bound: 512
// tools pass, 513 do not (the cases set the option lower, to stay small).
func TestGeminiToolCountDefault(t *testing.T) {
	for _, c := range []struct{ tools, findings int }{{512, 0}, {513, 1}} {
		var tools []any
		for i := range c.tools {
			tools = append(tools, map[string]any{"name": fmt.Sprintf("t%d", i), "description": "A tool.", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
		}
		b, err := json.Marshal(map[string]any{"tools": tools})
		if err != nil {
			t.Fatal(err)
		}
		ds := linttest.Source(t, All, lint.Config{Select: []string{GeminiToolCount.ID}}, "many.json", b)
		if len(ds) != c.findings {
			t.Errorf("%d tools: %d findings, want %d", c.tools, len(ds), c.findings)
		}
	}
}
