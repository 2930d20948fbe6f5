package normalize

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/mcpfit/mcplint/schema"
)

// ErrNotObject is returned (wrapped) by ObjectRoot for a schema that admits
// no JSON object at all: giving it "type": "object" would leave a schema no
// value satisfies, so the repair needs a person.
var ErrNotObject = errors.New("the schema admits no object")

// maxRefChain bounds how many $ref hops ObjectRoot and AdmitsObject follow.
const maxRefChain = 32

// ObjectRoot returns schema with "type": "object" at its root, as MCP
// requires of every inputSchema (and, up to 2025-11-25, of every
// outputSchema).
//
// A missing or null schema and the boolean schema true become
// {"type": "object"}. An object schema without "type" gets "type": "object";
// a type list that includes "object" becomes "object". A root that is only a
// "$ref" gets "type": "object" beside it in 2019-09 and 2020-12, where
// keywords beside "$ref" apply; in draft-07 and older (and in a dialect
// mcplint does not know) they are ignored, so the referenced definition is
// inlined instead (see InlineRootRef).
//
// Every change narrows the schema to objects only. That keeps the contract of
// an input schema, since tool arguments are always a JSON object, but is a
// real narrowing for a schema that also admits other values; callers decide
// whether that is acceptable. A schema that admits no object (a root "type":
// "string", a boolean false, a $ref to a string schema) is an ErrNotObject
// error; so is any value that is not a schema.
//
// s is never modified, and the result shares with s what it does not change
// (all of it when nothing changes), so it is to be read, not changed: most
// input schemas already have an object root, and converting thousands of
// tools copied each of them here before the target's transform copied it
// again.
func ObjectRoot(s any) (any, error) {
	return objectRoot(s, 0)
}

func objectRoot(s any, hops int) (any, error) {
	switch v := s.(type) {
	case nil:
		return map[string]any{"type": "object"}, nil
	case bool:
		if v {
			return map[string]any{"type": "object"}, nil
		}
		return nil, fmt.Errorf("boolean schema false: %w", ErrNotObject)
	case map[string]any:
		return objectRootMap(v, hops)
	}
	return nil, fmt.Errorf("a %s is not a JSON Schema", schema.Kind(s))
}

func objectRootMap(m map[string]any, hops int) (any, error) {
	d, _ := schema.Dialect(m)
	_, hasType := m["type"]
	if _, hasRef := m["$ref"]; hasRef && (schema.RefSiblingsIgnored(d) || d == schema.UnknownDraft && !hasType) {
		if hops >= maxRefChain {
			return nil, fmt.Errorf("more than %d chained root references", maxRefChain)
		}
		inlined, err := InlineRootRef(m)
		if err != nil {
			return nil, err
		}
		return objectRoot(inlined, hops+1)
	}
	if t, ok := m["type"].(string); ok && t != "object" && strings.EqualFold(t, "object") {
		// "Object" is no type name at all, so no validator accepted the
		// schema as it was; the lower-case spelling is plainly what was meant.
		return objectTyped(m), nil
	}
	if !AdmitsObject(m, m) {
		return nil, fmt.Errorf("%s: %w", describeNonObject(m, m), ErrNotObject)
	}
	if m["type"] == "object" {
		return m, nil
	}
	return objectTyped(m), nil
}

// objectTyped is m with "type": "object", in a copy of its root only.
func objectTyped(m map[string]any) map[string]any {
	out := maps.Clone(m)
	out["type"] = "object"
	return out
}

// AdmitsObject reports whether schema s, found in the document root, might
// accept a JSON object. It answers false only when s says so plainly: its
// "type" leaves out "object", it is the boolean schema false, its const or
// every enum value is something else, every branch of its anyOf or oneOf
// admits no object, a branch of its allOf admits none, or its $ref points to
// such a schema. When in doubt (an unresolvable reference, an invalid
// keyword) it answers true.
func AdmitsObject(s, root any) bool {
	return admitsObject(s, root, 0)
}

func admitsObject(s, root any, hops int) bool {
	if b, ok := s.(bool); ok {
		return b
	}
	m, ok := s.(map[string]any)
	if !ok || hops > maxRefChain {
		return true
	}
	if t, ok := m["type"]; ok {
		switch t.(type) {
		case string, []any:
			if !schema.HasType(m, "object") {
				return false
			}
		}
	}
	if c, ok := m["const"]; ok {
		if _, isObj := c.(map[string]any); !isObj {
			return false
		}
	}
	if e, ok := m["enum"].([]any); ok {
		some := false
		for _, v := range e {
			_, isObj := v.(map[string]any)
			some = some || isObj
		}
		if !some {
			return false
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l, ok := m[k].([]any); ok && len(l) > 0 {
			some := false
			for _, b := range l {
				some = some || admitsObject(b, root, hops+1)
			}
			if !some {
				return false
			}
		}
	}
	if l, ok := m["allOf"].([]any); ok {
		for _, b := range l {
			if !admitsObject(b, root, hops+1) {
				return false
			}
		}
	}
	if ref, ok := m["$ref"].(string); ok {
		if target, ok := schema.Resolve(root, ref); ok {
			return admitsObject(target, root, hops+1)
		}
	}
	return true
}

// describeNonObject says, for an error message, why s admits no object.
func describeNonObject(s, root any) string {
	m, _ := s.(map[string]any)
	if t, ok := m["type"]; ok {
		return fmt.Sprintf("its \"type\" is %s", schema.Compact(t))
	}
	if ref, ok := m["$ref"].(string); ok {
		return fmt.Sprintf("its \"$ref\" %q points to a schema that admits no object", ref)
	}
	return "its keywords admit no object"
}
