package normalize

import (
	"maps"
	"reflect"
	"slices"
	"sort"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// OpenAIStrict returns s as OpenAI's strict mode (Structured Outputs) takes
// function parameters: OpenAIFunction's result, then in every subschema the
// keywords strict mode refuses rewritten or removed (StrictKeywords), every
// object closed (StrictClose) and every property required, the optional ones
// made nullable (StrictRequired). "$ref" and "$defs" stay: strict mode
// supports definitions and recursion.
//
// What no strict schema says is a Loss: a removed keyword, a typeless schema
// given types, an open map closed, an optional property that now arrives as
// null. The size limits of strict mode (OpenAIStrictSize) are not
// transforms; a schema over them stays over them.
func OpenAIStrict(s any) (any, []Loss) { return OpenAIStrictWithin(s, nil) }

// OpenAIStrictWithin is OpenAIStrict whose inlining of references spends
// b (see InlinePointerRefsWithin; nil: a budget for this call alone).
func OpenAIStrictWithin(s any, b *Budget) (any, []Loss) {
	// The rewrites below move subschemas (a tuple's positions into one
	// "items"): references into them must not be left pointing nowhere.
	in, losses := InlinePointerRefsWithin(s, b)
	if BudgetExceeded(losses) != nil {
		return in, losses
	}
	out, more := openAIFunction(in)
	losses = append(losses, more...)
	out, more = strictRootRef(out)
	losses = append(losses, more...)
	d, _ := schema.Dialect(out)
	ignored := schema.RefSiblingsIgnored(d)
	// out is this function's own copy: each step rewrites it in place,
	// node by node, rather than copying a node and all below it for every
	// node it visits.
	for _, step := range []func(map[string]any) (map[string]any, []Loss){
		func(n map[string]any) (map[string]any, []Loss) { return strictKeywords(n, ignored) },
		strictType,
		strictClose,
		strictRequired,
	} {
		schema.Walk(out, "", func(n *schema.Node) bool {
			r, l := step(n.Value)
			for _, x := range l {
				x.Pointer = n.Pointer() + x.Pointer
				losses = append(losses, x)
			}
			if !sameMap(r, n.Value) {
				replaceContents(n.Value, r)
			}
			return true
		})
	}
	return openAIRootProperties(out), losses
}

// StrictRootRef inlines a root "$ref" (InlineRootRef): beside "type":
// "object" it is a keyword strict mode refuses, and moving it into anyOf
// would put a combinator at the root, which OpenAI refuses too. When the
// definition cannot be inlined, the "$ref" is removed and the loss said.
func StrictRootRef(s any) (any, []Loss) {
	return strictRootRef(schema.Clone(s))
}

func strictRootRef(s any) (any, []Loss) {
	m, ok := s.(map[string]any)
	if !ok || m["$ref"] == nil {
		return s, nil
	}
	in, err := InlineRootRef(m)
	if err == nil {
		if im, ok := in.(map[string]any); ok && im["$ref"] == nil {
			return im, nil
		}
	}
	delete(m, "$ref")
	what := "strict mode refuses keywords beside the root \"$ref\" and it could not be inlined"
	if err != nil {
		what += " (" + err.Error() + ")"
	}
	return m, []Loss{{Pointer: "/$ref", Keyword: "$ref", What: what + "; removed, so the referenced constraints no longer apply"}}
}

// sameMap reports whether a and b are one map.
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// replaceContents makes dst hold what src holds, so a walk that already has
// dst in hand descends into the new members.
func replaceContents(dst, src map[string]any) {
	for k := range dst {
		if _, ok := src[k]; !ok {
			delete(dst, k)
		}
	}
	for k, v := range src {
		dst[k] = v
	}
}

// strictProfile is what strict mode takes (consumer.OpenAIStrict's
// profile, an allowlist from the Structured Outputs guide): StrictKeywords
// removes what it refuses, so that what convert writes for strict mode and
// what the strict rules accept are one list.
var strictProfile = consumer.ProfileOf(consumer.OpenAIStrict)

// StrictRefuses reports whether strict mode refuses keyword k below the
// root of a schema (the root's combinators are OpenAIFunction's).
func StrictRefuses(k string) bool {
	return strictProfile.Denied(k, consumer.Nested) != nil
}

// strictRewritten are the refused keywords StrictKeywords rewrites rather
// than removes.
var strictRewritten = map[string]bool{"allOf": true, "oneOf": true, "prefixItems": true, "additionalItems": true}

// StrictUnsupported says, for keywords strict mode refuses and
// StrictKeywords removes, what is lost when one goes; StrictLoss gives a
// general answer for the others. The Structured Outputs guide lists the
// composition keywords allOf, not, dependentRequired, dependentSchemas, if,
// then and else as unsupported; "dependencies" is draft-07's spelling of
// the last two. OpenAI's own SDK documents that strict mode can also
// reject "default", "minLength" and "maxLength" (openai/openai-node#1988).
// The API refuses "propertyNames" (can1357/oh-my-pi#209) and "uniqueItems"
// (1jehuang/jcode#687), which the guide lists among the keywords strict
// mode lacks; so is every keyword its list of supported ones leaves out.
var StrictUnsupported = map[string]string{
	"default":               "the model is no longer told the default (the server still applies its own)",
	"minLength":             "strings shorter than the bound are accepted; check the length in the server",
	"maxLength":             "strings longer than the bound are accepted; check the length in the server",
	"not":                   "the values it excluded are accepted",
	"if":                    "the conditional constraint no longer applies",
	"then":                  "the conditional constraint no longer applies",
	"else":                  "the conditional constraint no longer applies",
	"dependentRequired":     "properties it required together are each optional on their own",
	"dependentSchemas":      "the constraints it added when a property is present no longer apply",
	"dependencies":          "the constraints it added when a property is present no longer apply",
	"propertyNames":         "property names are no longer checked against it (a closed object takes only the names it declares)",
	"uniqueItems":           "duplicate elements are accepted; check them in the server",
	"patternProperties":     "properties matching its patterns are no longer constrained (a closed object takes only the names it declares)",
	"unevaluatedProperties": "properties no other keyword evaluates are no longer constrained",
	"minProperties":         "objects with fewer properties are accepted",
	"maxProperties":         "objects with more properties are accepted",
	"unevaluatedItems":      "elements no other keyword evaluates are no longer constrained",
	"contains":              "arrays no longer have to contain a matching element",
	"minContains":           "arrays no longer have to contain enough matching elements",
	"maxContains":           "arrays may contain more matching elements",
}

// StrictLoss says what is lost when StrictKeywords removes keyword k.
func StrictLoss(k string) string {
	if w, ok := StrictUnsupported[k]; ok {
		return w
	}
	return "what it said no longer applies (strict mode takes only the keywords OpenAI lists as supported)"
}

// annotationKeys describe a schema without constraining it; they stay beside
// a combinator when a schema is wrapped in one.
var annotationKeys = map[string]bool{
	"title": true, "description": true, "examples": true, "default": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
}

// refNeighbours may stand beside "$ref" in strict mode: the definitions it
// points into and the document's own identification.
var refNeighbours = map[string]bool{"$defs": true, "definitions": true, "$schema": true, "$id": true}

// RefSiblings returns the keywords beside "$ref" in s that strict mode
// refuses ("$ref cannot have keywords {...}"), sorted; nil without "$ref".
func RefSiblings(s map[string]any) []string {
	if _, ok := s["$ref"]; !ok {
		return nil
	}
	var out []string
	for k := range s {
		if k != "$ref" && !refNeighbours[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Typeless reports whether strict mode refuses s for having no type ("schema
// must have a 'type' key"): no "type", and neither "$ref", "anyOf", "enum"
// nor "const" to say what it holds.
func Typeless(s map[string]any) bool {
	for _, k := range []string{"type", "$ref", "anyOf", "enum", "const"} {
		if _, ok := s[k]; ok {
			return false
		}
	}
	return true
}

// StrictKeywords rewrites one schema node (not its subschemas) into the
// keywords strict mode supports. Rewrites that keep the meaning: oneOf whose
// branches no value can match twice becomes anyOf; allOf of plain object
// schemas (type, properties, required) is merged into the node; allOf with
// one branch becomes anyOf with that branch; "$ref" with keywords beside it
// moves into anyOf [{"$ref": ...}] (in draft-07 and older, where those
// keywords are ignored, the constraining ones are dropped and annotations
// kept). Anything else is removed or approximated with a Loss (Pointer
// relative to s): StrictUnsupported keywords, an overlapping oneOf, an allOf
// that cannot be merged. A schema left typeless is StrictType's.
// refSiblingsIgnored is schema.RefSiblingsIgnored of the document's dialect.
// Only the node's own members change, so the result is a shallow copy
// sharing s's subschemas and other values, which neither side may then
// change: the strict rules ask this of many nodes of every schema, and a
// deep copy of each was most of their work.
func StrictKeywords(s map[string]any, refSiblingsIgnored bool) (map[string]any, []Loss) {
	return strictKeywords(maps.Clone(s), refSiblingsIgnored)
}

// strictKeywords is StrictKeywords on n itself, which it may change; it
// returns n or the schema that replaces it.
func strictKeywords(n map[string]any, refSiblingsIgnored bool) (map[string]any, []Loss) {
	var losses []Loss
	lose := func(k, what string) { losses = append(losses, Loss{Pointer: "/" + k, Keyword: k, What: what}) }
	if _, ok := n["$ref"]; ok && refSiblingsIgnored {
		// Validators ignore every keyword beside "$ref" here: dropping the
		// constraining ones is exact, and leaves nothing else to rewrite.
		for _, k := range RefSiblings(n) {
			if !annotationKeys[k] {
				delete(n, k)
			}
		}
	}
	if tupleLoss := strictTuple(n); tupleLoss != "" {
		lose("prefixItems", tupleLoss)
	}
	// Only the keys found are sorted: sorting the whole list of refused
	// keywords at every node was a seventh of a strict conversion.
	var unsupported []string
	for k := range n {
		if !strictRewritten[k] && StrictRefuses(k) {
			unsupported = append(unsupported, k)
		}
	}
	slices.Sort(unsupported)
	for _, k := range unsupported {
		delete(n, k)
		lose(k, "strict mode does not support \""+k+"\"; removed, so "+StrictLoss(k))
	}
	for _, k := range []string{"format", "pattern"} {
		if v, ok := n[k]; ok && !StrictValueAllowed(n, k, v) {
			delete(n, k)
			lose(k, "strict mode does not support "+k+" "+schema.Compact(v)+"; removed, so values are no longer checked against it (say it in the description)")
		}
	}
	if all, ok := n["allOf"].([]any); ok {
		if merged, ok := mergeAllOf(n, all); ok {
			n = merged
		} else if _, has := n["anyOf"]; len(all) == 1 && !has && n["oneOf"] == nil {
			delete(n, "allOf")
			n["anyOf"] = all
		} else {
			delete(n, "allOf")
			lose("allOf", "strict mode does not support \"allOf\"; removed, so its branches' constraints no longer apply")
		}
	} else if _, ok := n["allOf"]; ok {
		delete(n, "allOf")
		lose("allOf", "strict mode does not support \"allOf\"; removed")
	}
	if one, ok := n["oneOf"]; ok {
		delete(n, "oneOf")
		list, isList := one.([]any)
		if _, has := n["anyOf"]; !has && isList {
			n["anyOf"] = list
			if !Disjoint(list) {
				losses = append(losses, Loss{Pointer: "/oneOf", Keyword: "oneOf", What: "strict mode supports anyOf, not oneOf; as anyOf, a value that matches several branches (refused by oneOf) is accepted"})
			}
		} else {
			lose("oneOf", "strict mode does not support \"oneOf\" and the schema already has \"anyOf\"; removed, so its branches no longer constrain the value")
		}
	}
	if sib := RefSiblings(n); len(sib) > 0 {
		ref := n["$ref"]
		delete(n, "$ref")
		if _, has := n["anyOf"]; has {
			// A second anyOf cannot hold the "$ref"; keeping the
			// existing one is the smaller loss.
			lose("$ref", "strict mode refuses keywords beside \"$ref\", and this schema's \"anyOf\" leaves no place to move it; removed, so the referenced constraints no longer apply")
		} else {
			n["anyOf"] = []any{map[string]any{"$ref": ref}}
		}
	}
	return n, losses
}

// StrictType gives a typeless schema (see Typeless) the types strict mode
// demands, which always loses something, said in the Loss: object keywords
// make it an object, array keywords an array, and a schema that took any
// value takes strings, numbers, booleans and null. Other schemas come back
// unchanged.
func StrictType(s map[string]any) (map[string]any, []Loss) {
	return strictType(schema.Clone(s).(map[string]any))
}

func strictType(n map[string]any) (map[string]any, []Loss) {
	if !Typeless(n) {
		return n, nil
	}
	typed, what := giveType(n)
	return typed, []Loss{{Keyword: "type", What: what}}
}

// giveType types a typeless schema as strict mode demands, saying what it no
// longer accepts.
func giveType(n map[string]any) (map[string]any, string) {
	for _, k := range []string{"properties", "required", "additionalProperties", "minProperties", "maxProperties"} {
		if _, ok := n[k]; ok {
			n["type"] = "object"
			return n, "strict mode needs a type; the schema has object keywords, so it became \"type\": \"object\" and accepts no other values"
		}
	}
	for _, k := range []string{"items", "prefixItems", "minItems", "maxItems"} {
		if _, ok := n[k]; ok {
			n["type"] = "array"
			return n, "strict mode needs a type; the schema has array keywords, so it became \"type\": \"array\" and accepts no other values"
		}
	}
	n["anyOf"] = []any{
		map[string]any{"type": "string"}, map[string]any{"type": "number"},
		map[string]any{"type": "boolean"}, map[string]any{"type": "null"},
	}
	return n, "strict mode needs a type and the schema accepted any value; it now accepts strings, numbers, booleans and null, but no objects or arrays"
}

// mergeAllOf merges allOf branches that are plain object schemas (only
// "type": "object", "properties" and "required") into s, which is exact:
// the merged schema accepts what every branch accepted. It fails when a
// branch has any other keyword or two of them declare one property
// differently.
func mergeAllOf(s map[string]any, all []any) (map[string]any, bool) {
	out := schema.Clone(s).(map[string]any)
	delete(out, "allOf")
	props, _ := out["properties"].(map[string]any)
	if props == nil {
		if _, ok := out["properties"]; ok {
			return nil, false
		}
		props = map[string]any{}
	}
	req, _ := out["required"].([]any)
	reqSeen := schema.NewSet(req...)
	if _, ok := out["type"]; ok && !schema.HasType(out, "object") {
		return nil, false
	}
	// The node's own additionalProperties (or patternProperties,
	// unevaluatedProperties) judges names against the node's properties
	// only; merging the branches' properties in would change its verdict.
	for _, k := range []string{"additionalProperties", "patternProperties", "unevaluatedProperties"} {
		if _, ok := out[k]; ok {
			return nil, false
		}
	}
	object := false
	for _, b := range all {
		m, ok := b.(map[string]any)
		if !ok {
			return nil, false
		}
		for k, v := range m {
			switch k {
			case "type":
				if v != "object" {
					return nil, false
				}
				object = true
			case "properties":
				pm, ok := v.(map[string]any)
				if !ok {
					return nil, false
				}
				for name, p := range pm {
					if old, ok := props[name]; ok && !reflect.DeepEqual(old, p) {
						return nil, false
					}
					props[name] = p
				}
			case "required":
				l, ok := v.([]any)
				if !ok {
					return nil, false
				}
				for _, r := range l {
					if reqSeen.Add(r) {
						req = append(req, r)
					}
				}
			default:
				return nil, false
			}
		}
	}
	if len(props) > 0 {
		out["properties"] = props
	}
	if len(req) > 0 {
		out["required"] = req
	}
	if object {
		// A branch demands an object, so the conjunction does too.
		out["type"] = "object"
	}
	return out, true
}

// Disjoint reports whether no value can match two of the branches, so that
// oneOf and anyOf over them accept the same values. It answers true only
// when every pair differs plainly: types that do not meet, const or enum
// values that do not meet, or a property both require whose const or enum
// values do not meet (a discriminator). Pairs are compared one by one up
// to disjointPairs branches; past that, in time linear in the branches,
// only the three forms that set every branch apart in one way are
// recognised (one type each, values listed once in all, or one
// discriminator): comparing the pairs of 100,000 branches took hours.
func Disjoint(branches []any) bool {
	if len(branches) < 2 {
		return true
	}
	ms := make([]map[string]any, len(branches))
	for i, b := range branches {
		m, ok := b.(map[string]any)
		if !ok {
			return false
		}
		ms[i] = m
	}
	if len(ms) > disjointPairs {
		return disjointByType(ms) || disjointByValues(ms) || disjointByDiscriminator(ms)
	}
	req := make([]map[string]bool, len(ms))
	for i, m := range ms {
		req[i] = requiredSet(m)
	}
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if !disjointPair(ms[i], ms[j], req[i], req[j]) {
				return false
			}
		}
	}
	return true
}

// disjointPairs is the most branches Disjoint compares pair by pair.
const disjointPairs = 16

func disjointPair(a, b map[string]any, ra, rb map[string]bool) bool {
	ta, tb := schema.Types(a), schema.Types(b)
	if len(ta) > 0 && len(tb) > 0 && !typesMeet(ta, tb) {
		return true
	}
	if va, ok := values(a); ok {
		if vb, ok := values(b); ok && !valuesMeet(va, vb) {
			return true
		}
	}
	pa, _ := a["properties"].(map[string]any)
	pb, _ := b["properties"].(map[string]any)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	for name := range ra {
		if !rb[name] {
			continue
		}
		sa, okA := pa[name].(map[string]any)
		sb, okB := pb[name].(map[string]any)
		if !okA || !okB {
			continue
		}
		if va, ok := values(sa); ok {
			if vb, ok := values(sb); ok && !valuesMeet(va, vb) {
				return true
			}
		}
	}
	return false
}

// disjointByType: every branch names types, and no type (integer and
// number being one) is named by two branches.
func disjointByType(ms []map[string]any) bool {
	owner := map[string]int{}
	for i, m := range ms {
		ts := schema.Types(m)
		if len(ts) == 0 {
			return false
		}
		for _, t := range ts {
			if t == "integer" {
				t = "number"
			}
			if o, ok := owner[t]; ok && o != i {
				return false
			}
			owner[t] = i
		}
	}
	return true
}

// disjointByValues: every branch lists its values, and no value is listed
// by two branches.
func disjointByValues(ms []map[string]any) bool {
	return distinctValues(len(ms), func(i int) ([]any, bool) { return values(ms[i]) })
}

// disjointByDiscriminator: one property is required by every branch,
// with values listed, no value by two branches.
func disjointByDiscriminator(ms []map[string]any) bool {
	req := make([]map[string]bool, len(ms))
	for i, m := range ms {
		req[i] = requiredSet(m)
	}
	first, _ := ms[0]["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(first)) {
		if !req[0][name] {
			continue
		}
		ok := distinctValues(len(ms), func(i int) ([]any, bool) {
			props, _ := ms[i]["properties"].(map[string]any)
			p, _ := props[name].(map[string]any)
			if p == nil || !req[i][name] {
				return nil, false
			}
			return values(p)
		})
		if ok {
			return true
		}
	}
	return false
}

// distinctValues reports whether each of the n branches has values (of)
// and no value is had by two of them; one branch may list a value twice.
func distinctValues(n int, of func(i int) ([]any, bool)) bool {
	all := schema.NewSet()
	for i := range n {
		vs, ok := of(i)
		if !ok {
			return false
		}
		for _, v := range vs {
			if all.Has(v) {
				return false
			}
		}
		for _, v := range vs {
			all.Add(v)
		}
	}
	return true
}

func typesMeet(a, b []string) bool {
	in := make(map[string]bool, len(a))
	for _, x := range a {
		in[x] = true
		if x == "integer" {
			in["number"] = true
		}
	}
	for _, y := range b {
		if in[y] || y == "integer" && in["number"] {
			return true
		}
	}
	return false
}

// values returns the values a schema's const or enum allows.
func values(s map[string]any) ([]any, bool) {
	if c, ok := s["const"]; ok {
		return []any{c}, true
	}
	e, ok := s["enum"].([]any)
	return e, ok
}

// valuesMeet reports whether a value is in both lists (as schema.Equal
// compares them).
func valuesMeet(a, b []any) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a)*len(b) <= 64 {
		for _, x := range a {
			for _, y := range b {
				if schema.Equal(x, y) {
					return true
				}
			}
		}
		return false
	}
	in := schema.NewSet(a...)
	for _, y := range b {
		if in.Has(y) {
			return true
		}
	}
	return false
}

// requiredSet is the names s requires.
func requiredSet(s map[string]any) map[string]bool {
	l, _ := s["required"].([]any)
	out := make(map[string]bool, len(l))
	for _, v := range l {
		if name, ok := v.(string); ok {
			out[name] = true
		}
	}
	return out
}

// StrictClose returns the node with "additionalProperties": false if it is
// an object schema without it, as strict mode requires of every object. An
// open map ("additionalProperties" true or a schema) has no strict form: it
// is closed and the loss said.
//
// The node returned shares its subschemas with s.
func StrictClose(s map[string]any) (map[string]any, []Loss) {
	return strictClose(maps.Clone(s)) // which changes n's own member only
}

func strictClose(n map[string]any) (map[string]any, []Loss) {
	if !schema.HasType(n, "object") {
		return n, nil
	}
	var losses []Loss
	if ap, ok := n["additionalProperties"]; ok && ap != false {
		losses = append(losses, Loss{Pointer: "/additionalProperties", Keyword: "additionalProperties",
			What: "strict mode requires \"additionalProperties\": false; the object accepted other keys (" + schema.Compact(ap) + "), which can no longer be passed"})
	}
	n["additionalProperties"] = false
	return n, losses
}

// StrictRequired returns the node with every key of "properties" listed in
// "required", and nothing else listed there, as strict mode demands
// ("'required' is required to be supplied and to be an array including
// every key in properties", and "Extra required key 'recipe' supplied",
// dotnet/extensions#6302). Each property that was optional is made
// nullable (NullableSchema) so the model can still leave it out by sending
// null, and that change is a Loss: the server receives null where the
// argument used to be absent. Each name "required" lists that "properties"
// does not declare is dropped from the list, a Loss too: nothing asks the
// model for it any more.
//
// The node returned shares with s all but what strictRequired may change
// in place: "required", "properties" and the members of each property (a
// fix built at every level of a schema nested n deep took time in n
// squared when each node was copied whole).
func StrictRequired(s map[string]any) (map[string]any, []Loss) {
	n := maps.Clone(s)
	if req, ok := n["required"].([]any); ok {
		n["required"] = slices.Clone(req)
	}
	if props, ok := n["properties"].(map[string]any); ok {
		props = maps.Clone(props)
		for k, p := range props {
			if m, ok := p.(map[string]any); ok {
				props[k] = maps.Clone(m)
			}
		}
		n["properties"] = props
	}
	return strictRequired(n)
}

// strictRequired is StrictRequired on a node it may change in place: its
// own members, and those of its properties.
func strictRequired(n map[string]any) (map[string]any, []Loss) {
	var losses []Loss
	if extra := UndeclaredRequired(n); len(extra) > 0 {
		undeclared := make(map[string]bool, len(extra))
		for _, name := range extra {
			undeclared[name] = true
		}
		req, _ := n["required"].([]any)
		req = slices.DeleteFunc(req, func(v any) bool { name, ok := v.(string); return ok && undeclared[name] })
		if len(req) == 0 {
			delete(n, "required")
		} else {
			n["required"] = req
		}
		for _, name := range extra {
			losses = append(losses, Loss{Pointer: "/required", Keyword: "required",
				What: "\"" + name + "\" was required but never declared in \"properties\"; strict mode refuses such a name, so it is no longer required"})
		}
	}
	props, ok := n["properties"].(map[string]any)
	if !ok || len(props) == 0 {
		return n, losses
	}
	missing := MissingRequired(n)
	if len(missing) == 0 {
		return n, losses
	}
	req, _ := n["required"].([]any)
	for _, name := range missing {
		req = append(req, name)
		props[name] = nullableIn(props[name])
		losses = append(losses, Loss{Pointer: "/properties/" + pointer.Escape(name), Keyword: "required",
			What: "strict mode requires every property; the optional \"" + name + "\" is now required and accepts null, which the model sends for \"absent\""})
	}
	n["required"] = req
	return n, losses
}

// UndeclaredRequired returns the names the "required" of an object schema
// s lists that its own "properties" does not declare, in the order listed,
// once each: strict mode judges each object by itself, so what a
// combinator or a reference declares does not count.
func UndeclaredRequired(s map[string]any) []string {
	if !schema.HasType(s, "object") {
		return nil
	}
	req, _ := s["required"].([]any)
	props, _ := s["properties"].(map[string]any)
	var out []string
	listed := map[string]bool{}
	for _, v := range req {
		name, ok := v.(string)
		if _, declared := props[name]; ok && !declared && !listed[name] {
			listed[name] = true
			out = append(out, name)
		}
	}
	return out
}

// MissingRequired returns the keys of s's "properties" that its "required"
// does not list, sorted.
func MissingRequired(s map[string]any) []string {
	props, _ := s["properties"].(map[string]any)
	req := requiredSet(s)
	var out []string
	for name := range props {
		if !req[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// NullableSchema returns s widened to accept null as well, and nothing
// else: "null" added to its type, null to its enum and a {"type": "null"}
// branch to its anyOf, when those are all it has that could refuse null;
// otherwise (a "$ref", a "const", another combinator) s is wrapped as
// anyOf [s, {"type": "null"}] with its annotations kept beside. A schema
// that already accepts null comes back unchanged.
func NullableSchema(s any) any {
	return nullableIn(schema.Clone(s))
}

// nullableIn is NullableSchema on s itself, whose members it may replace;
// the lists it extends are copied first, since s may share them.
func nullableIn(s any) any {
	n, ok := s.(map[string]any)
	if !ok || strictAdmitsNull(n) {
		return s
	}
	simple := true
	for _, k := range []string{"$ref", "const", "oneOf", "allOf", "not", "if", "then", "else"} {
		if _, ok := n[k]; ok {
			simple = false
		}
	}
	if simple {
		switch t := n["type"].(type) {
		case string:
			n["type"] = []any{t, "null"}
		case []any:
			if !slices.Contains(t, any("null")) {
				n["type"] = append(slices.Clip(t), "null")
			}
		}
		if e, ok := n["enum"].([]any); ok && !slices.Contains(e, nil) {
			n["enum"] = append(slices.Clip(e), nil)
		}
		if l, ok := n["anyOf"].([]any); ok && !anyBranchStrictAdmitsNull(l) {
			n["anyOf"] = append(slices.Clip(l), map[string]any{"type": "null"})
		}
		return n
	}
	inner := map[string]any{}
	out := map[string]any{}
	for k, v := range n {
		if annotationKeys[k] {
			out[k] = v
		} else {
			inner[k] = v
		}
	}
	out["anyOf"] = []any{inner, map[string]any{"type": "null"}}
	return out
}

// strictAdmitsNull reports whether s plainly accepts null: every keyword of it
// that could refuse null lets it through. When unsure ("$ref", "not",
// oneOf) it answers false.
func strictAdmitsNull(m map[string]any) bool {
	if _, ok := m["type"]; ok && !schema.HasType(m, "null") {
		return false
	}
	if v, ok := values(m); ok && !slices.Contains(v, nil) {
		return false
	}
	if l, ok := m["anyOf"].([]any); ok && !anyBranchStrictAdmitsNull(l) {
		return false
	}
	if l, ok := m["allOf"].([]any); ok {
		for _, b := range l {
			if bm, ok := b.(map[string]any); !ok || !strictAdmitsNull(bm) {
				return false
			}
		}
	}
	for _, k := range []string{"$ref", "not", "oneOf", "if"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	return true
}

func anyBranchStrictAdmitsNull(l []any) bool {
	for _, b := range l {
		if bm, ok := b.(map[string]any); ok && strictAdmitsNull(bm) {
			return true
		}
		if b == true {
			return true
		}
	}
	return false
}

// strictTuple rewrites a tuple (2020-12 "prefixItems", or draft-07's
// "items" list with "additionalItems") as the one "items" schema strict
// mode takes: any of the positions' schemas, and the rest's when it has
// one. It returns what is lost, or "" when s is no tuple.
func strictTuple(n map[string]any) string {
	var positions []any
	var rest any
	switch {
	case n["prefixItems"] != nil:
		positions, _ = n["prefixItems"].([]any)
		rest = n["items"]
		delete(n, "prefixItems")
	case isList(n["items"]):
		positions = n["items"].([]any)
		rest = n["additionalItems"]
		delete(n, "additionalItems")
	default:
		return ""
	}
	var branches []any
	seen := schema.NewSet()
	for _, b := range append(slices.Clone(positions), rest) {
		if _, ok := b.(map[string]any); ok && seen.Add(b) {
			branches = append(branches, b)
		}
	}
	if m, ok := schema.Number(n["maxItems"]); ok && m <= float64(len(positions)) {
		// No element can reach the rest: it does not matter.
		rest = false
	}
	if rest == nil || rest == true {
		delete(n, "items")
		return "strict mode has no tuples; the positions' schemas no longer apply and elements may be any value"
	}
	if len(branches) == 1 {
		n["items"] = branches[0]
	} else {
		n["items"] = map[string]any{"anyOf": branches}
	}
	if rest == false {
		// No element past the positions: the length bound says as much.
		if m, ok := schema.Number(n["maxItems"]); !ok || m > float64(len(positions)) {
			n["maxItems"] = len(positions)
		}
		return "strict mode has no tuples; each element may now match any position's schema"
	}
	return "strict mode has no tuples; each element may now match any position's schema, and the tuple's length is no longer bounded"
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// StrictValueAllowed reports whether strict mode takes value v of keyword
// k ("format", "pattern", "type") on schema s (consumer.Profile's
// ValueAllowed).
func StrictValueAllowed(s map[string]any, k string, v any) bool {
	_, ok := strictProfile.ValueAllowed(k, schema.Types(s), v)
	return ok
}
