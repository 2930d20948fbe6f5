package convert

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// zodEmitter writes the Zod source of one tool's input schema.
type zodEmitter struct {
	*zodModule
	tool     Tool
	ident    string
	root     map[string]any
	base     string
	dialect  string
	resolver *schema.Resolver
	// defs are the referenced subschemas, by target pointer, in the order
	// they were first referenced.
	defs   []zodDef
	defAt  map[string]string
	warns  []Warning
	warned map[string]bool
	// known is the one type the value being described is known to have,
	// because the schema applying the current one in place declares it
	// (allOf, anyOf, oneOf, not, if/then/else under "type": "object"): an
	// untyped subschema there needs no branches for other types.
	known string
	// inPlace holds the targets of the references being expanded for the
	// current value: meeting one again is a cycle that never moves to a
	// child value, which no validator can follow to an end.
	inPlace map[string]bool
	// defNamed finds a definition by name, and strictDef keeps whether a
	// written one may contain a strict object (see hasStrict).
	defNamed  map[string]int
	strictDef map[int]bool
}

// zodDef is a referenced schema: name is the lazy reference, impl the
// constant that holds the schema ("" for the root, whose schema is the
// tool's own).
type zodDef struct{ name, impl, code string }

func newZodEmitter(m *zodModule, t Tool, ident string) *zodEmitter {
	return newZodEmitterFor(m, t, ident, t.InputSchema, "/inputSchema")
}

// newZodEmitterFor writes the schema root of tool t, found at base in the
// tool ("/inputSchema" or "/outputSchema").
func newZodEmitterFor(m *zodModule, t Tool, ident string, root map[string]any, base string) *zodEmitter {
	e := &zodEmitter{zodModule: m, tool: t, ident: ident, root: root, base: base,
		defAt: map[string]string{}, warned: map[string]bool{}, inPlace: map[string]bool{"": true}}
	e.dialect, _ = schema.Dialect(e.root)
	if e.root != nil {
		e.resolver = schema.NewResolver(e.root)
	}
	return e
}

func (e *zodEmitter) warn(ptr, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := ptr + "\x00" + msg
	if e.warned[key] {
		return
	}
	e.warned[key] = true
	e.warns = append(e.warns, Warning{Tool: e.tool.Name, Index: e.tool.Index,
		Pointer: e.base + ptr, Message: msg})
}

func (e *zodEmitter) v4() bool { return e.major >= 4 }

// expr is the Zod expression of the schema v at ptr.
func (e *zodEmitter) expr(v any, ptr string) string { return e.exprAs(v, ptr, "") }

// child is expr for a value inside the current one (a property, an item),
// where references start over.
func (e *zodEmitter) child(v any, ptr string) string {
	saved := e.inPlace
	e.inPlace = map[string]bool{}
	defer func() { e.inPlace = saved }()
	return e.expr(v, ptr)
}

// exprAs is expr for a value known to be of type known ("" if unknown).
func (e *zodEmitter) exprAs(v any, ptr, known string) string {
	saved := e.known
	e.known = known
	defer func() { e.known = saved }()
	switch s := v.(type) {
	case bool:
		if s {
			return "z.any()"
		}
		return "z.never()"
	case map[string]any:
		return e.combine(s, ptr, "")
	}
	e.warn(ptr, "a schema must be an object or a boolean, not %s: any value is accepted", schema.Kind(v))
	return "z.any()"
}

// combine is the expression of schema s: the conjunction of its type
// part (typePart when given, as for the root object), its value, reference
// and composition keywords, then its refinements and annotations.
func (e *zodEmitter) combine(s map[string]any, ptr, typePart string) string {
	var parts []string
	if ref, ok := s["$ref"].(string); ok {
		parts = append(parts, e.ref(ref, ptr))
		if schema.RefSiblingsIgnored(e.dialect) {
			for k := range s {
				if k != "$ref" && zodAnnotations[k] == false {
					e.warn(ptr, "keywords beside $ref are ignored in %s, as the draft says; some validators (Ajv) apply them", e.dialect)
					break
				}
			}
			return parts[0]
		}
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if _, ok := s[k]; ok {
			e.warn(ptr+"/"+k, "%s is not supported: any value is accepted in its place", k)
		}
	}
	if typePart == "" {
		typePart = e.typePart(s, ptr)
	}
	values, hasValues := e.values(s, ptr)
	if hasValues {
		// The enumerated values already have their type; only constraints
		// beyond "type" need the type part too.
		if typePart != "" && !zodOnlyType(s) {
			parts = append(parts, typePart)
		}
		parts = append(parts, values)
	} else if typePart != "" {
		parts = append(parts, typePart)
	}
	here := e.here(s)
	if all, ok := s["allOf"].([]any); ok {
		for i, sub := range all {
			parts = append(parts, e.exprAs(sub, fmt.Sprintf("%s/allOf/%d", ptr, i), here))
		}
	}
	if any, ok := s["anyOf"].([]any); ok {
		parts = append(parts, e.union(any, ptr+"/anyOf", here))
	}
	if one, ok := s["oneOf"].([]any); ok {
		parts = append(parts, e.oneOf(one, ptr+"/oneOf", here))
	}
	code := e.intersect(parts)
	code += e.refinements(s, ptr)
	if d, ok := s["description"].(string); ok {
		code += ".describe(" + zodJSON(d) + ")"
	}
	return code
}

// here is the one type a value s accepts is known to have: the one s
// declares, or the one known from where s applies.
func (e *zodEmitter) here(s map[string]any) string {
	if ts := schema.Types(s); len(ts) == 1 && s["nullable"] != true {
		return ts[0]
	}
	if len(schema.Types(s)) == 0 {
		return e.known
	}
	return ""
}

// zodAnnotations are the keywords that do not change what a schema
// accepts.
var zodAnnotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"$defs": true, "definitions": true, "$anchor": true,
}

// zodOnlyType reports whether s constrains its type with nothing but
// "type" (and nullable), so enumerated values make the type part redundant.
func zodOnlyType(s map[string]any) bool {
	for k := range s {
		if zodTypeKeywords[k] != "" {
			return false
		}
	}
	return true
}

func (e *zodEmitter) intersect(parts []string) string {
	var kept []string
	for _, p := range parts {
		if p != "z.any()" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return "z.any()"
	}
	// Written into one builder: adding to the code so far for each part
	// copied it each time, in time the square of the parts.
	var b strings.Builder
	if e.v4() && e.hasStrict(kept) {
		// Zod 4's intersection reports an unknown key only when every side
		// rejects it, so a strict member would let the other members'
		// properties through; each member checks the whole value instead.
		b.WriteString(kept[0])
		for _, p := range kept[1:] {
			b.WriteString(".refine(" + e.use("matches") + "(" + p + "), { message: \"must match every schema in allOf\" })")
		}
		return b.String()
	}
	// z.intersection(z.intersection(a, b), c), ...
	b.WriteString(strings.Repeat("z.intersection(", len(kept)-1))
	b.WriteString(kept[0])
	for _, p := range kept[1:] {
		b.WriteString(", " + p + ")")
	}
	return b.String()
}

// hasStrict reports whether a part may contain a strict object, looking
// into the definitions it references; one still being written counts.
func (e *zodEmitter) hasStrict(parts []string) bool {
	if e.defNamed == nil {
		e.defNamed, e.strictDef = map[string]int{}, map[int]bool{}
	}
	for i := len(e.defNamed); i < len(e.defs); i++ {
		e.defNamed[e.defs[i].name] = i
	}
	// The definitions a code names are found from its identifiers, each
	// looked up once: looking for every definition's name in every part
	// took time in the square of the definitions. What a written
	// definition holds is kept; a verdict found through a definition still
	// being explored (a recursive one) is not, since that definition's
	// own may yet change it.
	exploring := map[int]bool{}
	var strict func(code string) (found, sure bool)
	strict = func(code string) (bool, bool) {
		if strings.Contains(code, "z.strictObject(") || strings.Contains(code, ".strict()") {
			return true, true
		}
		sure := true
		for _, id := range jsIdentifiers(code) {
			i, ok := e.defNamed[id]
			if !ok {
				continue
			}
			d := e.defs[i]
			if d.code == "" {
				return true, true
			}
			if v, ok := e.strictDef[i]; ok {
				if v {
					return true, true
				}
				continue
			}
			if exploring[i] {
				sure = false
				continue
			}
			exploring[i] = true
			found, dsure := strict(d.code)
			delete(exploring, i)
			if found || dsure {
				e.strictDef[i] = found
			}
			if found {
				return true, true
			}
			sure = sure && dsure
		}
		return false, sure
	}
	for _, p := range parts {
		if found, _ := strict(p); found {
			return true
		}
	}
	return false
}

// jsIdentifiers lists the words of code that can be JavaScript
// identifiers, string contents included.
func jsIdentifiers(code string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(code); i++ {
		ident := i < len(code) && (code[i] == '_' || code[i] == '$' || code[i] >= 'a' && code[i] <= 'z' || code[i] >= 'A' && code[i] <= 'Z' || code[i] >= '0' && code[i] <= '9' || code[i] >= 0x80)
		switch {
		case ident && start < 0:
			start = i
		case !ident && start >= 0:
			out = append(out, code[start:i])
			start = -1
		}
	}
	return out
}

// members writes each member of an anyOf or oneOf list.
func (e *zodEmitter) members(list []any, ptr, known string) []string {
	var opts []string
	for i, sub := range list {
		opts = append(opts, e.exprAs(sub, fmt.Sprintf("%s/%d", ptr, i), known))
	}
	return opts
}

func (e *zodEmitter) union(list []any, ptr, known string) string {
	return unionCode(e.members(list, ptr, known))
}

// unionCode is the union of the expressions opts: what accepts nothing
// when there are none, the one itself when there is one.
func unionCode(opts []string) string {
	switch len(opts) {
	case 0:
		return "z.never()"
	case 1:
		return opts[0]
	}
	return "z.union([" + strings.Join(opts, ", ") + "])"
}

// oneOf says "exactly one": z.xor in Zod 4; in Zod 3 a union refined to
// count the members that accept the value.
func (e *zodEmitter) oneOf(list []any, ptr, known string) string {
	opts := e.members(list, ptr, known)
	if len(opts) < 2 {
		return unionCode(opts)
	}
	if e.v4() {
		return "z.xor([" + strings.Join(opts, ", ") + "])"
	}
	return "z.union([" + strings.Join(opts, ", ") + "]).refine(" + e.use("exactlyOne") + "([" + strings.Join(opts, ", ") +
		"]), { message: \"must match exactly one schema in oneOf\" })"
}

// ref is the constant a local reference names; the referenced schema is
// emitted once per tool, lazily, so references may be recursive.
func (e *zodEmitter) ref(ref, ptr string) string {
	r := e.resolver.Resolve(ptr, ref)
	if !r.Found {
		e.warn(ptr+"/$ref", "reference %q cannot be resolved inside the schema: any value is accepted in its place", ref)
		return "z.any()"
	}
	if e.inPlace[r.Pointer] {
		e.warn(ptr+"/$ref", "reference %q leads back to itself without moving to a child value, so no validator can finish checking it: any value is accepted in its place", ref)
		return "z.any()"
	}
	if name, ok := e.defAt[r.Pointer]; ok {
		return name
	}
	base := "Root"
	if r.Pointer != "" {
		_, base = pointer.Parent(r.Pointer)
	}
	name := e.unique(e.ident + "Def" + zodPascal(base))
	e.defAt[r.Pointer] = name
	idx := len(e.defs)
	e.defs = append(e.defs, zodDef{name: name})
	code := e.ident + "Schema"
	if r.Pointer != "" {
		e.defs[idx].impl = e.unique(name + "Impl")
		e.inPlace[r.Pointer] = true
		code = e.expr(r.Target, r.Pointer)
		delete(e.inPlace, r.Pointer)
	}
	e.defs[idx].code = code
	return name
}
