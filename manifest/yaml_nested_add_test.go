package manifest

import "testing"

// Nested block mappings end at the same byte: members added to an inner and
// an outer one in one Apply must each land in their own mapping, whatever
// the order of the edits.
func TestYAMLEditsNestedEnds(t *testing.T) {
	src := "- name: tree\n  inputSchema:\n    type: object\n    properties:\n      kids:\n        type: array\n        items:\n          type: object\n"
	want := "- name: tree\n  inputSchema:\n    type: object\n    properties:\n      kids:\n        type: array\n        items:\n          type: object\n          additionalProperties: false\n    additionalProperties: false\n"
	outer, inner := add("/inputSchema/additionalProperties", false), add("/inputSchema/properties/kids/items/additionalProperties", false)
	runYAMLEdits(t, []yamlEdit{
		{name: "outer edit first", src: src, edits: []Edit{outer, inner}, want: want},
		{name: "inner edit first", src: src, edits: []Edit{inner, outer}, want: want},
	})
}
