package breaking

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
)

// TestLinearLists: an enum and a "required" of 100,000 entries are
// compared through sets: each list was searched once per entry of the
// other, ten billion comparisons.
func TestLinearLists(t *testing.T) {
	const n = 100000
	list := func(prefix string, skip int) string {
		var vals []string
		for i := range n {
			if i != skip {
				vals = append(vals, fmt.Sprintf("%q", fmt.Sprint(prefix, i)))
			}
		}
		return "[" + strings.Join(vals, ",") + "]"
	}
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d": {"type": "string"}`, i))
	}
	schema := func(skip int) string {
		return `{"type": "object", "properties": {` + strings.Join(props, ",") + `, "e": {"type": "string", "enum": ` + list("v", skip) + `}}, "required": ` + list("p", skip) + `}`
	}
	rep, err := Compare(load(t, "old.json", tools(in("t", schema(-1)))), load(t, "new.json", tools(in("t", schema(n-1)))), lint.Config{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(summary(rep), "\n")
	for _, want := range []string{"enum-value-removed new /tools/0/inputSchema/properties/e", "constraint-relaxed new /tools/0/inputSchema"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%.2000s", want, got)
		}
	}
}
