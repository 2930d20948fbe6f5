package breaking

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// direction says which way a schema may change without breaking clients.
type direction int

const (
	// input: the new schema must accept every value the old one did.
	input direction = iota
	// output: the new schema must accept no value the old one refused.
	output
)

// maxDepth bounds the comparison of nested schemas.
const maxDepth = 128

// schemaCmp compares the input or the output schemas of one tool.
type schemaCmp struct {
	c    *comparer
	tool string
	dir  direction
	// seen holds the pairs of subschemas (after references) already
	// compared, so recursive schemas end.
	seen map[[2]string]bool
}

// compare compares two subschemas; where names them in messages ("the
// input", "property \"a\"").
func (s *schemaCmp) compare(o, n *node, where string, depth int) {
	pair := [2]string{o.key, n.key}
	if depth > maxDepth || s.seen[pair] {
		return
	}
	s.seen[pair] = true
	s.types(o, n, where)
	s.enum(o, n, where)
	s.constant(o, n, where)
	if s.dir == input {
		s.bounds(o, n, where)
		s.format(o, n, where)
	}
	s.properties(o, n, where, depth)
	s.items(o, n, where, depth)
	s.branches(o, n, where, depth)
	s.others(o, n, where)
}

// at reports a finding located in the new schema at keyword k of n, or at n
// when n has no such keyword.
func (s *schemaCmp) at(r *lint.Rule, n *node, k, format string, args ...any) {
	ptr := n.ptr
	if _, ok := n.m[k]; ok && k != "" {
		ptr = n.kw(k)
	}
	s.c.report(r, n.d.tool, ptr, "tool %q: "+format, append([]any{s.tool}, args...)...)
}

// typeSet is the set of JSON types a schema admits; nil means any.
func typeSet(m map[string]any) []string {
	ts := schema.Types(m)
	if len(ts) == 0 {
		return nil
	}
	if nb, _ := m["nullable"].(bool); nb && !slices.Contains(ts, "null") {
		ts = append(slices.Clone(ts), "null")
	}
	return ts
}

// covers reports whether types ts admit every value of type t.
func covers(ts []string, t string) bool {
	return ts == nil || slices.Contains(ts, t) || t == "integer" && slices.Contains(ts, "number")
}

// lost returns the types of from that to does not admit ("any" when from
// is unrestricted and to is not).
func lost(from, to []string) []string {
	if from == nil {
		if to == nil {
			return nil
		}
		return []string{"any other type"}
	}
	var out []string
	for _, t := range from {
		if !covers(to, t) {
			out = append(out, t)
		}
	}
	return out
}

func typeText(ts []string) string {
	if ts == nil {
		return "any type"
	}
	if len(ts) == 1 {
		return ts[0]
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

func (s *schemaCmp) types(o, n *node, where string) {
	ot, nt := typeSet(o.m), typeSet(n.m)
	narrowed, widened := lost(ot, nt), lost(nt, ot)
	switch s.dir {
	case input:
		if len(narrowed) > 0 {
			s.at(TypeNarrowed, n, "type", "%s: type narrowed from %s to %s; calls sending %s are now rejected: keep accepting the old type and convert on the server", where, typeText(ot), typeText(nt), strings.Join(narrowed, ", "))
		} else if len(widened) > 0 {
			s.at(ConstraintRelaxed, n, "type", "%s: type widened from %s to %s", where, typeText(ot), typeText(nt))
		}
	case output:
		if len(widened) > 0 {
			s.at(OutputTypeWidened, n, "type", "%s: type widened from %s to %s; clients may now receive %s, which they do not handle: keep returning the old type", where, typeText(ot), typeText(nt), strings.Join(widened, ", "))
		}
	}
}

// missing returns the values of a not in b, b looked up through a set: an
// enum of 100,000 values was searched once per value.
func missing(a, b []any) []string {
	var out []string
	in := schema.NewSet(b...)
	for _, v := range a {
		if !in.Has(v) {
			out = append(out, schema.Compact(v))
		}
	}
	return out
}

func (s *schemaCmp) enum(o, n *node, where string) {
	oe, oHas := o.m["enum"].([]any)
	ne, nHas := n.m["enum"].([]any)
	switch {
	case !oHas && !nHas:
		return
	case s.dir == input && !oHas:
		s.at(EnumValueRemoved, n, "enum", "%s: now restricted to the values %s; calls sending any other value are rejected: drop the enum or list every value that was accepted", where, schema.Compact(ne))
	case s.dir == input && !nHas:
		s.at(ConstraintRelaxed, n, "", "%s: the enum %s was dropped", where, schema.Compact(oe))
	case s.dir == input:
		if gone := missing(oe, ne); len(gone) > 0 {
			s.at(EnumValueRemoved, n, "enum", "%s: enum value %s removed; calls sending it are rejected: keep accepting it", where, strings.Join(gone, ", "))
		}
		if more := missing(ne, oe); len(more) > 0 {
			s.at(ConstraintRelaxed, n, "enum", "%s: enum value %s added", where, strings.Join(more, ", "))
		}
	case !nHas:
		s.at(OutputTypeWidened, n, "", "%s: no longer limited to the values %s; clients may receive values they do not handle: keep the enum", where, schema.Compact(oe))
	case oHas:
		if more := missing(ne, oe); len(more) > 0 {
			s.at(OutputTypeWidened, n, "enum", "%s: enum value %s added; clients may receive a value they do not handle: return a known value, or add a new property", where, strings.Join(more, ", "))
		}
	}
}

func (s *schemaCmp) constant(o, n *node, where string) {
	oc, oHas := o.m["const"]
	nc, nHas := n.m["const"]
	switch {
	case oHas && nHas && lint.Equal(oc, nc), !oHas && !nHas:
	case s.dir == input && nHas:
		was := "any value"
		if oHas {
			was = schema.Compact(oc)
		}
		s.at(ConstChanged, n, "const", "%s: const is now %s (was %s); calls sending the old value are rejected: accept both with an enum", where, schema.Compact(nc), was)
	case s.dir == input:
		s.at(ConstraintRelaxed, n, "", "%s: the const %s was dropped", where, schema.Compact(oc))
	case oHas:
		now := "no longer fixed"
		if nHas {
			now = "now " + schema.Compact(nc)
		}
		s.at(OutputTypeWidened, n, "const", "%s: the value was always %s and is %s; clients that rely on it break: keep returning %s", where, schema.Compact(oc), now, schema.Compact(oc))
	}
}

// bound is a keyword whose value limits values; higher says whether a
// greater value is stricter.
var boundKeywords = []struct {
	name   string
	higher bool
}{
	{"minimum", true}, {"exclusiveMinimum", true}, {"minLength", true}, {"minItems", true},
	{"minProperties", true}, {"minContains", true},
	{"maximum", false}, {"exclusiveMaximum", false}, {"maxLength", false}, {"maxItems", false},
	{"maxProperties", false}, {"maxContains", false},
}

func (s *schemaCmp) bounds(o, n *node, where string) {
	for _, b := range boundKeywords {
		ov, oHas := o.m[b.name]
		nv, nHas := n.m[b.name]
		of, oNum := schema.Number(ov)
		nf, nNum := schema.Number(nv)
		switch {
		case !oHas && !nHas:
		case !oHas && nNum:
			s.at(BoundTightened, n, b.name, "%s: %s %s added; values beyond it that were accepted are now rejected: drop it or clamp on the server", where, b.name, schema.Compact(nv))
		case oNum && !nHas:
			s.at(ConstraintRelaxed, n, "", "%s: %s %s dropped", where, b.name, schema.Compact(ov))
		case oNum && nNum && of != nf:
			if (nf > of) == b.higher {
				s.at(BoundTightened, n, b.name, "%s: %s tightened from %s to %s; values between them are now rejected: keep %s", where, b.name, schema.Compact(ov), schema.Compact(nv), schema.Compact(ov))
			} else {
				s.at(ConstraintRelaxed, n, b.name, "%s: %s relaxed from %s to %s", where, b.name, schema.Compact(ov), schema.Compact(nv))
			}
		}
		// Draft-4 boolean exclusive bounds and other non-numbers are left
		// to others() through lint.Equal.
	}
	s.narrowing(o, n, where, "pattern", BoundTightened,
		"strings it refuses were accepted: drop it or check on the server",
		"make sure it still accepts every string the old one did")
	om, oHas := o.m["multipleOf"]
	nm, nHas := n.m["multipleOf"]
	of, _ := schema.Number(om)
	nf, nNum := schema.Number(nm)
	switch {
	case nHas && !oHas:
		s.at(BoundTightened, n, "multipleOf", "%s: multipleOf %s added; other values are now rejected", where, schema.Compact(nm))
	case nHas && !lint.Equal(om, nm):
		if nNum && nf != 0 && of != 0 && math.Mod(of, nf) == 0 {
			s.at(ConstraintRelaxed, n, "multipleOf", "%s: multipleOf relaxed from %s to %s", where, schema.Compact(om), schema.Compact(nm))
		} else {
			s.at(BoundTightened, n, "multipleOf", "%s: multipleOf changed from %s to %s; multiples of the old value are now rejected", where, schema.Compact(om), schema.Compact(nm))
		}
	case oHas && !nHas:
		s.at(ConstraintRelaxed, n, "", "%s: multipleOf %s dropped", where, schema.Compact(om))
	}
	if ou, nu := o.m["uniqueItems"] == true, n.m["uniqueItems"] == true; nu && !ou {
		s.at(BoundTightened, n, "uniqueItems", "%s: uniqueItems turned on; arrays with repeated items are now rejected", where)
	} else if ou && !nu {
		s.at(ConstraintRelaxed, n, "", "%s: uniqueItems turned off", where)
	}
}

func (s *schemaCmp) format(o, n *node, where string) {
	s.narrowing(o, n, where, "format", FormatAdded,
		"validators that assert formats now reject strings that were accepted: drop it, or parse the format on the server",
		"validators that assert formats now reject strings that were accepted")
}

// narrowing compares a keyword whose value can only be judged as a whole
// (a pattern, a format): added or changed, it may refuse what passed,
// reported under rule with the advice given; dropped, it relaxes.
func (s *schemaCmp) narrowing(o, n *node, where, key string, rule *lint.Rule, added, changed string) {
	ov, oHas := o.m[key]
	nv, nHas := n.m[key]
	switch {
	case nHas && !oHas:
		s.at(rule, n, key, "%s: %s %s added; %s", where, key, schema.Compact(nv), added)
	case nHas && !lint.Equal(ov, nv):
		s.at(rule, n, key, "%s: %s changed from %s to %s; %s", where, key, schema.Compact(ov), schema.Compact(nv), changed)
	case oHas && !nHas:
		s.at(ConstraintRelaxed, n, "", "%s: %s %s dropped", where, key, schema.Compact(ov))
	}
}

func stringSet(v any) []string {
	a, _ := v.([]any)
	var out []string
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// requiredAt returns the pointer of name in n's "required" (index, from
// where the name first is), or n's pointer.
func requiredAt(n *node, index map[string]int, name string) string {
	if i, ok := index[name]; ok {
		return n.kw("required") + "/" + itoa(i)
	}
	return n.ptr
}

// positions maps each name of a "required" list to where it first is, so
// that lists are compared in time linear in them, not by searching one for
// each name of the other.
func positions(v any) map[string]int {
	l, _ := v.([]any)
	out := make(map[string]int, len(l))
	for i, e := range l {
		if s, ok := e.(string); ok {
			if _, seen := out[s]; !seen {
				out[s] = i
			}
		}
	}
	return out
}

func (s *schemaCmp) properties(o, n *node, where string, depth int) {
	op, _ := o.m["properties"].(map[string]any)
	np, _ := n.m["properties"].(map[string]any)
	oReq, nReq := stringSet(o.m["required"]), stringSet(n.m["required"])
	oIdx, nIdx := positions(o.m["required"]), positions(n.m["required"])
	prop := func(nd *node, name string) string {
		return nd.kw("properties") + "/" + pointer.Escape(name)
	}
	for _, name := range slices.Sorted(maps.Keys(op)) {
		nv, ok := np[name]
		if !ok {
			r, msg := PropertyRemoved, "property %q removed from %s; callers that send it are rejected or silently ignored: keep accepting it"
			if s.dir == output {
				r, msg = OutputPropertyRemoved, "property %q removed from %s; clients that read it break: keep returning it"
			}
			s.c.report(r, o.d.tool, prop(o, name), "tool %q: "+msg, s.tool, name, where)
			continue
		}
		label := childLabel(where, name)
		s.compare(o.d.resolve(op[name], prop(o, name)), n.d.resolve(nv, prop(n, name)), label, depth+1)
	}
	for _, name := range slices.Sorted(maps.Keys(np)) {
		if _, ok := op[name]; ok || s.dir == output {
			continue
		}
		if _, ok := nIdx[name]; ok {
			s.c.report(RequiredPropertyAdded, n.d.tool, prop(n, name), "tool %q: required property %q added to %s; no existing call sends it: make it optional with a default", s.tool, name, where)
		} else {
			s.c.report(OptionalPropertyAdded, n.d.tool, prop(n, name), "tool %q: optional property %q added to %s", s.tool, name, where)
		}
	}
	for _, name := range nReq {
		if _, ok := oIdx[name]; ok || s.dir == output {
			continue
		}
		if _, ok := op[name]; ok {
			s.c.report(PropertyBecameRequired, n.d.tool, requiredAt(n, nIdx, name), "tool %q: property %q of %s is now required; calls that leave it out are rejected: keep it optional", s.tool, name, where)
		} else if _, ok := np[name]; !ok {
			s.c.report(RequiredPropertyAdded, n.d.tool, requiredAt(n, nIdx, name), "tool %q: %s now requires %q; no existing call sends it: drop it from \"required\"", s.tool, where, name)
		}
	}
	for _, name := range oReq {
		if _, ok := nIdx[name]; ok {
			continue
		}
		_, still := np[name]
		switch {
		case s.dir == input:
			s.c.report(ConstraintRelaxed, n.d.tool, n.ptr, "tool %q: property %q of %s is no longer required", s.tool, name, where)
		case still:
			s.c.report(OutputPropertyRemoved, n.d.tool, prop(n, name), "tool %q: property %q of %s is no longer required, so results may omit it; clients that read it break: keep it in \"required\"", s.tool, name, where)
		}
	}
	if s.dir == input {
		s.additional(o, n, where, depth)
	}
}

func (s *schemaCmp) additional(o, n *node, where string, depth int) {
	ov, oHas := o.m["additionalProperties"]
	nv, nHas := n.m["additionalProperties"]
	if !oHas {
		ov = true
	}
	if !nHas {
		nv = true
	}
	_, oSchema := ov.(map[string]any)
	_, nSchema := nv.(map[string]any)
	switch {
	case oSchema && nSchema:
		s.compare(o.d.resolve(ov, o.kw("additionalProperties")), n.d.resolve(nv, n.kw("additionalProperties")), where+" (additional properties)", depth+1)
	case nv == false && ov != false, nSchema && ov == true:
		s.at(AdditionalPropertiesTightened, n, "additionalProperties", "%s: additionalProperties is now %s; calls with properties it refuses were accepted: keep accepting them", where, schema.Compact(nv))
	case ov == false && nv != false, oSchema && nv == true:
		s.at(ConstraintRelaxed, n, "", "%s: additionalProperties relaxed from %s to %s", where, schema.Compact(ov), schema.Compact(nv))
	}
}

func (s *schemaCmp) items(o, n *node, where string, depth int) {
	for _, k := range []string{"items", "prefixItems", "additionalItems", "contains", "propertyNames"} {
		ov, oHas := o.m[k]
		nv, nHas := n.m[k]
		if !oHas || !nHas {
			if oHas != nHas {
				s.changed(o, n, k, where)
			}
			continue
		}
		oa, oArr := ov.([]any)
		na, nArr := nv.([]any)
		switch {
		case oArr && nArr:
			for i := range min(len(oa), len(na)) {
				s.compare(o.d.resolve(oa[i], o.kw(k)+"/"+itoa(i)), n.d.resolve(na[i], n.kw(k)+"/"+itoa(i)), fmt.Sprintf("%s[%d]", where, i), depth+1)
			}
			if len(oa) != len(na) {
				s.changed(o, n, k, where)
			}
		case !oArr && !nArr:
			s.compare(o.d.resolve(ov, o.kw(k)), n.d.resolve(nv, n.kw(k)), where+"[]", depth+1)
		default:
			s.changed(o, n, k, where)
		}
	}
}

// branches compares anyOf and oneOf: pairwise when both have as many
// branches, otherwise by matching equal branches.
func (s *schemaCmp) branches(o, n *node, where string, depth int) {
	for _, k := range []string{"anyOf", "oneOf"} {
		oa, _ := o.m[k].([]any)
		na, _ := n.m[k].([]any)
		if len(oa) == len(na) {
			for i := range oa {
				s.compare(o.d.resolve(oa[i], o.kw(k)+"/"+itoa(i)), n.d.resolve(na[i], n.kw(k)+"/"+itoa(i)), fmt.Sprintf("%s (%s branch %d)", where, k, i), depth+1)
			}
			continue
		}
		oc := s.canonicalAll(o, k, oa)
		nc := s.canonicalAll(n, k, na)
		gone, more := 0, 0
		inOld, inNew := schema.NewSet(oc...), schema.NewSet(nc...)
		for _, b := range oc {
			if !inNew.Has(b) {
				gone++
			}
		}
		for _, b := range nc {
			if !inOld.Has(b) {
				more++
			}
		}
		switch {
		case s.dir == input && gone > 0:
			s.at(TypeNarrowed, n, k, "%s: %d branch(es) of %s removed or changed; values only they accepted are now rejected: keep them", where, gone, k)
		case s.dir == input && more > 0:
			s.at(ConstraintRelaxed, n, k, "%s: %d branch(es) added to %s", where, more, k)
		case s.dir == output && more > 0:
			s.at(OutputTypeWidened, n, k, "%s: %d branch(es) added to %s; clients may receive values they do not handle", where, more, k)
		}
	}
}

// childLabel names property name of the subschema named where: property
// "a" at the top, property "a.b" below it.
func childLabel(where, name string) string {
	if inner, ok := strings.CutPrefix(where, "property \""); ok && strings.HasSuffix(inner, "\"") {
		return fmt.Sprintf("property %q", strings.TrimSuffix(inner, "\"")+"."+name)
	}
	if where == "the input" || where == "the output" {
		return fmt.Sprintf("property %q", name)
	}
	return fmt.Sprintf("%s, property %q", where, name)
}

func (s *schemaCmp) canonicalAll(n *node, k string, bs []any) []any {
	out := make([]any, len(bs))
	for i, b := range bs {
		out[i] = n.d.canonical(b, n.kw(k)+"/"+itoa(i), nil)
	}
	return out
}

// handled are the keywords compare analyses itself (or that do not
// constrain values).
var handled = map[string]bool{
	"type": true, "nullable": true, "enum": true, "const": true, "format": true, "pattern": true,
	"multipleOf": true, "uniqueItems": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "prefixItems": true, "additionalItems": true, "contains": true, "propertyNames": true,
	"anyOf": true, "oneOf": true,
}

// others compares the keywords compare does not analyse as values.
func (s *schemaCmp) others(o, n *node, where string) {
	keys := map[string]bool{}
	for k := range o.m {
		keys[k] = true
	}
	for k := range n.m {
		keys[k] = true
	}
	for _, b := range boundKeywords {
		if _, isNum := schema.Number(o.m[b.name]); isNum || o.m[b.name] == nil {
			if _, isNum := schema.Number(n.m[b.name]); isNum || n.m[b.name] == nil {
				delete(keys, b.name)
			}
		}
	}
	var names []string
	for k := range keys {
		if !handled[k] && !isAnnotation(k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		if s.dir == output && k != "$ref" {
			// Output schemas are checked for removals and widenings only.
			continue
		}
		ov, oHas := o.m[k]
		nv, nHas := n.m[k]
		if oHas != nHas || !lint.Equal(o.d.canonicalMember(k, ov, o.kw(k), nil), n.d.canonicalMember(k, nv, n.kw(k), nil)) {
			s.changed(o, n, k, where)
		}
	}
	if s.dir == input {
		if od, nd := o.m["description"], n.m["description"]; !lint.Equal(od, nd) && where != "the input" {
			s.at(DescriptionChanged, n, "description", "%s: description changed", where)
		}
	}
}

func (s *schemaCmp) changed(o, n *node, k, where string) {
	if s.dir == output {
		return
	}
	if _, ok := n.m[k]; ok {
		s.at(SchemaChanged, n, k, "%s: %q changed; mcplint cannot tell whether old calls are still valid: review the change", where, k)
		return
	}
	s.at(SchemaChanged, n, "", "%s: %q was removed; mcplint cannot tell whether old calls are still valid: review the change", where, k)
}
