package convert

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// object is the expression of an object schema: a strict object for
// "additionalProperties": false, a catchall for a schema, and otherwise a
// loose object (Zod 3 passthrough), because JSON Schema accepts unknown
// properties. Zod's default strip mode would accept them too, but would
// drop them from the parsed value.
func (e *zodEmitter) object(s map[string]any, ptr string) string {
	mode, catchall := e.mode(s, ptr)
	return e.objectWith(e.shape(s, ptr), mode, catchall) + e.objectRefinements(s, ptr)
}

// objectMode is the method that gives the root object its mode, for
// z.object(<ident>Shape), followed by the object's refinements.
func (e *zodEmitter) objectMode(s map[string]any, ptr string) string {
	mode, catchall := e.mode(s, ptr)
	var code string
	switch {
	case mode == "strict":
		code = ".strict()"
	case mode == "catchall":
		code = ".catchall(" + catchall + ")"
	case e.v4():
		code = ".loose()"
	default:
		code = ".passthrough()"
	}
	return code + e.objectRefinements(s, ptr)
}

func (e *zodEmitter) mode(s map[string]any, ptr string) (mode, catchall string) {
	if _, ok := s["patternProperties"].(map[string]any); ok {
		// Extra properties are checked by objectRefinements, where the
		// patterns can exempt them.
		return "loose", ""
	}
	ap, ok := s["additionalProperties"]
	switch {
	case !ok || ap == true:
		return "loose", ""
	case ap == false:
		return "strict", ""
	}
	return "catchall", e.child(ap, ptr+"/additionalProperties")
}

// shape is the raw shape literal of s's properties. A property outside
// "required" is optional, or takes its default; a required one whose
// schema would accept a missing value (z.any()) is made to refuse it.
func (e *zodEmitter) shape(s map[string]any, ptr string) string {
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	var requiredOnly []string // required, not in properties, in the order "required" lists them
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok && !required[name] {
				required[name] = true
				if _, ok := props[name]; !ok {
					requiredOnly = append(requiredOnly, name)
				}
			}
		}
	}
	var lines []string
	for _, k := range sortNames(props, e.tool.Order) {
		cptr := ptr + "/properties/" + pointer.Escape(k)
		code := e.child(props[k], cptr)
		sub, _ := props[k].(map[string]any)
		def, hasDef := sub["default"]
		switch {
		case required[k]:
			code = e.present(code)
			if hasDef {
				e.warn(cptr+"/default", "the default of a required property is not carried: Zod's .default() would make the property optional")
			}
		case hasDef && e.defaultFits(sub, def):
			code += ".default(" + zodJSON(def) + ")"
		case hasDef:
			e.warn(cptr+"/default", "the default %s does not match the property's type: it is not carried", zodJSON(def))
			code += ".optional()"
		default:
			code += ".optional()"
		}
		if zodInherited[k] && (k != "__proto__" || !e.v4()) && !required[k] {
			e.warn(cptr, "Zod reads an absent %s property from Object.prototype, so it rejects objects without it", k)
		}
		lines = append(lines, zodKey(k)+": "+code+",")
	}
	for _, k := range requiredOnly {
		lines = append(lines, zodKey(k)+": "+e.present("z.any()")+",")
	}
	if len(lines) == 0 {
		return "{}"
	}
	return "{\n  " + strings.ReplaceAll(strings.Join(lines, "\n"), "\n", "\n  ") + "\n}"
}

// zodInherited are the names every object inherits from Object.prototype:
// Zod looks a shape's keys up with obj[key], so for these it finds the
// inherited member when the property is absent.
var zodInherited = map[string]bool{
	"__proto__": true, "constructor": true, "toString": true, "toLocaleString": true, "valueOf": true,
	"hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true,
	"__defineGetter__": true, "__defineSetter__": true, "__lookupGetter__": true, "__lookupSetter__": true,
}

// present makes a schema that accepts undefined refuse it, so that a
// required property cannot be missing.
func (e *zodEmitter) present(code string) string {
	// Whether a schema accepts undefined is not visible in its source
	// when z.any() sits in a union or behind a reference; the guard costs
	// nothing where it is not needed.
	if !strings.Contains(code, "z.any()") && !strings.Contains(code, e.ident+"Def") {
		return code
	}
	if e.v4() {
		return code + ".nonoptional()"
	}
	return code + ".refine(" + e.use("defined") + ", { message: \"Required\" })"
}

// defaultFits reports whether a default can be given to Zod's .default(),
// whose argument TypeScript checks against the schema's type: its JSON
// type must be one the schema allows, and one of its values if it lists
// them.
func (e *zodEmitter) defaultFits(s map[string]any, def any) bool {
	if def == nil && !zodTypeSet(s)["null"] {
		return false
	}
	if set := zodTypeSet(s); set != nil {
		k := zodKind(def)
		if !set[k] && !(k == "integer" && set["number"]) {
			return false
		}
	}
	if en, ok := s["enum"].([]any); ok {
		found := false
		for _, v := range en {
			found = found || schema.Equal(v, def)
		}
		if !found {
			return false
		}
	}
	if c, ok := s["const"]; ok && !schema.Equal(c, def) {
		return false
	}
	return true
}

// objectRefinements checks what Zod objects cannot declare: counts of
// properties, names, dependencies and pattern properties, as refinements
// that give the same verdict as JSON Schema.
func (e *zodEmitter) objectRefinements(s map[string]any, ptr string) string {
	var code string
	if n, ok := zodCount(s, "minProperties"); ok {
		code += fmt.Sprintf(".refine(%s(%d, %d), { message: \"must have at least %d properties\" })", e.use("propertyCount"), n, zodMaxCount, n)
	}
	if n, ok := zodCount(s, "maxProperties"); ok {
		code += fmt.Sprintf(".refine(%s(0, %d), { message: \"must have at most %d properties\" })", e.use("propertyCount"), n, n)
	}
	if pn, ok := s["propertyNames"]; ok {
		c := e.child(pn, ptr+"/propertyNames")
		code += ".refine(" + e.use("propertyNames") + "(" + c + "), { message: \"a property name does not match propertyNames\" })"
	}
	deps := map[string]any{}
	for _, k := range []string{"dependencies", "dependentRequired", "dependentSchemas"} {
		if m, ok := s[k].(map[string]any); ok {
			for name, d := range m {
				deps[name+"\x00"+k] = d
			}
		}
	}
	// One builder for every dependency: adding each to the code so far
	// copied it each time.
	var b strings.Builder
	b.WriteString(code)
	for _, key := range slices.Sorted(maps.Keys(deps)) {
		name, kw, _ := strings.Cut(key, "\x00")
		dptr := ptr + "/" + kw + "/" + pointer.Escape(name)
		if list, ok := deps[key].([]any); ok {
			b.WriteString(".refine(" + e.use("dependentRequired") + "(" + zodJSON(name) + ", " + zodJSON(list) +
				"), { message: " + zodJSON("properties required by "+name+" are missing") + " })")
			continue
		}
		c := e.exprAs(deps[key], dptr, "object")
		b.WriteString(".refine(" + e.use("dependentSchema") + "(" + zodJSON(name) + ", " + c + "), { message: " + zodJSON("the schema depending on "+name+" does not match") + " })")
	}
	code = b.String()
	if pp, ok := s["patternProperties"].(map[string]any); ok {
		code += e.patternProperties(s, pp, ptr)
	}
	for _, k := range []string{"unevaluatedProperties"} {
		if _, ok := s[k]; ok {
			e.warn(ptr, "%s is not supported: it is not checked, so more objects are accepted", k)
		}
	}
	return code
}

// patternProperties checks every property whose name matches a pattern
// against that pattern's schema, and the properties that neither
// "properties" nor a pattern covers against additionalProperties.
func (e *zodEmitter) patternProperties(s, pp map[string]any, ptr string) string {
	var pairs []string
	for _, p := range sortNames(pp, e.tool.Order) {
		pptr := ptr + "/patternProperties/" + pointer.Escape(p)
		re := e.regex(p, pptr, "no property name matches it, so its schema checks nothing")
		pairs = append(pairs, "["+re+", "+e.child(pp[p], pptr)+"]")
	}
	additional := "null"
	if ap, ok := s["additionalProperties"]; ok && ap != true {
		additional = e.child(ap, ptr+"/additionalProperties")
	}
	props, _ := s["properties"].(map[string]any)
	named := sortNames(props, e.tool.Order)
	if named == nil {
		named = []string{}
	}
	return ".refine(" + e.use("patternProperties") + "([" + strings.Join(pairs, ", ") + "], " + zodJSON(named) + ", " + additional +
		"), { message: \"a property does not match patternProperties or additionalProperties\" })"
}

// array is the expression of an array schema: z.array for a uniform list,
// tuples for positional items.
func (e *zodEmitter) array(s map[string]any, ptr string) string {
	var code string
	prefix, rest, restPtr, tuple := e.tupleParts(s, ptr)
	if tuple {
		code = e.tuple(s, ptr, prefix, rest, restPtr)
	} else {
		item := "z.any()"
		if it, ok := s["items"]; ok {
			item = e.child(it, ptr+"/items")
		}
		code = "z.array(" + item + ")"
		if n, ok := zodCount(s, "minItems"); ok {
			code += fmt.Sprintf(".min(%d)", n)
		}
		if n, ok := zodCount(s, "maxItems"); ok {
			code += fmt.Sprintf(".max(%d)", n)
		}
	}
	if s["uniqueItems"] == true {
		code += ".refine(" + e.use("uniqueItems") + ", { message: \"items must be unique\" })"
	}
	if c, ok := s["contains"]; ok {
		cc := e.child(c, ptr+"/contains")
		lo, hi := int64(1), int64(1<<53-1)
		if e.dialect == schema.Draft2019 || e.dialect == schema.Draft2020 {
			if n, ok := zodCount(s, "minContains"); ok {
				lo = n
			}
			if n, ok := zodCount(s, "maxContains"); ok {
				hi = n
			}
		}
		code += fmt.Sprintf(".refine(%s(%s, %d, %d), { message: \"contains is not satisfied\" })", e.use("contains"), cc, lo, hi)
	}
	if _, ok := s["unevaluatedItems"]; ok {
		e.warn(ptr, "unevaluatedItems is not supported: it is not checked")
	}
	return code
}

// tupleParts finds positional items: prefixItems and items in 2020-12,
// an items array and additionalItems before it. rest is nil when any
// further item is allowed.
func (e *zodEmitter) tupleParts(s map[string]any, ptr string) (prefix []any, rest any, restPtr string, ok bool) {
	if e.dialect == schema.Draft2020 {
		if list, ok := s["items"].([]any); ok {
			e.warn(ptr+"/items", "an items array is draft-07 syntax, not 2020-12 (use prefixItems): it is read as positional items")
			return list, s["additionalItems"], ptr + "/additionalItems", true
		}
		list, ok := s["prefixItems"].([]any)
		if !ok {
			return nil, nil, "", false
		}
		return list, s["items"], ptr + "/items", true
	}
	list, ok := s["items"].([]any)
	if !ok {
		return nil, nil, "", false
	}
	return list, s["additionalItems"], ptr + "/additionalItems", true
}

// zodMaxTupleItems bounds the positions the tuples of a tuple's shorter
// lengths write together (see tuple).
const zodMaxTupleItems = 1 << 16

// tuple is exact for every length: JSON Schema's positional items do not
// require the items to be present, while a Zod tuple requires them all,
// so each allowed shorter length is a tuple of its own in a union.
func (e *zodEmitter) tuple(s map[string]any, ptr string, prefix []any, rest any, restPtr string) string {
	var items []string
	for i, p := range prefix {
		items = append(items, e.child(p, fmt.Sprintf("%s/%s/%d", ptr, e.prefixKeyword(s), i)))
	}
	lo, _ := zodCount(s, "minItems")
	hi, hasHi := zodCount(s, "maxItems")
	n := int64(len(items))
	var opts []string
	// A tuple of each shorter length writes the positions again for each:
	// past zodMaxTupleItems in all (100,000 positions, none required, are
	// five billion), the shorter arrays are written as one array of their
	// lengths, whose items are no longer checked.
	shortest, longest := lo, n-1
	if hasHi {
		longest = min(longest, hi)
	}
	if count := longest - shortest + 1; count > 0 && count*(shortest+longest)/2 > zodMaxTupleItems {
		e.warn(ptr, "the array's %d positions may stop after any of the first %d, and a tuple of each of those lengths is too large to write: an array shorter than %d items is accepted with its items unchecked", n, count, longest+1)
		opts = append(opts, fmt.Sprintf("z.array(z.any()).min(%d).max(%d)", shortest, longest))
		shortest = longest + 1
	}
	for k := shortest; k < n && (!hasHi || k <= hi); k++ {
		opts = append(opts, "z.tuple(["+strings.Join(items[:k], ", ")+"])")
	}
	if !hasHi || hi >= n {
		restCode := ""
		if rest != nil && rest != true {
			restCode = e.child(rest, restPtr)
		} else {
			restCode = "z.any()"
		}
		full := "z.tuple([" + strings.Join(items, ", ") + "])"
		if restCode != "z.never()" {
			if e.v4() {
				full = "z.tuple([" + strings.Join(items, ", ") + "], " + restCode + ")"
			} else {
				full += ".rest(" + restCode + ")"
			}
			if lo > n || hasHi {
				max := int64(zodMaxCount)
				if hasHi {
					max = hi
				}
				full += fmt.Sprintf(".refine(%s(%d, %d), { message: \"wrong number of items\" })", e.use("itemCount"), lo, max)
			}
		}
		if lo <= n || restCode != "z.never()" {
			opts = append(opts, full)
		}
	}
	return unionCode(opts)
}

func (e *zodEmitter) prefixKeyword(s map[string]any) string {
	if _, ok := s["prefixItems"]; ok && e.dialect == schema.Draft2020 {
		return "prefixItems"
	}
	return "items"
}
