package benchgen

import (
	"fmt"
	"strings"
)

// The manifests below are the shapes attacks and broken generators send,
// which once cost time or memory out of proportion to their size. Each
// grows with n so that a benchmark can show the cost grows with it only
// linearly.

// RefChain returns one tool whose input schema holds a chain of n
// definitions, each a "$ref" to the next, the last an object.
func RefChain(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tools": [{"name": "chain", "description": "A chain of references.", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == n-1 {
			fmt.Fprintf(&b, `"d%d": {"type": "object"}`, i)
		} else {
			fmt.Fprintf(&b, `"d%d": {"$ref": "#/$defs/d%d"}`, i, i+1)
		}
	}
	b.WriteString("}}}]}\n")
	return []byte(b.String())
}

// OneLineFindings returns n tools on one line, each with a bare integer
// parameter and no description, so that lint finds several problems per
// tool, every one on the same line.
func OneLineFindings(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool %d","inputSchema":{"type":"object","properties":{"count":{"type":"integer"}},"required":["count","missing"]}}`, i)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// DeepYAML returns a YAML manifest of tools tools, each input schema nested
// depth objects deep (one property inside the next), written in flow style
// so that the file grows with the depth only linearly.
func DeepYAML(tools, depth int) []byte {
	var b strings.Builder
	for i := range tools {
		fmt.Fprintf(&b, "- {name: deep_%d, description: Nested objects., inputSchema: ", i)
		for range depth {
			b.WriteString("{type: object, properties: {p: ")
		}
		b.WriteString("{type: string}")
		for range depth {
			b.WriteString("}}")
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}
