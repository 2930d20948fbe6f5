package manifest

import "fmt"

// Other consumers' tool formats. A tool written for a model provider's API
// carries the same three things as an MCP tool (a name, a description, a JSON
// Schema of its arguments) under other member names, so it is linted and
// fixed in place like the plugin contract: Tool.Pointer locates the object
// that holds the name, Tool.SchemaKey names the member that holds the schema,
// and rules address that schema as /inputSchema.
//
//   - OpenAI Chat Completions: {"type": "function", "function": {"name",
//     "description", "parameters", "strict"}}; the tool is the inner
//     "function" object. https://platform.openai.com/docs/guides/function-calling
//     and https://platform.openai.com/docs/api-reference/chat/create (tools).
//   - OpenAI Responses: {"type": "function", "name", "description",
//     "parameters", "strict"}, flat. Same guide, and
//     https://platform.openai.com/docs/api-reference/responses/create (tools).
//   - Anthropic Messages: {"name", "description", "input_schema"}, with an
//     optional "type": "custom".
//     https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
//   - Gemini: FunctionDeclaration {"name", "description", "parameters"} or
//     {..., "parametersJsonSchema"} (the two are mutually exclusive), listed
//     in a Tool {"functionDeclarations": [...]}.
//     https://ai.google.dev/api/caching#FunctionDeclaration and
//     https://googleapis.github.io/js-genai/release_docs/interfaces/types.FunctionDeclaration.html.
//     The REST API reads JSON by the proto3 mapping, which accepts the proto
//     field names too (https://protobuf.dev/programming-guides/json/), and
//     the Python SDK spells them so: function_declarations,
//     parameters_json_schema.
//
// Each is read as a bare array of tools or as the request-like object
// {"tools": [...]} the APIs take (any other members of that object are left
// alone), and, like MCP, as a single tool. Gemini is also read as one Tool
// {"functionDeclarations": [...]}, a list of Tools {"tools": [{...}]} and a
// bare array of declarations.
//
// Decisions:
//   - A list's format is told by its first entry that has a member only one
//     format has ("inputSchema" or a plugin-contract "schema" for MCP, "type":
//     "function" with or without "function" for OpenAI, "input_schema" for
//     Anthropic, "parameters"/"parametersJsonSchema" without "type" or
//     "functionDeclarations" for Gemini). An array of {"name", "parameters"}
//     objects is read as Gemini declarations; the legacy OpenAI "functions"
//     parameter has the same shape and lints the same.
//   - An entry of another format in the same list is an error at its place:
//     each API takes one format, and guessing would lint the wrong members.
//     That includes an MCP list: an MCP tool with "input_schema" instead of
//     "inputSchema" is refused with a message saying so rather than linted as
//     a tool without a schema.
//   - An entry with nothing of any format ({"name": "x"} alone) takes the
//     list's format: an Anthropic tool or Gemini declaration without a
//     schema (the rules then report the missing schema). OpenAI entries must
//     say "type": "function", so such an entry in an OpenAI list is an error.
//   - Provider tools that are not functions (OpenAI {"type": "web_search"},
//     Anthropic {"type": "bash_20250124", "name": "bash"}, a Gemini Tool
//     such as {"googleSearch": {}}) are skipped: they have no schema of their
//     own to check or convert. They are listed in Manifest.Skipped. In a list
//     that is MCP (or where nothing tells), entries are tools as before.
//   - A Gemini declaration with both "parameters" and "parametersJsonSchema"
//     is an error (the API refuses it). One with neither has SchemaKey
//     "parameters", where a fix adds a schema.
//   - Only tools/list results and JSON-RPC responses may be concatenated; a
//     JSON-RPC result holding another format's tools is an error.

// Shapes of other consumers' tool lists (a single tool of theirs too): they
// say which format the source is in, which is what convert reads from.
const (
	ShapeOpenAIChat      Shape = "OpenAI Chat Completions tool list"
	ShapeOpenAIResponses Shape = "OpenAI Responses tool list"
	ShapeAnthropic       Shape = "Anthropic tool list"
	ShapeGemini          Shape = "Gemini function declaration list"
)

// Foreign reports whether the shape is another consumer's format rather than
// MCP's.
func (s Shape) Foreign() bool {
	switch s {
	case ShapeOpenAIChat, ShapeOpenAIResponses, ShapeAnthropic, ShapeGemini:
		return true
	}
	return false
}

// Skipped is an entry of another consumer's tool list that is not a function
// tool, left as it is.
type Skipped struct {
	Doc     int
	Pointer string
	// Type is the entry's "type" ("web_search", "bash_20250124"), or "" (a
	// Gemini Tool without declarations).
	Type   string
	Offset int
}

// entryKind is what an element of a tool list is, as its members tell.
type entryKind int8

const (
	entryPlain      entryKind = iota // nothing tells: {"name": "x"} alone
	entryMCP                         // "inputSchema", or a plugin-contract "schema"
	entryHosted                      // a "type" other than "function": a provider's own tool
	entryChat                        // OpenAI Chat Completions
	entryResponses                   // OpenAI Responses
	entryAnthropic                   // Anthropic
	entryGemini                      // a Gemini function declaration
	entryGeminiTool                  // a Gemini Tool holding declarations
)

func (k entryKind) foreign() bool { return k >= entryChat }

func (k entryKind) String() string {
	switch k {
	case entryMCP:
		return "an MCP tool"
	case entryHosted:
		return "a provider's built-in tool"
	case entryChat:
		return "an OpenAI Chat Completions function tool"
	case entryResponses:
		return "an OpenAI Responses function tool"
	case entryAnthropic:
		return "an Anthropic tool"
	case entryGemini:
		return "a Gemini function declaration"
	case entryGeminiTool:
		return "a Gemini Tool"
	}
	return "a tool"
}

func (k entryKind) shape() Shape {
	switch k {
	case entryChat:
		return ShapeOpenAIChat
	case entryResponses:
		return ShapeOpenAIResponses
	case entryAnthropic:
		return ShapeAnthropic
	case entryGemini, entryGeminiTool:
		return ShapeGemini
	}
	return ""
}

// Member names of the formats.
const (
	geminiDecls      = "functionDeclarations"
	geminiDeclsSnake = "function_declarations"
)

// geminiSchemaKeys are the members a Gemini declaration may carry its
// parameters in.
var geminiSchemaKeys = []string{"parametersJsonSchema", "parameters_json_schema", "parameters"}

// classify tells what a list entry is from its members.
func classify(mem map[string]member) entryKind {
	if _, ok := mem["inputSchema"]; ok {
		return entryMCP
	}
	if s, ok := mem["schema"]; ok && s.kind == '{' {
		return entryMCP
	}
	if _, ok := mem["input_schema"]; ok {
		return entryAnthropic
	}
	if t, ok := mem["type"]; ok && t.kind == '"' {
		if t.str != "function" {
			return entryHosted
		}
		if _, ok := mem["function"]; ok {
			return entryChat
		}
		return entryResponses
	}
	if _, ok := mem[geminiDecls]; ok {
		return entryGeminiTool
	}
	if _, ok := mem[geminiDeclsSnake]; ok {
		return entryGeminiTool
	}
	for _, k := range geminiSchemaKeys {
		if _, ok := mem[k]; ok {
			return entryGemini
		}
	}
	return entryPlain
}

// slot is where a tool sits, which editing YAML needs: the offset of its
// "- " in a block sequence (-1 otherwise), whether it is written inside a
// flow collection, and for a tool that is a member's value (a Chat tool's
// "function") where its key starts and the offset just after its ':'.
type slot struct {
	dash       int
	inFlow     bool
	keyed      bool
	key, colon int
}

// toolList reads the entries of one list, deciding its format from them.
type toolList struct {
	m   *Manifest
	r   shapeReader
	doc int
	// first is the number of tools located before the list.
	first int
	// kind is the format of the list, entryPlain until an entry tells.
	kind entryKind
	// at is the number of the entry that told it, atStart where it starts.
	at, atStart int
	// pending are the entries read before the kind was decided (plain and
	// hosted ones), located as MCP tools m.Tools[first:] until it is.
	pending []pendingEntry
	// decls is set for the declarations of a Gemini Tool: their format is
	// known before the first.
	decls bool
	n     int // entries read
}

type pendingEntry struct {
	kind    entryKind
	named   bool
	typ     string
	ptr     string
	start   int
	entryNo int
}

func (m *Manifest) newList(r shapeReader, doc int) *toolList {
	return &toolList{m: m, r: r, doc: doc, first: len(m.Tools)}
}

// readList locates the tools of the list v (at ptr in document doc) and sets
// the document's shape: base (ShapeArray, ShapeListResult, ShapeJSONRPC)
// unless the entries are another consumer's.
func (m *Manifest) readList(r shapeReader, doc int, v member, ptr string, base Shape) error {
	l := m.newList(r, doc)
	if err := r.tools(l, v, ptr); err != nil {
		return err
	}
	if l.kind.foreign() && base == ShapeJSONRPC {
		return m.errorAt(l.atStart, "tool %d is %s, but a JSON-RPC tools/list result holds MCP tools", l.at, l.kind)
	}
	return m.setShape(doc, l.shape(base), nil)
}

// readSingle locates a document that is one tool (or one Gemini Tool) of
// another consumer.
func (m *Manifest) readSingle(r shapeReader, doc int, v member) error {
	mem, err := r.toolMembers(v)
	if err != nil {
		return err
	}
	l := m.newList(r, doc)
	if err := l.entry("", v, mem, slot{dash: -1}); err != nil {
		return err
	}
	return m.setShape(doc, l.shape(ShapeTool), nil)
}

func (l *toolList) shape(base Shape) Shape {
	if l.kind.foreign() {
		return l.kind.shape()
	}
	return base
}

// entry reads the list's next entry: the object v at ptr with members mem.
func (l *toolList) entry(ptr string, v member, mem map[string]member, s slot) error {
	m := l.m
	no := l.n
	l.n++
	k := classify(mem)
	if l.decls && k != entryGemini && k != entryPlain {
		return m.errorAt(v.start, "declaration %d is %s, not a Gemini function declaration", no, k)
	}
	switch {
	case k == entryPlain || k == entryHosted:
		if l.kind == entryPlain {
			// Nothing tells yet: located as MCP tools have always been,
			// settled when an entry tells.
			l.pending = append(l.pending, pendingEntry{kind: k, named: hasName(mem), typ: mem["type"].str, ptr: ptr, start: v.start, entryNo: no})
			_, err := l.r.place(l.doc, ptr, v, mem, s)
			return err
		}
		return l.follow(k, no, ptr, v, mem, s)
	case l.kind == entryPlain:
		l.kind, l.at, l.atStart = k, no, v.start
		if err := l.settle(); err != nil {
			return err
		}
		return l.add(k, ptr, v, mem, s)
	case k != l.kind:
		return m.errorAt(v.start, "tool %d is %s but tool %d is %s; a list holds tools of one format", no, k, l.at, l.kind)
	}
	return l.add(k, ptr, v, mem, s)
}

// follow reads a plain or hosted entry of a list whose format is known.
func (l *toolList) follow(k entryKind, no int, ptr string, v member, mem map[string]member, s slot) error {
	m := l.m
	switch {
	case l.kind == entryMCP:
		_, err := l.r.place(l.doc, ptr, v, mem, s)
		return err
	case k == entryHosted || (l.kind == entryGeminiTool && !hasName(mem)):
		m.Skipped = append(m.Skipped, Skipped{Doc: l.doc, Pointer: ptr, Type: mem["type"].str, Offset: v.start})
		return nil
	}
	if msg := l.plainRefused(no); msg != "" {
		return m.errorAt(v.start, "%s", msg)
	}
	return l.add(l.kind, ptr, v, mem, s)
}

// plainRefused says why an entry with nothing of any format cannot be a tool
// of the list, or "" when it can.
func (l *toolList) plainRefused(no int) string {
	switch l.kind {
	case entryChat, entryResponses:
		return fmt.Sprintf("tool %d has no \"type\": \"function\", but tool %d is %s; give every tool of the list that form", no, l.at, l.kind)
	case entryGeminiTool:
		return fmt.Sprintf("tool %d has a \"name\" but no \"functionDeclarations\", and tool %d is %s; put function declarations in a Tool's \"functionDeclarations\"", no, l.at, l.kind)
	}
	return ""
}

// settle decides the entries read before the list's format was known.
func (l *toolList) settle() error {
	m := l.m
	if !l.kind.foreign() {
		l.pending = nil
		return nil
	}
	drop := make([]bool, len(l.pending))
	for i, p := range l.pending {
		t := m.Tools[l.first+i]
		switch {
		case p.kind == entryHosted || (l.kind == entryGeminiTool && !p.named):
			drop[i] = true
			m.Skipped = append(m.Skipped, Skipped{Doc: l.doc, Pointer: p.ptr, Type: p.typ, Offset: p.start})
		case l.plainRefused(p.entryNo) != "":
			return m.errorAt(p.start, "%s", l.plainRefused(p.entryNo))
		case l.kind == entryAnthropic:
			t.SchemaKey = "input_schema"
		case l.kind == entryGemini:
			t.SchemaKey = "parameters"
		}
	}
	l.pending = nil
	m.dropTools(l.first, drop)
	return nil
}

// dropTools removes the tools from on that drop marks, keeping the others'
// order and numbering the tools again.
func (m *Manifest) dropTools(from int, drop []bool) {
	kept := m.Tools[:from]
	var ykept []*yamlTool
	if m.yaml != nil {
		ykept = m.yaml.tools[:from]
	}
	for i, t := range m.Tools[from:] {
		if drop[i] {
			continue
		}
		t.Index = len(kept)
		kept = append(kept, t)
		if m.yaml != nil {
			ykept = append(ykept, m.yaml.tools[from+i])
		}
	}
	clear(m.Tools[len(kept):])
	m.Tools = kept
	if m.yaml != nil {
		clear(m.yaml.tools[len(ykept):])
		m.yaml.tools = ykept
	}
}

// add locates an entry of the list's (foreign or MCP) format k.
func (l *toolList) add(k entryKind, ptr string, v member, mem map[string]member, s slot) error {
	m, r := l.m, l.r
	switch k {
	case entryChat:
		f := mem["function"]
		if f.kind != '{' {
			return m.errorAt(f.start, "\"function\" is %s; an OpenAI Chat Completions tool is {\"type\": \"function\", \"function\": {\"name\", \"description\", \"parameters\"}}", aKind(f.kind))
		}
		fmem, err := r.toolMembers(f)
		if err != nil {
			return err
		}
		t, err := r.place(l.doc, ptr+"/function", f, fmem, r.inner(v, "function", s))
		if err != nil {
			return err
		}
		t.SchemaKey = "parameters"
		return nil
	case entryGeminiTool:
		key := geminiDecls
		decls, ok := mem[key]
		if !ok {
			key = geminiDeclsSnake
			decls = mem[key]
		} else if _, both := mem[geminiDeclsSnake]; both {
			return m.errorAt(mem[geminiDeclsSnake].start, "a Gemini Tool with both %q and %q; keep one", geminiDecls, geminiDeclsSnake)
		}
		if decls.kind != '[' {
			return m.errorAt(decls.start, "%q is %s, not an array of function declarations", key, aKind(decls.kind))
		}
		sub := m.newList(r, l.doc)
		sub.kind, sub.decls = entryGemini, true
		return r.tools(sub, decls, ptr+"/"+key)
	}
	schemaKey := ""
	switch k {
	case entryResponses:
		schemaKey = "parameters"
	case entryAnthropic:
		schemaKey = "input_schema"
	case entryGemini:
		var err error
		if schemaKey, err = l.geminiSchemaKey(mem); err != nil {
			return err
		}
	}
	t, err := r.place(l.doc, ptr, v, mem, s)
	if err != nil {
		return err
	}
	if schemaKey != "" {
		t.SchemaKey = schemaKey
	}
	return nil
}

// geminiSchemaKey is the member a declaration carries its parameters in.
func (l *toolList) geminiSchemaKey(mem map[string]member) (string, error) {
	found := ""
	for _, k := range geminiSchemaKeys {
		v, ok := mem[k]
		if !ok {
			continue
		}
		if found != "" {
			return "", l.m.errorAt(v.start, "a function declaration with both %q and %q; Gemini takes one of them (they are mutually exclusive): keep one", found, k)
		}
		found = k
	}
	if found == "" {
		return "parameters", nil
	}
	return found, nil
}

func hasName(mem map[string]member) bool {
	_, ok := mem["name"]
	return ok
}
