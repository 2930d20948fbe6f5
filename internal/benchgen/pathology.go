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

// The shapes below are one list of n entries in one tool, each a list
// that some rule or transform once went through pair by pair.

// RequiredAll returns one tool of n properties, every one required.
func RequiredAll(n int) []byte {
	return []byte(`{"tools":[{"name":"wide","description":"Takes many.","inputSchema":{"type":"object","properties":{` + list(n, `"p%d":{"type":"string"}`) + `},"required":[` + list(n, `"p%d"`) + "]}}]}\n")
}

// EnumValues returns one tool whose property takes one of n strings.
func EnumValues(n int) []byte {
	return []byte(`{"tools":[{"name":"pick","description":"Picks one.","inputSchema":{"type":"object","properties":{"v":{"type":"string","enum":[` + list(n, `"v%d"`) + "]}}}}]}\n")
}

// AnyOfMembers returns one tool whose root is an anyOf of n object shapes,
// each requiring a property of its own.
func AnyOfMembers(n int) []byte {
	return []byte(`{"tools":[{"name":"shapes","description":"Takes one shape.","inputSchema":{"type":"object","anyOf":[` + list(n, `{"type":"object","properties":{"k%[1]d":{"type":"string"}},"required":["k%[1]d"]}`) + "]}}]}\n")
}

// AllOfBranches returns one tool of n properties and an allOf of n
// branches, each requiring one of them.
func AllOfBranches(n int) []byte {
	return []byte(`{"tools":[{"name":"mixins","description":"Takes many.","inputSchema":{"type":"object","properties":{` + list(n, `"p%d":{"type":"string"}`) + `},"allOf":[` + list(n, `{"required":["p%d"]}`) + "]}}]}\n")
}

// OneOfConsts returns one tool whose property is a oneOf of n constants.
func OneOfConsts(n int) []byte {
	return []byte(`{"tools":[{"name":"choose","description":"Chooses one.","inputSchema":{"type":"object","properties":{"c":{"oneOf":[` + list(n, `{"const":"c%d"}`) + "]}}}}]}\n")
}

// list is n entries, entry i being format of i, separated by commas.
func list(n int, format string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// The two shapes below make a small manifest whose findings each repeat a
// long string of it: a report that wrote every one whole grew to hundreds
// of megabytes from a manifest of a hundred kilobytes.

// LongName returns one tool named by n bytes, with props bare properties
// (no type, no description), each found at fault by several rules that
// name the tool.
func LongName(n, props int) []byte {
	return []byte(`{"tools":[{"name":"` + strings.Repeat("n", n) + `","inputSchema":{"type":"object","properties":{` + list(props, `"p%d":{}`) + "}}}]}\n")
}

// LongKey returns one tool whose property is named by n bytes and holds
// props bare sub-properties: every finding below it has the key in its
// pointer, and messages that quote the pointer have it twice.
func LongKey(n, props int) []byte {
	return []byte(`{"tools":[{"name":"deep","description":"Takes one.","inputSchema":{"type":"object","properties":{"` + strings.Repeat("k", n) + `":{"type":"object","properties":{` + list(props, `"p%d":{}`) + "}}}}}]}\n")
}
