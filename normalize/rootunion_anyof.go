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
	u, opened, err := union(variants, ptr, kw)
	if err != nil {
		return nil, nil, err
	}
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
func union(vs []map[string]any, ptr, kw string) (u map[string]any, opened []string, err error) {
	u = map[string]any{}
	// Which variants declare each name, and what a variant that does not
	// admits under it: anything (open), nothing, or the schema of its
	// "additionalProperties". Each name's union is then made from the
	// variants that declare it and the distinct schemas of those that do
	// not, in time linear in the variants' properties: asking every
	// variant about every name took time in their product.
	var names []string
	has := map[string][]int{}
	lack := make([]int, len(vs))
	opens := 0
	// The distinct "additionalProperties" schemas, in order of first
	// appearance, with the variants that have each; found by hash.
	var extraOf []any
	var extraBy [][]int
	extraAt := map[uint64][]int{}
	for i, v := range vs {
		props, _ := v["properties"].(map[string]any)
		for _, n := range slices.Sorted(maps.Keys(props)) {
			if _, seen := has[n]; !seen {
				names = append(names, n)
			}
			has[n] = append(has[n], i)
		}
		if _, ok := v["patternProperties"]; ok {
			lack[i] = lackOpen
		} else {
			switch ap := v["additionalProperties"].(type) {
			case nil:
				lack[i] = lackOpen
			case bool:
				if ap {
					lack[i] = lackOpen
				}
			default:
				lack[i] = lackSchema
				h, k := schema.Hash(ap), -1
				for _, j := range extraAt[h] {
					if reflect.DeepEqual(extraOf[j], ap) {
						k = j
					}
				}
				if k < 0 {
					k = len(extraOf)
					extraOf, extraBy = append(extraOf, ap), append(extraBy, nil)
					extraAt[h] = append(extraAt[h], k)
				}
				extraBy[k] = append(extraBy[k], i)
			}
		}
		if lack[i] == lackOpen {
			opens++
		}
	}
	// Each name not declared by a variant gets that variant's schema: a
	// union of thousands of names and thousands of distinct schemas would
	// be millions of schemas.
	if len(names)*len(extraOf) > maxUnionSchemas {
		return nil, nil, refuse(ptr, kw, "the %d shapes have %d distinct \"additionalProperties\" schemas, which merged into one object would be repeated under each of %d properties; merge them by hand", len(vs), len(extraOf), len(names))
	}
	if len(names) > 0 {
		props := map[string]any{}
		for _, n := range names {
			var open bool
			props[n], open = unionProperty(vs, n, has[n], lack, opens, extraOf, extraBy)
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
	return u, opened, nil
}

// What a variant admits under a name it does not declare.
const (
	lackClosed = iota // nothing
	lackOpen          // any value
	lackSchema        // its "additionalProperties" schema
)

// maxUnionSchemas bounds the schemas union writes for names variants do
// not declare.
const maxUnionSchemas = 1 << 20

// unionProperty is the schema of the union for name n: the schemas of the
// variants that declare it (in, in order) and the "additionalProperties"
// schemas of those that do not, in the order of the variants, each once.
// It is open (any value) when a variant that does not declare it admits
// any extra name.
func unionProperty(vs []map[string]any, n string, in []int, lack []int, opens int, extraOf []any, extraBy [][]int) (any, bool) {
	declares := make(map[int]bool, len(in))
	openIn := 0
	type event struct {
		at int
		s  any
	}
	events := make([]event, 0, len(in)+len(extraOf))
	for _, i := range in {
		declares[i] = true
		props, _ := vs[i]["properties"].(map[string]any)
		events = append(events, event{i, props[n]})
		if lack[i] == lackOpen {
			openIn++
		}
	}
	open := opens-openIn > 0
	// Each distinct extra schema comes in at the first variant that has it
	// and does not declare n.
	for k, by := range extraBy {
		for _, i := range by {
			if !declares[i] {
				events = append(events, event{i, extraOf[k]})
				break
			}
		}
	}
	slices.SortStableFunc(events, func(a, b event) int { return a.at - b.at })
	var schemas []any
	var seen deepSet
	for _, e := range events {
		if seen.add(e.s) {
			schemas = append(schemas, schema.Clone(e.s))
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
	in := newDeepSet(b)
	var out []any
	for _, x := range a {
		if in.has(x) {
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
	common := newDeepSet(requiredOf(u))
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
			if s, ok := r.(string); ok && !common.has(r) {
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
