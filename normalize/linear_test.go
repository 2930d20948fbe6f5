package normalize

import (
	"fmt"
	"strings"
	"testing"
)

// The transforms at 100,000 entries: each of these took time in the square
// of the entries (from seconds to hours) and takes a fraction of a second
// now. What they produce is checked too, so that a transform cannot pass
// by doing less.
const many = 100000

func names(prefix string) []any {
	out := make([]any, many)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func objectOf(props map[string]any, extra map[string]any) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	for k, v := range extra {
		s[k] = v
	}
	return s
}

func TestLinearRequired(t *testing.T) {
	props := map[string]any{}
	for _, n := range names("p") {
		props[n.(string)] = map[string]any{"type": "string"}
	}
	// None required: strict mode requires them all.
	out, lost := OpenAIStrict(objectOf(props, nil))
	if req, _ := out.(map[string]any)["required"].([]any); len(req) != many || len(lost) != many {
		t.Errorf("strict: %d required, %d losses", len(req), len(lost))
	}
	// Required and never declared: dropped.
	out, _ = OpenAIStrict(objectOf(map[string]any{"a": map[string]any{"type": "string"}}, map[string]any{"required": names("q")}))
	if req, _ := out.(map[string]any)["required"].([]any); len(req) != 1 {
		t.Errorf("strict, undeclared: %d required", len(req))
	}
}

func TestLinearAllOf(t *testing.T) {
	var branches []any
	for _, n := range names("p") {
		branches = append(branches, map[string]any{"properties": map[string]any{n.(string): map[string]any{"type": "string"}}, "required": []any{n}})
	}
	out, _ := Gemini(map[string]any{"type": "object", "allOf": branches}, GeminiOptions{})
	m := out.(map[string]any)
	if props, _ := m["properties"].(map[string]any); len(props) != many {
		t.Errorf("%d properties merged", len(props))
	}
	if req, _ := m["required"].([]any); len(req) != many {
		t.Errorf("%d required merged", len(req))
	}
}

func TestLinearUnions(t *testing.T) {
	var consts, variants []any
	for i, n := range names("k") {
		consts = append(consts, map[string]any{"const": n})
		variants = append(variants, map[string]any{"type": "object", "properties": map[string]any{fmt.Sprint("v", i): map[string]any{"type": "string"}}, "required": []any{fmt.Sprint("v", i)}})
	}
	if !Disjoint(consts) {
		t.Error("100,000 distinct consts are not disjoint")
	}
	if Disjoint(append(consts, map[string]any{"const": "k5"})) {
		t.Error("a repeated const is disjoint")
	}
	out, lost := Gemini(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"oneOf": consts}}}, GeminiOptions{})
	if len(lost) == 0 && out == nil {
		t.Error("no output")
	}
	merged, _ := RootCombinators(map[string]any{"type": "object", "anyOf": variants})
	if props, _ := merged.(map[string]any)["properties"].(map[string]any); len(props) != many {
		t.Errorf("the root union has %d properties", len(props))
	}
}

func TestLinearShapeless(t *testing.T) {
	props := map[string]any{"keep": map[string]any{"type": "string"}}
	for _, n := range names("p") {
		props[n.(string)] = map[string]any{"type": "object"} // no properties
	}
	out, lost := GeminiDropShapeless(objectOf(props, map[string]any{"required": []any{"keep"}}))
	if p := out.(map[string]any)["properties"].(map[string]any); len(p) != 1 || len(lost) != many {
		t.Errorf("%d properties left, %d dropped", len(p), len(lost))
	}
}

func TestLinearTypesAndRefs(t *testing.T) {
	out, _ := Gemini(objectOf(map[string]any{"t": map[string]any{"type": names("t")}}, nil), GeminiOptions{})
	if any := out.(map[string]any)["properties"].(map[string]any)["t"].(map[string]any)["anyOf"].([]any); len(any) != many {
		t.Errorf("a list of %d types became %d branches", many, len(any))
	}
	props := map[string]any{"base": map[string]any{"type": "string"}}
	for _, n := range names("p") {
		props[n.(string)] = map[string]any{"$ref": "#/properties/base"}
	}
	inlined, lost := InlinePointerRefsWithin(objectOf(props, nil), NewBudget(64<<20))
	if len(lost) != 0 || hasRef(inlined) {
		t.Errorf("references left: %v", lost)
	}
}

func TestLinearAllOfRequired(t *testing.T) {
	props := map[string]any{}
	var branches, closed []any
	for _, n := range names("p") {
		props[n.(string)] = map[string]any{"type": "string"}
		branches = append(branches, map[string]any{"required": []any{n}, "description": "Needs " + n.(string) + "."})
		closed = append(closed, map[string]any{"properties": map[string]any{n.(string): map[string]any{"type": "string"}}, "required": []any{n}})
	}
	// Each branch's group is its parent's, found once.
	if d := DanglingRequired(objectOf(props, map[string]any{"allOf": branches})); len(d) != 0 {
		t.Errorf("dangling: %v", d[:1])
	}
	// The root allOf merged: required united, descriptions joined.
	out, _ := RootCombinators(map[string]any{"type": "object", "allOf": closed})
	if req, _ := out.(map[string]any)["required"].([]any); len(req) != many {
		t.Errorf("%d required after the merge", len(req))
	}
	out, _ = RootCombinators(objectOf(props, map[string]any{"allOf": branches}))
	if d, _ := out.(map[string]any)["description"].(string); strings.Count(d, "Needs p") != many {
		t.Errorf("the description joins %d branches'", strings.Count(d, "Needs p"))
	}
}
