package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/lint"
)

// TestRefChains checks ref-resolvable on long chains of references: a
// chain of thousands that ends in a cycle is reported once, at the cycle's
// first member, and the cycle is named by its ends.
func TestRefChains(t *testing.T) {
	const chain, cycle = 3000, 1500
	defs := map[string]string{}
	for i := range chain {
		defs[fmt.Sprintf("d%d", i)] = fmt.Sprintf(`{"$ref": "#/$defs/d%d"}`, i+1)
	}
	// The last definition goes back into the chain: d1500 ... d2999 loop.
	defs[fmt.Sprintf("d%d", chain-1)] = fmt.Sprintf(`{"$ref": "#/$defs/d%d"}`, chain-cycle)
	var members []string
	for name, s := range defs {
		members = append(members, fmt.Sprintf("%q: %s", name, s))
	}
	src := `{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": {` + strings.Join(members, ", ") + `}}}`
	ds := linttest.Source(t, All, lint.Config{Select: []string{RefResolvable.ID}}, "t.json", []byte(src))
	if len(ds) != 1 {
		t.Fatalf("%d findings, want one cycle", len(ds))
	}
	d := ds[0]
	if d.RelPointer != "/inputSchema/$defs/d1500/$ref" || !strings.Contains(d.Message, "-> … (1400 more) -> ") ||
		!strings.HasPrefix(d.Message, "$ref cycle #/$defs/d1500 -> #/$defs/d1501 -> ") || !strings.Contains(d.Message, "#/$defs/d2999 -> #/$defs/d1500: ") {
		t.Errorf("finding at %s: %.300s", d.RelPointer, d.Message)
	}
}
