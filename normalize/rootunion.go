package normalize

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/schema"
)

// rootCombinatorKeywords are the keywords the Anthropic API ("input_schema
// does not support oneOf, allOf, or anyOf at the top level") and OpenAI
// ("schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'
// ... at the top level") refuse at the root of a tool's schema.
var rootCombinatorKeywords = []string{"allOf", "anyOf", "oneOf"}

// branchOnly are keywords that tie a schema to its place in the document:
// moved to the root they would change what references resolve to.
var branchOnly = map[string]bool{
	"$id": true, "id": true, "$anchor": true, "$dynamicAnchor": true,
	"$recursiveAnchor": true, "$vocabulary": true,
}

// HasRootCombinator reports whether s has allOf, anyOf or oneOf at its root.
func HasRootCombinator(s any) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range rootCombinatorKeywords {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// RootCombinators returns s without allOf, anyOf or oneOf at its root.
//
// allOf: the branches (local "$ref"s followed, nested allOfs flattened) are
// merged into the root when that is exact: properties are united, a
// property named twice with different schemas becomes the allOf of both,
// "required" lists are united, "type"s intersected, equal keywords kept
// once. An "additionalProperties" is carried only when every other place's
// properties are among its own (otherwise it would start to admit or refuse
// other names). Annotations cannot conflict: differing descriptions are
// joined, and the root's title, examples and $comment win over a branch's.
// An exact merge reports no Loss.
//
// anyOf and oneOf of object variants become one object that accepts every
// variant: the union of the properties (a property the variants describe
// differently becomes the anyOf of their schemas; a property one variant
// names and another admits as an unnamed extra becomes unconstrained),
// the intersection of "required", "additionalProperties" only when every
// variant is closed, and any other keyword only when every variant has it
// alike. The result accepts every value the original accepted and more;
// the lost "one of these shapes" constraint is a Loss. Because a model
// reading the merged schema would no longer see which properties belong
// together, the variants are described at the end of the root
// "description" (their own description or title, their discriminating
// "const" values and what they require) when any of them says something.
//
// A root without combinators is returned as a copy. When the combinators
// cannot be removed (a branch that is not an object schema, a conflict no
// merge resolves, a reference that cannot be followed or that points into
// the combinator) the input is returned unchanged (as a copy) with a Loss
// saying why.
func RootCombinators(s any) (any, []Loss) {
	m, ok := s.(map[string]any)
	if !ok || !HasRootCombinator(m) {
		return schema.Clone(s), nil
	}
	out, losses, err := rootCombinators(m)
	if err != nil {
		r, ok := err.(*refusal)
		if !ok {
			r = &refusal{what: err.Error()}
		}
		return schema.Clone(s), []Loss{{Pointer: r.ptr, Keyword: r.kw, What: r.what + "; the root combinator was left in place"}}
	}
	return out, losses
}

// refusal says why a root combinator could not be removed.
type refusal struct{ ptr, kw, what string }

func (r *refusal) Error() string { return r.what }

func refuse(ptr, kw, format string, args ...any) *refusal {
	return &refusal{ptr: ptr, kw: kw, what: fmt.Sprintf(format, args...)}
}

// place is a schema to be merged, with where it came from: either a
// resolved schema object (m) or a branch still to resolve (raw).
type place struct {
	m     map[string]any
	ptr   string
	raw   any
	isRaw bool
}

// maxRootRounds bounds the rounds of merging: a merged branch may bring
// its own combinators up to the root.
const maxRootRounds = 8

func rootCombinators(in map[string]any) (map[string]any, []Loss, error) {
	if err := refsIntoCombinators(in); err != nil {
		return nil, nil, err
	}
	d, _ := schema.Dialect(in)
	out := schema.Clone(in).(map[string]any)
	var losses []Loss
	for round := 0; HasRootCombinator(out); round++ {
		if round == maxRootRounds {
			return nil, nil, refuse("", "", "combinators keep reappearing at the root after %d merges", maxRootRounds)
		}
		if v, ok := out["allOf"]; ok {
			delete(out, "allOf")
			branches, err := flatAllOf(v, "/allOf")
			if err != nil {
				return nil, nil, err
			}
			merged, err := conjoin(append([]place{{m: out}}, branches...), in, d)
			if err != nil {
				return nil, nil, err
			}
			out = merged
			continue
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			v, ok := out[kw]
			if !ok {
				continue
			}
			delete(out, kw)
			merged, loss, err := unite(out, v, kw, in, d)
			if err != nil {
				return nil, nil, err
			}
			out = merged
			losses = append(losses, loss...)
			break
		}
	}
	return out, losses, nil
}

// flatAllOf lists the branches of an allOf value as places to resolve.
func flatAllOf(v any, ptr string) ([]place, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, refuse(ptr, "allOf", "%s is a %s, not a list", ptr, schema.Kind(v))
	}
	var out []place
	for i, b := range l {
		out = append(out, place{ptr: fmt.Sprintf("%s/%d", ptr, i), raw: b, isRaw: true})
	}
	return out, nil
}

// resolve turns one branch into the schema objects it stands for: a local
// "$ref" is followed (its siblings kept as a further place where the dialect
// applies them), a nested allOf is flattened, true stands for nothing.
func resolve(b any, ptr string, root map[string]any, d string, hops int) ([]place, error) {
	if hops > maxRefChain {
		return nil, refuse(ptr, "$ref", "more than %d chained references", maxRefChain)
	}
	switch v := b.(type) {
	case bool:
		if v {
			return nil, nil
		}
		return nil, refuse(ptr, "", "%s is the schema false, which no arguments satisfy", ptr)
	case map[string]any:
		m := schema.Clone(v).(map[string]any)
		var out []place
		if raw, ok := m["$ref"]; ok {
			ref, _ := raw.(string)
			target, found := schema.Resolve(root, ref)
			if !found {
				return nil, refuse(ptr, "$ref", "%s refers to %q, which is not a definition of this schema", ptr, ref)
			}
			if tm, ok := target.(map[string]any); ok && schema.Identity(tm) == schema.Identity(root) {
				return nil, refuse(ptr, "$ref", "%s refers to the root itself", ptr)
			}
			delete(m, "$ref")
			t, err := resolve(target, ptr, root, d, hops+1)
			if err != nil {
				return nil, err
			}
			out = append(out, t...)
			if schema.RefSiblingsIgnored(d) {
				return out, nil
			}
		}
		if raw, ok := m["allOf"]; ok {
			delete(m, "allOf")
			branches, err := flatAllOf(raw, ptr+"/allOf")
			if err != nil {
				return nil, err
			}
			for _, p := range branches {
				sub, err := resolve(p.raw, p.ptr, root, d, hops)
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
			}
		}
		return append([]place{{m: m, ptr: ptr}}, out...), nil
	}
	return nil, refuse(ptr, "", "%s is a %s, not a schema", ptr, schema.Kind(b))
}

// conjoin merges places exactly: the result accepts what every place
// accepts. places[0] is the destination (a resolved object); the others are
// branches to resolve or resolved objects.
func conjoin(places []place, root map[string]any, d string) (map[string]any, error) {
	all := []place{places[0]}
	for _, p := range places[1:] {
		if !p.isRaw {
			all = append(all, p)
			continue
		}
		r, err := resolve(p.raw, p.ptr, root, d, 0)
		if err != nil {
			return nil, err
		}
		all = append(all, r...)
	}
	for _, p := range all[1:] {
		for k := range p.m {
			if branchOnly[k] {
				return nil, refuse(p.ptr, k, "%s declares %q, which would change what references resolve to at the root", p.ptr, k)
			}
		}
		if _, ok := p.m["unevaluatedProperties"]; ok {
			return nil, refuse(p.ptr, "unevaluatedProperties", "%s has \"unevaluatedProperties\", whose meaning depends on where it stands", p.ptr)
		}
		if t, ok := p.m["type"]; ok && !schema.HasType(p.m, "object") {
			return nil, refuse(p.ptr, "type", "%s is not an object schema (\"type\": %s)", p.ptr, schema.Compact(t))
		}
	}
	if err := closedExactly(all); err != nil {
		return nil, err
	}
	out := all[0].m
	c := conjoiner{out: out}
	for _, p := range all[1:] {
		for _, k := range slices.Sorted(maps.Keys(p.m)) {
			v := p.m[k]
			if ap, ok := v.(bool); k == "additionalProperties" && ok && ap {
				continue
			}
			if err := c.keyword(k, v, p.ptr); err != nil {
				return nil, err
			}
		}
	}
	c.finish()
	return out, nil
}

// conjoiner adds one place after another to out, keeping what lists it
// builds (the united "required", the descriptions to join) until finish:
// uniting "required" anew, or joining the descriptions so far, for each of
// thousands of places took time in the square of their number.
type conjoiner struct {
	out      map[string]any
	required []any
	seen     *deepSet
	descs    []string
}

func (c *conjoiner) keyword(k string, v any, ptr string) error {
	switch k {
	case "required":
		if _, has := c.out[k]; has && c.seen == nil {
			old, _ := c.out[k].([]any)
			c.required = unionStrings(old, nil)
			c.seen = newDeepSet(c.required)
		}
		if c.seen == nil {
			break
		}
		list, _ := v.([]any)
		for _, e := range list {
			if c.seen.add(e) {
				c.required = append(c.required, e)
			}
		}
		c.out[k] = c.required
		return nil
	case "description":
		if old, has := c.out[k]; c.descs != nil || has && !reflect.DeepEqual(old, v) {
			if c.descs == nil {
				a, _ := old.(string)
				c.descs = []string{strings.TrimSpace(a)}
			}
			b, _ := v.(string)
			c.descs = append(c.descs, strings.TrimSpace(b))
			return nil
		}
	}
	return conjoinKeyword(c.out, k, v, ptr)
}

func (c *conjoiner) finish() {
	if c.descs != nil {
		c.out["description"] = strings.Join(c.descs, "\n\n")
	}
}

// closedExactly checks that every "additionalProperties" among the places
// keeps its meaning once they are merged: the other places may name only
// properties it names itself, and all such keywords agree. Each closing
// place must name every property the places name (its own are among
// them): that is counted once, so that each place is checked in the time
// of its own properties, and the others are read again only to word an
// offence.
func closedExactly(all []place) error {
	union := map[string]bool{}
	patterns := 0
	for _, p := range all {
		props, _ := p.m["properties"].(map[string]any)
		for n := range props {
			union[n] = true
		}
		if _, ok := p.m["patternProperties"]; ok {
			patterns++
		}
	}
	var closing *place
	for i := range all {
		p := &all[i]
		ap, ok := p.m["additionalProperties"]
		if !ok || ap == true {
			continue
		}
		if closing != nil && !reflect.DeepEqual(closing.m["additionalProperties"], ap) {
			return refuse(p.ptr, "additionalProperties", "%s and %s have different \"additionalProperties\"", name(closing.ptr), name(p.ptr))
		}
		closing = p
		own, _ := p.m["properties"].(map[string]any)
		others := patterns
		if _, ok := p.m["patternProperties"]; ok {
			others--
		}
		if len(own) == len(union) && others == 0 {
			continue
		}
		for j, o := range all {
			if j == i {
				continue
			}
			if _, ok := o.m["patternProperties"]; ok {
				return refuse(o.ptr, "patternProperties", "%s has \"patternProperties\" while %s closes its object", name(o.ptr), name(p.ptr))
			}
			props, _ := o.m["properties"].(map[string]any)
			for _, n := range slices.Sorted(maps.Keys(props)) {
				if _, ok := own[n]; !ok {
					return refuse(o.ptr, "additionalProperties", "%s names %q, which %s forbids with \"additionalProperties\"", name(o.ptr), n, name(p.ptr))
				}
			}
		}
	}
	return nil
}

// name says where a place is, for messages.
func name(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// conjoinKeyword adds keyword k with value v to out so that out accepts
// what it accepted and what v demands.
func conjoinKeyword(out map[string]any, k string, v any, ptr string) error {
	old, has := out[k]
	if !has {
		out[k] = v
		return nil
	}
	if reflect.DeepEqual(old, v) {
		return nil
	}
	switch k {
	case "type":
		t := intersectTypes(schema.Types(out), schema.Types(map[string]any{"type": v}))
		switch len(t) {
		case 0:
			return refuse(ptr, "type", "%s has \"type\" %s, which the root's %s excludes", ptr, schema.Compact(v), schema.Compact(old))
		case 1:
			out[k] = t[0]
		default:
			out[k] = toAny(t)
		}
	case "properties", "$defs", "definitions":
		om, ok1 := old.(map[string]any)
		vm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return refuse(ptr, k, "%s: %q is not an object", ptr, k)
		}
		for _, n := range slices.Sorted(maps.Keys(vm)) {
			prev, ok := om[n]
			switch {
			case !ok || reflect.DeepEqual(prev, vm[n]):
				om[n] = vm[n]
			case k == "properties":
				om[n] = conjoinSchemas(prev, vm[n])
			default:
				return refuse(ptr, k, "%s defines %q differently from the root", ptr, n)
			}
		}
	case "required":
		out[k] = unionStrings(old, v)
	case "description":
		a, _ := old.(string)
		b, _ := v.(string)
		out[k] = strings.TrimSpace(a) + "\n\n" + strings.TrimSpace(b)
	case "title", "examples", "$comment":
		// Annotations: the root's stays; they do not change what validates.
	default:
		return refuse(ptr, k, "%s has %q %s, which conflicts with %s", ptr, k, schema.Compact(v), schema.Compact(old))
	}
	return nil
}

// conjoinSchemas is the allOf of a and b, extending an allOf a already is.
// A schema already in a short allOf is not added twice; a long one is not
// searched (a repeat changes nothing it accepts), so that conjoining many
// schemas takes time in their number, not its square.
func conjoinSchemas(a, b any) any {
	if m, ok := a.(map[string]any); ok && len(m) == 1 {
		if l, ok := m["allOf"].([]any); ok {
			if len(l) <= 16 {
				for _, e := range l {
					if reflect.DeepEqual(e, b) {
						return a
					}
				}
			}
			return map[string]any{"allOf": append(l, b)}
		}
	}
	return map[string]any{"allOf": []any{a, b}}
}

func intersectTypes(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, y := range b {
		in[y] = true
	}
	var out []string
	for _, x := range a {
		switch {
		case in[x]:
			out = append(out, x)
		case x == "number" && in["integer"], x == "integer" && in["number"]:
			out = append(out, "integer")
		}
	}
	return out
}

func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// unionStrings unites two "required" lists, first-seen order.
func unionStrings(a, b any) []any {
	var out []any
	var seen deepSet
	for _, l := range []any{a, b} {
		list, _ := l.([]any)
		for _, e := range list {
			if seen.add(e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// deepSet holds values distinct as reflect.DeepEqual tells them apart,
// found by their schema.Hash (values DeepEqual holds equal hash alike), so
// that uniting or matching lists takes time in their length.
type deepSet struct{ buckets map[uint64][]any }

func (s *deepSet) add(v any) bool {
	h := schema.Hash(v)
	for _, e := range s.buckets[h] {
		if reflect.DeepEqual(e, v) {
			return false
		}
	}
	if s.buckets == nil {
		s.buckets = map[uint64][]any{}
	}
	s.buckets[h] = append(s.buckets[h], v)
	return true
}

func (s *deepSet) has(v any) bool {
	for _, e := range s.buckets[schema.Hash(v)] {
		if reflect.DeepEqual(e, v) {
			return true
		}
	}
	return false
}

func newDeepSet(l []any) *deepSet {
	s := &deepSet{}
	for _, v := range l {
		s.add(v)
	}
	return s
}

// hasEqual reports whether l holds a value equal to v; "required"
// entries need not be strings in an invalid schema, so no map is keyed by
// them.
func hasEqual(l []any, v any) bool {
	for _, e := range l {
		if reflect.DeepEqual(e, v) {
			return true
		}
	}
	return false
}

// refsIntoCombinators refuses a schema in which a reference points into a
// root combinator ("#/anyOf/0/properties/x", as zod-to-json-schema writes
// a repeated schema): the rewrite removes what it points to.
func refsIntoCombinators(in map[string]any) error {
	var err error
	r := schema.NewResolver(in)
	schema.Walk(in, "", func(n *schema.Node) bool {
		ref, ok := n.Value["$ref"].(string)
		if !ok || err != nil {
			return err == nil
		}
		ptr := n.Pointer()
		t := r.Resolve(ptr, ref)
		for _, k := range rootCombinatorKeywords {
			if t.Found && (t.Pointer == "/"+k || strings.HasPrefix(t.Pointer, "/"+k+"/")) {
				err = refuse(ptr, "$ref", "the reference %q at %s points into the root %q, which the rewrite removes; inline it first", ref, name(ptr), k)
			}
		}
		return true
	})
	return err
}
