package convert

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"github.com/mcpfit/mcplint/internal/jscode"
	"github.com/mcpfit/mcplint/schema"
)

// ZodOptions configures ToZod.
type ZodOptions struct {
	// Major is the Zod major version the source is written for: 3 or 4
	// (0 means 4; callers reject other values, which are read as 4).
	Major int
}

// ToZod writes a TypeScript module that declares, for every tool, the Zod
// form of its input schema: `<ident>Shape`, the raw shape that the MCP
// TypeScript SDK's server.tool(name, description, shape, handler) and
// registerTool(name, {inputSchema: shape}, handler) take, and
// `<ident>Schema`, the object schema built from it, which also carries what
// a shape cannot (the object's mode, refinements, root combinators). A tool
// with an output schema also gets `<ident>OutputShape` and
// `<ident>OutputSchema`, for registerTool's outputSchema.
// Referenced subschemas become `<ident>Def<Name>` constants declared with
// z.lazy and an explicit z.ZodType<any>, so recursive schemas type-check.
//
// The identifier of a tool is its name in lower camel case: the name is
// split at every character that is not an ASCII letter or digit, the first
// word keeps its case but starts lower case, the others start upper case
// ("get_weather" → getWeather, "files.read-all" → filesReadAll). A name
// that yields nothing or starts with a digit is prefixed with "tool", and
// an identifier already taken in the module (by an earlier tool, a helper
// or "z") gets the suffix 2, 3, ...
//
// The mapping is exact wherever Zod can say the same thing, with
// refinements where it has no combinator (not, if/then/else, oneOf in Zod
// 3, contains, uniqueItems, patternProperties, property counts and
// dependencies); the helpers they call are written into the module when
// used. What Zod cannot say exactly comes back as a Warning at its pointer,
// and the code says the closest looser thing: formats (Zod's own rules),
// fractional multipleOf, $dynamicRef, unevaluated*, unresolvable
// references, invalid patterns, defaults Zod cannot carry, integers beyond
// 2^53 in Zod 4, properties named after Object.prototype members, a root
// that is not an object. One difference is documented rather than warned
// about, because it concerns values tools rarely exchange: Zod counts
// string lengths in UTF-16 code units where JSON Schema counts code points
// (they differ only for characters outside the Basic Multilingual Plane).
// Annotations other than description and default (title, examples,
// deprecated, ...) are not carried.
//
// The module is inert whatever the tools hold: every string, key, number
// and comment is written by internal/jscode's encoders, and every pattern
// is parsed as an ECMAScript pattern (Unicode mode, as Ajv compiles
// patterns) and rebuilt as a literal from its parse tree. A pattern the
// parser refuses is never a literal: it is handed, as a string, to the
// pattern helper, which compiles it when the module loads (with the u
// flag, else without, else as a pattern that matches nothing), so the
// import cannot throw, and a warning says so. Properties are written in
// the order the source lists them (Tool.Order).
func ToZod(tools []Tool, o ZodOptions) ([]byte, []Warning) {
	major := 4
	if o.Major == 3 {
		major = 3
	}
	var warns []Warning
	m := &zodModule{major: major, used: map[string]bool{"z": true}}
	for n := range zodHelpers {
		m.used[n] = true
	}
	var body bytes.Buffer
	for _, t := range tools {
		ident := m.unique(zodIdent(t.Name))
		e := newZodEmitter(m, t, ident)
		fmt.Fprintf(&body, "\n// %s\n", zodComment(t.Name))
		e.emitTool(&body)
		warns = append(warns, e.warns...)
		if t.OutputSchema != nil {
			oe := newZodEmitterFor(m, t, m.unique(ident+"Output"), t.OutputSchema, "/outputSchema")
			oe.emitTool(&body)
			warns = append(warns, oe.warns...)
		}
	}
	var b bytes.Buffer
	b.WriteString("import { z } from \"zod\";\n")
	b.WriteString(m.helperSource())
	b.Write(body.Bytes())
	return b.Bytes(), warns
}

// zodModule is what the tools of one module share: the names taken and
// the helpers needed.
type zodModule struct {
	major   int
	used    map[string]bool
	helpers map[string]bool
}

func (m *zodModule) unique(base string) string {
	name := base
	taken := func(n string) bool {
		return m.used[n] || m.used[n+"Shape"] || m.used[n+"Schema"] ||
			m.used[n+"OutputShape"] || m.used[n+"OutputSchema"]
	}
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	m.used[name], m.used[name+"Shape"], m.used[name+"Schema"] = true, true, true
	return name
}

// zodIdent derives a tool's identifier from its name (see ToZod).
func zodIdent(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(strings.ToLower(w[:1]) + w[1:])
		} else {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	id := b.String()
	if id == "" || (id[0] >= '0' && id[0] <= '9') {
		id = "tool" + strings.ToUpper(id[:min(1, len(id))]) + id[min(1, len(id)):]
	}
	return id
}

// zodPascal is a definition name in upper camel case, for constant names.
func zodPascal(name string) string {
	id := zodIdent(name)
	return strings.ToUpper(id[:1]) + id[1:]
}

func (e *zodEmitter) emitTool(b *bytes.Buffer) {
	root, rootPtr := e.shapeSource()
	e.inPlace[rootPtr] = true
	var shape, mode string
	if root == nil {
		shape, mode = "{}", e.objectMode(nil, "")
	} else {
		if ts := schema.Types(root); len(ts) != 1 || ts[0] != "object" {
			e.warn(rootPtr, zodRootNotObject)
		}
		shape = e.shape(root, rootPtr)
		mode = e.objectMode(root, rootPtr)
	}
	objCode := "z.object(" + e.ident + "Shape)" + mode
	code := objCode
	if root != nil {
		typePart := objCode
		if ts := schema.Types(root); len(ts) > 0 && (len(ts) != 1 || ts[0] != "object") {
			// The declared types still decide for objects: a root of
			// another type accepts no object.
			typePart = "z.intersection(" + objCode + ", " + e.typePart(root, rootPtr) + ")"
		}
		code = e.combine(root, rootPtr, typePart)
	}
	// Each definition is a lazy reference to a schema built once: the
	// explicit type breaks the cycle TypeScript would otherwise infer, and
	// Zod 3 calls a lazy getter on every parse, so the getter must not
	// build the schema itself.
	for _, d := range e.defs {
		target := d.name + "Impl"
		if d.impl == "" {
			target = d.code
		}
		fmt.Fprintf(b, "const %s: z.ZodType<any> = z.lazy(() => %s);\n", d.name, target)
	}
	for _, d := range e.defs {
		if d.impl != "" {
			fmt.Fprintf(b, "const %s = %s;\n", d.impl, d.code)
		}
	}
	fmt.Fprintf(b, "export const %sShape = %s;\n", e.ident, shape)
	fmt.Fprintf(b, "export const %sSchema = %s;\n", e.ident, code)
}

// shapeSource is the schema the raw shape is made of: the root, or the
// object schema a root that is nothing but a $ref (and annotations) points
// to, as in {"$ref": "#/$defs/Args", "$defs": {...}}, so that the shape
// still lists the tool's parameters.
func (e *zodEmitter) shapeSource() (map[string]any, string) {
	root := e.root
	ref, ok := root["$ref"].(string)
	if !ok {
		return root, ""
	}
	for k := range root {
		if k != "$ref" && !zodAnnotations[k] {
			return root, ""
		}
	}
	r := e.resolver.Resolve("", ref)
	target, ok := r.Target.(map[string]any)
	if !r.Found || !ok || r.Pointer == "" || !schema.HasType(target, "object") {
		return root, ""
	}
	return target, r.Pointer
}

// zodRootNotObject is the warning for a root schema that accepts values
// other than objects: the raw shape can only describe an object.
const zodRootNotObject = "the schema does not require an object, but tool arguments are one: the Zod schema is an object schema"

// zodComment is a tool name as the text of the line comment above its
// declarations: escaped, so that it can neither end the comment nor hide
// characters from a reader.
func zodComment(s string) string { return jscode.Comment(s) }
