package normalize

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// DefaultGeminiDepth is how many times one path through a schema may expand
// the same "$ref" before Gemini (GeminiOptions.MaxDepth 0) cuts it: a
// recursive type is described three levels deep, and below the cut any
// value is accepted.
const DefaultGeminiDepth = 3

// GeminiOptions tune Gemini.
type GeminiOptions struct {
	// MaxDepth is how many times one path may expand the same "$ref"
	// (a recursive schema) before the expansion is cut; 0 means
	// DefaultGeminiDepth.
	MaxDepth int
	// Budget bounds what the expansions build (see Budget); nil means a
	// budget of DefaultRefExpansion for this call alone. Shared types that
	// each use the next one twice double at every level, and a schema of
	// a few kilobytes could otherwise inline into gigabytes.
	Budget *Budget
}

// geminiKeywords are the fields of Gemini's Schema object, the OpenAPI 3.0
// subset that a function declaration's "parameters" takes: the same 22 in
// the Gemini API reference (https://ai.google.dev/api/caching#Schema) and
// in @google/genai's types.Schema
// (https://googleapis.github.io/js-genai/). Any other member is refused
// ("Invalid JSON payload received. Unknown name ...: Cannot find field.").
var geminiKeywords = map[string]bool{
	"anyOf": true, "default": true, "description": true, "enum": true, "example": true,
	"format": true, "items": true, "maxItems": true, "maxLength": true, "maxProperties": true,
	"maximum": true, "minItems": true, "minLength": true, "minProperties": true, "minimum": true,
	"nullable": true, "pattern": true, "properties": true, "propertyOrdering": true,
	"required": true, "title": true, "type": true,
}

// GeminiSupports reports whether keyword is a field of Gemini's Schema
// object (as a keyword of a schema, not as a property name).
func GeminiSupports(keyword string) bool { return geminiKeywords[keyword] }

// geminiMetadata are dropped without a Loss: they identify the schema or
// comment on it for its authors, and once references are inlined nothing
// reads them.
var geminiMetadata = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "$anchor": true, "$vocabulary": true,
	"$defs": true, "definitions": true,
}

// GeminiFormats are the "format" values the Gemini API has documented for
// each type: "for NUMBER type: float, double; for INTEGER type: int32,
// int64; for STRING type: enum, date-time" (the v1beta Schema reference, as
// google.ai.generativelanguage.Schema still shows it,
// https://ai.google.dev/api/python/google/ai/generativelanguage/Schema), and
// Firebase AI Logic's SchemaShared.format: with the Gemini Developer API it
// "must be either 'enum' or 'date-time', otherwise requests will fail". The
// current reference (https://ai.google.dev/api/caching#Schema) says "Any
// value is allowed", so other values may pass on some endpoints; keeping to
// these passes on all.
var GeminiFormats = map[string][]string{
	"string":  {"enum", "date-time"},
	"number":  {"float", "double"},
	"integer": {"int32", "int64"},
}

// GeminiFormatSupported reports whether format is documented for a schema
// of the given type ("" when the schema names none: any documented value).
func GeminiFormatSupported(typ, format string) bool {
	if typ == "" {
		for _, fs := range GeminiFormats {
			if slices.Contains(fs, format) {
				return true
			}
		}
		return false
	}
	return slices.Contains(GeminiFormats[typ], format)
}

// Gemini rewrites a JSON Schema into the subset a Gemini function
// declaration's "parameters" accepts (the Schema object, an OpenAPI 3.0
// subset). It never modifies s. What the subset cannot say is returned as
// Losses, with pointers into s:
//
//   - "$ref" is inlined (its target converted in its place; "$defs" and
//     "definitions" then go). A reference to a schema already being
//     expanded on the same path more than MaxDepth times is cut: the cut
//     node keeps only its description and accepts any value (a Loss names
//     the reference). A reference outside the document is cut the same way.
//   - "$schema", "$id", "$comment", "$anchor" and "$vocabulary" go without a
//     Loss: they constrain nothing once references are inlined.
//   - "type": ["T", "null"] becomes "type": "T" with "nullable": true;
//     several non-null types become an anyOf of one schema per type, each
//     with the keywords of its type (exact).
//   - "const" becomes an enum of one value; "enum" keeps only string values
//     (Gemini: "enum: only allowed for STRING type"). A string enum gets
//     "type": "string". Integers form a range: a contiguous set becomes
//     minimum/maximum (exact), another set the range around it with the
//     values listed in the description (a Loss). The values stay numbers:
//     turning them into strings would make the model send "1" where the
//     server expects 1. Both booleans become "type": "boolean" (exact);
//     one boolean, numbers and objects go to the description (a Loss).
//   - "oneOf" becomes "anyOf"; a Loss unless the branches are disjoint (each
//     names another type, or each requires a property with other values).
//     An anyOf branch that only admits null becomes "nullable": true.
//   - "allOf" is merged into its schema; a keyword two branches set to
//     values that cannot be combined keeps the first (a Loss).
//   - "exclusiveMinimum"/"exclusiveMaximum" become minimum/maximum: exact
//     for integers (x > 3 is x >= 4), a Loss otherwise (the bound is now
//     accepted).
//   - "format" stays where GeminiFormats lists it for the type; others go
//     (a Loss). "examples" becomes "example" (its first value).
//   - A property or an array's items without "type" (nor anyOf or enum to
//     say what it holds) gets "type": "object" when it has
//     "properties" or "required", and "type": "array" when it has "items",
//     as Gemini demands ("properties: only allowed for OBJECT type",
//     anomalyco/opencode#11889 and #13150): a Loss, since it took other
//     values before.
//   - Every other keyword goes (a Loss, unless it constrained nothing:
//     "additionalProperties": true, "uniqueItems": false, ...). That
//     includes non-JSON-Schema keys, which Gemini refuses as unknown fields.
//
// Three shapes stay as they are, because no rewrite keeps their meaning:
// an array without "items", an object below the root without properties
// (a free-form map once "additionalProperties" is gone) and a schema
// without a type. Gemini refuses all three (see GeminiShapeless);
// GeminiDropShapeless leaves out the optional properties that hold them.
// At the root, a tool without parameters is declared without
// "parameters"; that is the caller's choice.
func Gemini(s any, o GeminiOptions) (any, []Loss) {
	g := newGeminiRun(s, o, true)
	return g.node(s, ""), g.losses
}

// GeminiInlineRefs inlines every local "$ref" of s the way Gemini does and
// drops "$defs" and "definitions", without touching anything else: the fix
// of a rule that only concerns references. A reference it cannot resolve is
// left in place.
func GeminiInlineRefs(s any, o GeminiOptions) (any, []Loss) {
	g := newGeminiRun(s, o, false)
	return g.node(s, ""), g.losses
}

// GeminiJSONSchema prepares a JSON Schema for a function declaration's
// "parametersJsonSchema", the newer field that takes JSON Schema itself
// ("$ref", "$defs", "anyOf", "oneOf", "additionalProperties",
// "propertyOrdering", ...; the FunctionDeclaration reference,
// https://ai.google.dev/api/caching#FunctionDeclaration, shows one). The
// root's "$schema" is stripped: the API refuses it (`Unknown name
// "$schema"`, router-for-me/CLIProxyAPI#97; GetStream/Vision-Agents#513 for
// this field). The reference also says the schema "must describe an object
// where the properties are the parameters": that is the MCP input schema's
// own rule (input-schema-root-object), so it is not repeated here. Nothing
// else is changed. A schema written for another dialect than 2020-12 loses
// its declaration, so a reader that assumes 2020-12 may read its tuple
// "items", boolean exclusive bounds or $recursiveRef differently: that is
// a Loss (the field's documentation names no dialect).
func GeminiJSONSchema(s any) (any, []Loss) {
	c := schema.Clone(s)
	m, ok := c.(map[string]any)
	if !ok {
		return c, nil
	}
	var losses []Loss
	if _, has := m["$schema"]; has {
		if d, declared := schema.Dialect(m); d != schema.Draft2020 {
			losses = append(losses, Loss{Keyword: "$schema", What: fmt.Sprintf("the schema declares %q, which Gemini refuses; without it a reader may take it for 2020-12, where draft-specific keywords mean something else", declared)})
		}
	}
	delete(m, "$schema")
	return c, losses
}

// geminiRun is one conversion: the document (for references), the
// expansions under way and the losses so far.
type geminiRun struct {
	root     any
	resolver *schema.Resolver
	ignored  bool // keywords beside $ref are ignored (draft-07 and older)
	max      int
	convert  bool             // false: inline references only
	active   map[string]int   // target pointer -> expansions on the current path
	budget   *Budget          // what expansions may build
	sizes    map[string]int64 // target pointer -> what expanding it costs
	losses   []Loss
	seen     map[Loss]bool
}

func newGeminiRun(s any, o GeminiOptions, convert bool) *geminiRun {
	max := o.MaxDepth
	if max <= 0 {
		max = DefaultGeminiDepth
	}
	budget := o.Budget
	if budget == nil {
		budget = NewBudget(0)
	}
	d, _ := schema.Dialect(s)
	return &geminiRun{
		root: s, resolver: schema.NewResolver(s), ignored: schema.RefSiblingsIgnored(d),
		max: max, convert: convert, active: map[string]int{}, seen: map[Loss]bool{},
		budget: budget, sizes: map[string]int64{},
	}
}

func (g *geminiRun) lose(ptr, keyword, format string, args ...any) {
	l := Loss{Pointer: ptr, Keyword: keyword, What: fmt.Sprintf(format, args...)}
	if !g.seen[l] {
		g.seen[l] = true
		g.losses = append(g.losses, l)
	}
}

func (g *geminiRun) add(ls []Loss) {
	for _, l := range ls {
		if !g.seen[l] {
			g.seen[l] = true
			g.losses = append(g.losses, l)
		}
	}
}

// node converts the subschema v found at ptr.
func (g *geminiRun) node(v any, ptr string) any {
	switch x := v.(type) {
	case bool:
		if !g.convert {
			return x
		}
		if !x {
			g.lose(ptr, "", "the schema false accepts no value; Gemini cannot say so and accepts any")
		}
		return map[string]any{}
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			if out, done := g.expand(x, ref, ptr); done {
				return out
			}
		}
		if !g.convert {
			return g.inlineChildren(x, ptr)
		}
		return g.convertNode(x, ptr)
	}
	return schema.Clone(v)
}

// inlineChildren copies m with every subschema passed through node, and
// without its definitions once nothing needs them.
func (g *geminiRun) inlineChildren(m map[string]any, ptr string) map[string]any {
	// Every subschema but the definitions is replaced below: only the
	// shell is copied here.
	out := schema.CloneShell(m)
	schema.Children(m, ptr, func(c any, cptr string) {
		toks := pointer.Split(strings.TrimPrefix(cptr, ptr))
		if toks[0] == "$defs" || toks[0] == "definitions" {
			return
		}
		setChild(out, toks, g.node(c, cptr))
	})
	for _, k := range []string{"$defs", "definitions"} {
		if _, ok := out[k]; !ok {
			continue
		}
		if g.hasUnresolved(m, ptr) {
			out[k] = schema.Clone(m[k])
		} else {
			delete(out, k)
		}
	}
	return out
}

// hasUnresolved reports whether a reference left in place (unresolvable)
// sits below m, so that its definitions must stay.
func (g *geminiRun) hasUnresolved(m map[string]any, ptr string) bool {
	found := false
	schema.Walk(m, ptr, func(n *schema.Node) bool {
		if ref, ok := n.Value["$ref"].(string); ok && !g.resolver.Resolve(n.Pointer(), ref).Found {
			found = true
		}
		return !found
	})
	return found
}

// setChild stores v at the relative pointer toks (one or two tokens, as
// schema.Children produces them) inside out.
func setChild(out map[string]any, toks []string, v any) {
	if len(toks) == 1 {
		out[toks[0]] = v
		return
	}
	switch c := out[toks[0]].(type) {
	case map[string]any:
		c[toks[1]] = v
	case []any:
		if i, err := strconv.Atoi(toks[1]); err == nil && i < len(c) {
			c[i] = v
		}
	}
}

// expand replaces a "$ref" node by its converted target, merged with the
// keywords beside it. done is false when the reference is left in place
// (inlining only, and the target cannot be found).
func (g *geminiRun) expand(m map[string]any, ref, ptr string) (out any, done bool) {
	r := g.resolver.Resolve(ptr, ref)
	siblings := map[string]any{}
	for k, v := range m {
		if k != "$ref" && (!g.ignored || geminiAnnotation[k]) {
			siblings[k] = v
		}
	}
	var target any
	switch {
	case !r.Found && !g.convert:
		return nil, false
	case !r.Found:
		g.lose(ptr, "$ref", "reference %q leads outside the schema and is not followed; any value is accepted there", ref)
		target = map[string]any{}
	case g.active[r.Pointer] >= g.max:
		cut := map[string]any{}
		target = cut
		t, _ := r.Target.(map[string]any)
		if d, ok := t["description"]; ok && siblings["description"] == nil {
			cut["description"] = schema.Clone(d)
		}
		// Gemini wants a type on a property and an array's elements: the
		// cut keeps the target's, so that it is no schema Gemini refuses.
		if typ, ok := t["type"].(string); ok {
			cut["type"] = typ
			g.lose(ptr, "$ref", "recursive reference %q is cut after %d levels; below the cut any %s is accepted", ref, g.max, typ)
		} else {
			g.lose(ptr, "$ref", "recursive reference %q is cut after %d levels; below the cut any value is accepted", ref, g.max)
		}
	case !g.budget.spend(g.cost(r.Pointer, r.Target)):
		g.add([]Loss{budgetLoss(ptr, ref, g.budget)})
		target = map[string]any{}
	default:
		g.active[r.Pointer]++
		target = g.node(r.Target, r.Pointer)
		g.active[r.Pointer]--
	}
	if len(siblings) == 0 {
		return target, true
	}
	rest := g.node(siblings, ptr)
	tm, ok1 := target.(map[string]any)
	rm, ok2 := rest.(map[string]any)
	if !ok1 || !ok2 {
		return target, true
	}
	if !g.convert {
		// Inlining only: the keywords beside $ref and the target's become
		// one schema through allOf, which the allOf rule then merges.
		if len(tm) == 0 {
			return rm, true
		}
		out := map[string]any{"allOf": []any{tm}}
		// In keyword order: the branches' order is the output's.
		for _, k := range schema.SortedKeys(rm) {
			v := rm[k]
			if geminiAnnotation[k] {
				out[k] = v
			} else {
				out["allOf"] = append(out["allOf"].([]any), map[string]any{k: v})
			}
		}
		if len(out["allOf"].([]any)) == 1 {
			for k, v := range tm {
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			}
			delete(out, "allOf")
		}
		return out, true
	}
	merged := schema.Clone(rm).(map[string]any)
	g.add(mergeSchemas(merged, tm, ptr, "$ref"))
	return merged, true
}

// cost is what expanding the target at ptr takes from the budget.
func (g *geminiRun) cost(ptr string, target any) int64 {
	n, ok := g.sizes[ptr]
	if !ok {
		n = jsonSize(target) + expansionOverhead
		g.sizes[ptr] = n
	}
	return n
}

// convertNode converts a schema object without "$ref": its children first,
// then its own keywords.
func (g *geminiRun) convertNode(m map[string]any, ptr string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if !geminiChildKeyword(k, v) {
			out[k] = schema.Clone(v)
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		np := make(map[string]any, len(props))
		for _, name := range slices.Sorted(maps.Keys(props)) {
			np[name] = g.node(props[name], ptr+"/properties/"+pointer.Escape(name))
		}
		out["properties"] = np
	}
	if items, ok := m["items"]; ok {
		if _, isList := items.([]any); !isList {
			out["items"] = g.node(items, ptr+"/items")
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if l, ok := m[k].([]any); ok {
			nl := make([]any, len(l))
			for i, b := range l {
				nl[i] = g.node(b, ptr+"/"+k+"/"+strconv.Itoa(i))
			}
			out[k] = nl
		}
	}
	g.add(geminiLocal(out, ptr))
	if geminiTypedPlace(ptr) {
		g.add(geminiInferType(out, ptr))
	}
	return out
}

// geminiChildKeyword reports whether convertNode converts the value of k
// itself (so copying it first would be wasted).
func geminiChildKeyword(k string, v any) bool {
	switch k {
	case "properties":
		_, ok := v.(map[string]any)
		return ok
	case "items":
		_, isList := v.([]any)
		return !isList
	case "anyOf", "oneOf", "allOf":
		_, ok := v.([]any)
		return ok
	}
	return false
}

// geminiInferType types a schema that has only object or array keywords
// (see Gemini).
func geminiInferType(out map[string]any, ptr string) []Loss {
	for _, k := range []string{"type", "anyOf", "enum"} {
		if _, ok := out[k]; ok {
			return nil
		}
	}
	typ := ""
	switch {
	case out["properties"] != nil || out["required"] != nil:
		typ = "object"
	case out["items"] != nil:
		typ = "array"
	default:
		return nil
	}
	out["type"] = typ
	return []Loss{{Pointer: ptr, Keyword: "type", What: fmt.Sprintf("Gemini needs a type where %s keywords are: it became \"type\": %q, so other values are no longer accepted", typ, typ)}}
}
