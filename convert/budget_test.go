package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
)

// TestRefExpansionShared: the budget for inlining references is one for
// all the tools of a conversion, and a conversion past it fails with the
// tool, the place and the limit, for every target that inlines.
func TestRefExpansionShared(t *testing.T) {
	if manifest.DefaultLimits.RefExpansion != normalize.DefaultRefExpansion {
		t.Errorf("the file limit's default %d is not the budget's %d", manifest.DefaultLimits.RefExpansion, normalize.DefaultRefExpansion)
	}
	// Each tool inlines one target of 100 properties ten times.
	var props []string
	for i := range 100 {
		props = append(props, fmt.Sprintf(`"p%d": {"type": "string"}`, i))
	}
	src := `{"type": "object", "properties": {"big": {"type": "object", "properties": {` + strings.Join(props, ", ") + `}}`
	for i := range 10 {
		src += fmt.Sprintf(`, "r%d": {"$ref": "#/properties/big"}`, i)
	}
	src += `}}`
	one := decodeTool(t, "one", src)
	for _, c := range []struct {
		target string
		o      Options
	}{{"gemini", Options{}}, {"openai", Options{Strict: true}}} {
		t.Run(c.target, func(t *testing.T) {
			c.o.MaxRefExpansion = 64 << 10 // some 25 expansions
			if _, _, err := To(c.target, []Tool{one}, c.o); err != nil {
				t.Fatalf("one tool: %v", err)
			}
			tools := []Tool{one, one, one}
			for i := range tools {
				tools[i].Name, tools[i].Index = fmt.Sprintf("t%d", i), i
			}
			_, _, err := To(c.target, tools, c.o)
			var te *ToolError
			var be *normalize.BudgetError
			if !errors.As(err, &te) || !errors.As(err, &be) || be.Limit != 64<<10 || !strings.HasPrefix(te.Pointer, "/inputSchema/properties/r") {
				t.Errorf("three tools: %v", err)
			}
		})
	}
}

// TestZodManyDefinitions: 20,000 properties, each a reference to a
// definition of its own beside a keyword (an allOf in Zod): whether a
// part may hold a strict object is found from the names the part uses,
// not by looking for every definition in every part (minutes at 25,000).
func TestZodManyDefinitions(t *testing.T) {
	props, defs := map[string]any{}, map[string]any{}
	for i := range 20000 {
		props[fmt.Sprint("p", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i), "minLength": json.Number("1")}
		defs[fmt.Sprint("d", i)] = map[string]any{"type": "string"}
	}
	out, _ := ToZod([]Tool{{Name: "t", InputSchema: map[string]any{"type": "object", "properties": props, "$defs": defs}}}, ZodOptions{})
	if n := strings.Count(string(out), "Def"); n < 20000 {
		t.Errorf("%d definitions written", n)
	}
}

// TestZodLongEnum: an enum of 100,000 values is written once each, its
// repeats found through a set, not by comparing each with those before.
func TestZodLongEnum(t *testing.T) {
	var vals []any
	for i := range 100000 {
		vals = append(vals, fmt.Sprint("v", i), fmt.Sprint("v", i))
	}
	out, _ := ToZod([]Tool{{Name: "t", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"e": map[string]any{"enum": vals}}}}}, ZodOptions{})
	if n := strings.Count(string(out), `"v99999"`); n != 1 {
		t.Errorf("the last value is written %d times", n)
	}
}

// TestSameNameTools: 100,000 tools of one name are renamed with suffixes
// found from the last one given, not tried from "_2" for each.
func TestSameNameTools(t *testing.T) {
	tools := make([]Tool, 100000)
	for i := range tools {
		tools[i] = Tool{Name: "search", Index: i, InputSchema: map[string]any{"type": "object"}}
	}
	out, warns, err := ToOpenAI(tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"search_100000"`) || len(warns) < 99999 {
		t.Errorf("%d warnings; the last tool not renamed search_100000", len(warns))
	}
}

// TestZodLongTuple: a tuple of 100,000 positions, none required, would be
// a union of 100,000 tuples of up to as many positions; the shorter
// lengths are written as one array, with a warning.
func TestZodLongTuple(t *testing.T) {
	var items []any
	for range 100000 {
		items = append(items, map[string]any{"type": "string"})
	}
	out, warns := ToZod([]Tool{{Name: "t", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "array", "prefixItems": items}}}}}, ZodOptions{})
	if len(out) > 4<<20 {
		t.Errorf("%d bytes written", len(out))
	}
	found := false
	for _, w := range warns {
		found = found || strings.Contains(w.Message, "an array shorter than 100000 items is accepted with its items unchecked")
	}
	if !found {
		t.Errorf("no warning: %v", warns)
	}
}
