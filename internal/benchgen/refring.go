package benchgen

import "fmt"

// RefRing returns an input schema whose property "p" refers to $defs d0,
// and whose $defs d0 … d(n-1) each refer to the next; d(n) is a string
// schema. The last refers back to d0 when cycle is set (a cycle of n
// references), to d(n) otherwise (a chain). Reference walks must take time
// in n only linearly, and report a cycle of any length once.
func RefRing(n int, cycle bool) map[string]any {
	defs := map[string]any{}
	for i := range n {
		next := fmt.Sprintf("#/$defs/d%d", i+1)
		if cycle && i == n-1 {
			next = "#/$defs/d0"
		}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": next}
	}
	defs[fmt.Sprintf("d%d", n)] = map[string]any{"type": "string"}
	return map[string]any{"type": "object", "properties": map[string]any{"p": map[string]any{"$ref": "#/$defs/d0"}}, "$defs": defs}
}
