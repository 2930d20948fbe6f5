package normalize

import (
	"fmt"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/schema"
)

// The size limits of a strict-mode schema, from OpenAI's Structured Outputs
// guide, "Supported schemas" ("Objects have limitations on nesting and
// size", "Limitations on total string size", "Limitations on enum size").
const (
	StrictMaxDepth         = 10
	StrictMaxProperties    = 5000
	StrictMaxEnumValues    = 1000
	StrictMaxStringChars   = 120000
	StrictLongEnumValues   = 250
	StrictMaxLongEnumChars = 15000
)

// StrictSize measures a schema against the strict-mode limits.
type StrictSize struct {
	// Depth is the deepest nesting of object schemas, the root object
	// counting 1; DeepestPointer is where it is reached.
	Depth          int
	DeepestPointer string
	// Properties counts the keys of every "properties" in the document.
	Properties int
	// EnumValues counts the values of every "enum".
	EnumValues int
	// StringChars is the total length, in characters, of property names,
	// definition names, and string enum and const values.
	StringChars int
	// LongEnums are the string enums of more than StrictLongEnumValues
	// values whose values total more than StrictMaxLongEnumChars characters.
	LongEnums []LongEnum
}

// LongEnum is one string enum over the long-enum limit.
type LongEnum struct {
	Pointer       string
	Values, Chars int
}

// OpenAIStrictSize measures s. Nesting follows the document as written:
// a "$ref" is not followed, so a definition counts from where it is
// declared.
func OpenAIStrictSize(s any) StrictSize {
	var z StrictSize
	// depth[i] is the object nesting, counting its own, of the node last
	// visited at walk depth i: when a node is visited, the one at the depth
	// above is its parent (the walk goes parents first, depth first).
	var depth []int
	schema.Walk(s, "", func(node *schema.Node) bool {
		n := node.Value
		d := 0
		if node.Depth > 0 {
			d = depth[node.Depth-1]
		}
		if schema.HasType(n, "object") || n["properties"] != nil {
			d++
		}
		depth = append(depth[:node.Depth], d)
		if d > z.Depth {
			z.Depth, z.DeepestPointer = d, node.Pointer()
		}
		if props, ok := n["properties"].(map[string]any); ok {
			z.Properties += len(props)
			for k := range props {
				z.StringChars += utf8.RuneCountInString(k)
			}
		}
		for _, k := range []string{"$defs", "definitions"} {
			if defs, ok := n[k].(map[string]any); ok {
				for name := range defs {
					z.StringChars += utf8.RuneCountInString(name)
				}
			}
		}
		if c, ok := n["const"].(string); ok {
			z.StringChars += utf8.RuneCountInString(c)
		}
		if e, ok := n["enum"].([]any); ok {
			z.EnumValues += len(e)
			chars, allStrings := 0, true
			for _, v := range e {
				if str, ok := v.(string); ok {
					chars += utf8.RuneCountInString(str)
				} else {
					allStrings = false
				}
			}
			z.StringChars += chars
			if allStrings && len(e) > StrictLongEnumValues && chars > StrictMaxLongEnumChars {
				z.LongEnums = append(z.LongEnums, LongEnum{Pointer: node.Pointer(), Values: len(e), Chars: chars})
			}
		}
		return true
	})
	return z
}

// Over lists the strict-mode limits z exceeds, each as a Loss at the place
// to act on (what OpenAI refuses cannot be carried, so converting says it
// and the limits rule reports it in the same words).
func (z StrictSize) Over() []Loss {
	var out []Loss
	if z.Depth > StrictMaxDepth {
		out = append(out, Loss{Pointer: z.DeepestPointer, What: fmt.Sprintf("objects nest %d levels deep here, and strict mode allows %d; flatten the arguments", z.Depth, StrictMaxDepth)})
	}
	if z.Properties > StrictMaxProperties {
		out = append(out, Loss{What: fmt.Sprintf("the schema has %d object properties in total, and strict mode allows %d; split the tool", z.Properties, StrictMaxProperties)})
	}
	if z.EnumValues > StrictMaxEnumValues {
		out = append(out, Loss{What: fmt.Sprintf("the schema has %d enum values in total, and strict mode allows %d; replace large enums by described strings", z.EnumValues, StrictMaxEnumValues)})
	}
	if z.StringChars > StrictMaxStringChars {
		out = append(out, Loss{What: fmt.Sprintf("property names, definition names, enum and const values total %d characters, and strict mode allows %d; shrink the schema", z.StringChars, StrictMaxStringChars)})
	}
	for _, e := range z.LongEnums {
		out = append(out, Loss{Pointer: e.Pointer + "/enum", Keyword: "enum", What: fmt.Sprintf("this string enum has %d values totalling %d characters; strict mode allows at most %d characters in an enum of more than %d values: replace it by a described string", e.Values, e.Chars, StrictMaxLongEnumChars, StrictLongEnumValues)})
	}
	return out
}
