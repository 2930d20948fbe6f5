package normalize

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/schema"
)

// unite removes the anyOf or oneOf kw (already taken out of out, its value
// v) by merging its variants into one object that accepts each of them,
// then conjoining that object with the rest of the root.
func unite(out map[string]any, v any, kw string, root map[string]any, d string) (map[string]any, []Loss, error) {
	ptr := "/" + kw
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, nil, refuse(ptr, kw, "%q is not a non-empty list", kw)
	}
	var variants []map[string]any
	for i, b := range list {
		vp := fmt.Sprintf("%s/%d", ptr, i)
		switch b {
		case true:
			// A variant that accepts anything makes the union accept anything.
			return out, []Loss{unionLoss(kw, len(list), nil)}, nil
		case false:
			continue
		}
		vm, err := conjoin([]place{{m: map[string]any{}, ptr: vp}, {ptr: vp, raw: b, isRaw: true}}, root, d)
		if err != nil {
			return nil, nil, err
		}
		if t, ok := vm["type"]; ok && !schema.HasType(vm, "object") {
			return nil, nil, refuse(vp, kw, "%s is not an object schema (\"type\": %s)", vp, schema.Compact(t))
		}
		if !AdmitsObject(vm, root) {
			return nil, nil, refuse(vp, kw, "%s admits no object", vp)
		}
		variants = append(variants, vm)
	}
	if len(variants) == 0 {
		return nil, nil, refuse(ptr, kw, "no variant of %q can be satisfied", kw)
	}
	u, opened := union(variants)
	if ap, ok := u["additionalProperties"]; ok && ap != true {
		props, _ := u["properties"].(map[string]any)
		own, _ := out["properties"].(map[string]any)
		for n := range own {
			if _, ok := props[n]; !ok {
				// The root names a property the variants forbid: keeping
				// their "additionalProperties" would refuse it.
				delete(u, "additionalProperties")
				break
			}
		}
	}
	if note := describeVariants(variants, u, kw); note != "" {
		if old, ok := out["description"].(string); ok && strings.TrimSpace(old) != "" {
			out["description"] = strings.TrimSpace(old) + "\n\n" + note
		} else {
			out["description"] = note
		}
	}
	merged, err := conjoin([]place{{m: out}, {m: u, ptr: ptr}}, root, d)
	if err != nil {
		return nil, nil, err
	}
	return merged, []Loss{unionLoss(kw, len(list), opened)}, nil
}

func unionLoss(kw string, n int, opened []string) Loss {
	how := "at least one"
	if kw == "oneOf" {
		how = "exactly one"
	}
	what := fmt.Sprintf("the arguments had to match %s of %d shapes; the merged object accepts any mix of their properties", how, n)
	if len(opened) > 0 {
		what += fmt.Sprintf("; %s now take any value, because a shape that does not name them admits them as extra keys (give every shape \"additionalProperties\": false to keep their schemas)",
			strings.Join(quoteAll(opened), ", "))
	}
	return Loss{Pointer: "/" + kw, Keyword: kw, What: what}
}

func quoteAll(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// union merges object variants into one schema that accepts each of them.
// opened lists the properties whose schemas it had to drop.
func union(vs []map[string]any) (u map[string]any, opened []string) {
	u = map[string]any{}
	var names []string
	seen := map[string]bool{}
	for _, v := range vs {
		props, _ := v["properties"].(map[string]any)
		for _, n := range slices.Sorted(maps.Keys(props)) {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if len(names) > 0 {
		props := map[string]any{}
		for _, n := range names {
			var open bool
			props[n], open = unionProperty(vs, n)
			if open {
				opened = append(opened, n)
			}
		}
		u["properties"] = props
	}
	required := requiredOf(vs[0])
	for _, v := range vs[1:] {
		required = intersect(required, requiredOf(v))
	}
	if len(required) > 0 {
		u["required"] = required
	}
	if ap, ok := closedAlike(vs); ok {
		u["additionalProperties"] = ap
	}
	// Any other keyword stays only if every variant has it alike; dropping
	// one only widens.
	for _, k := range slices.Sorted(maps.Keys(vs[0])) {
		switch k {
		case "properties", "required", "additionalProperties", "title", "description":
			continue
		}
		alike := true
		for _, v := range vs[1:] {
			alike = alike && reflect.DeepEqual(vs[0][k], v[k])
		}
		if alike {
			u[k] = schema.Clone(vs[0][k])
		}
	}
	return u, opened
}

// unionProperty is what the union admits for property n: the schemas the
// variants give it, or anything when a variant admits it as an unnamed
// extra property.
func unionProperty(vs []map[string]any, n string) (any, bool) {
	var schemas []any
	add := func(s any) {
		for _, e := range schemas {
			if reflect.DeepEqual(e, s) {
				return
			}
		}
		schemas = append(schemas, schema.Clone(s))
	}
	open := false
	for _, v := range vs {
		props, _ := v["properties"].(map[string]any)
		if s, ok := props[n]; ok {
			add(s)
			continue
		}
		if _, ok := v["patternProperties"]; ok {
			open = true
			continue
		}
		switch ap := v["additionalProperties"].(type) {
		case nil:
			open = true
		case bool:
			open = open || ap
		default:
			add(ap)
		}
	}
	if open {
		return unconstrained(schemas), true
	}
	if len(schemas) == 1 {
		return schemas[0], false
	}
	return map[string]any{"anyOf": schemas}, false
}

// unconstrained is a schema that admits anything, keeping the description
// the variants agree on.
func unconstrained(schemas []any) any {
	out := map[string]any{}
	var desc any
	for i, s := range schemas {
		m, _ := s.(map[string]any)
		if i == 0 {
			desc = m["description"]
		} else if !reflect.DeepEqual(desc, m["description"]) {
			desc = nil
		}
	}
	if desc != nil {
		out["description"] = desc
	}
	return out
}

// closedAlike returns the "additionalProperties" of the union: kept only
// when every variant has the same one and none admits extra names by
// pattern.
func closedAlike(vs []map[string]any) (any, bool) {
	first, ok := vs[0]["additionalProperties"]
	if !ok || first == true {
		return nil, false
	}
	for _, v := range vs {
		if _, ok := v["patternProperties"]; ok || !reflect.DeepEqual(v["additionalProperties"], first) {
			return nil, false
		}
	}
	return first, true
}

func requiredOf(v map[string]any) []any {
	l, _ := v["required"].([]any)
	return l
}

func intersect(a, b []any) []any {
	var out []any
	for _, x := range a {
		if hasEqual(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// describeVariants says in words what the removed combinator said in
// keywords, for the root description: each variant's own description or
// title, its "const" properties, and what it requires beyond what all
// require. It is empty when no variant says anything the others do not.
func describeVariants(vs []map[string]any, u map[string]any, kw string) string {
	common := requiredOf(u)
	var parts []string
	said := false
	for i, v := range vs {
		var bits []string
		props, _ := v["properties"].(map[string]any)
		for _, n := range slices.Sorted(maps.Keys(props)) {
			if p, ok := props[n].(map[string]any); ok {
				if c, ok := p["const"]; ok {
					bits = append(bits, n+"="+schema.Compact(c))
				}
			}
		}
		for _, k := range []string{"description", "title"} {
			if s, ok := v[k].(string); ok && strings.TrimSpace(s) != "" {
				bits = append(bits, strings.TrimRight(strings.TrimSpace(s), "."))
				break
			}
		}
		var req []string
		for _, r := range requiredOf(v) {
			if s, ok := r.(string); ok && !hasEqual(common, r) {
				req = append(req, s)
			}
		}
		if len(req) > 0 {
			bits = append(bits, "requires "+strings.Join(req, ", "))
		}
		if len(bits) == 0 {
			bits = []string{"no further requirement"}
		} else {
			said = true
		}
		parts = append(parts, fmt.Sprintf("(%d) %s", i+1, strings.Join(bits, "; ")))
	}
	if !said {
		return ""
	}
	how := "at least one"
	if kw == "oneOf" {
		how = "exactly one"
	}
	return fmt.Sprintf("Arguments must match %s of these shapes: %s.", how, strings.Join(parts, " "))
}
