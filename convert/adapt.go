package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// Clients are the clients an Adapter adapts MCP tools for, by the name
// mcplint proxy --for takes. Each is named after what refuses tools in
// front of it: the model API a client hands them to (openai, gemini,
// claude), or the client itself when it takes tools to several APIs
// (cursor, vscode).
var Clients = []string{"openai", "openai-strict", "gemini", "claude", "cursor", "vscode"}

// Adapter turns MCP tools into MCP tools that one client accepts, with the
// transforms To uses for that client's API: names the API takes
// (Renamer) and the input schema the API takes (OpenAI's function
// parameters, strict mode's, Gemini's OpenAPI subset, Anthropic's
// input_schema). For no client in particular (""), it makes tools every
// mainstream client takes in its default mode: names OpenAI, Anthropic and
// Gemini all accept, and input schemas that OpenAI's function parameters,
// Anthropic's input_schema and Gemini's parametersJsonSchema all take.
//
// The result is still an MCP tool: output schemas are left as they are,
// since no model API reads them and a client checks results against them
// (narrowing one would refuse results the server sends). An Adapter keeps
// the names it gave (see Renamer); it is not safe for concurrent use.
type Adapter struct {
	client    string
	names     *Renamer
	input     func(any) (any, []normalize.Loss)
	consumers []consumer.ID
	pack      string
}

// mainstreamNames are the names OpenAI, Anthropic and Gemini all accept
// (see the policies in names.go): Gemini's first character, OpenAI's
// characters and length.
var mainstreamNames = namePolicy{
	rule: "names every mainstream client takes start with a letter or _, use only A-Z a-z 0-9 _ -, and have at most 64 characters (OpenAI, Anthropic and Gemini together)", max: 64,
	allowed: openaiNames.allowed,
	firstOK: geminiNames.firstOK,
}

// NewAdapter returns the Adapter for client, one of Clients or "" for
// every mainstream client.
func NewAdapter(client string) (*Adapter, error) {
	a := &Adapter{client: client, pack: client}
	switch client {
	case "openai":
		a.names, a.input = newRenamer(openaiNames), normalize.OpenAIFunction
		a.consumers = []consumer.ID{consumer.OpenAIChat, consumer.OpenAIResponses}
	case "openai-strict":
		a.names, a.input = newRenamer(openaiNames), normalize.OpenAIStrict
		a.consumers = []consumer.ID{consumer.OpenAIChat, consumer.OpenAIResponses, consumer.OpenAIStrict}
	case "gemini":
		// A budget for inlining each tool's references (see
		// normalize.Budget), not one for every tool the session lists.
		a.names, a.input = newRenamer(geminiNames), func(s any) (any, []normalize.Loss) { return geminiParameters(Options{})(s) }
		a.consumers = []consumer.ID{consumer.GeminiParameters, consumer.GeminiJSONSchema}
	case "claude":
		a.names, a.input = newRenamer(anthropicNames), anthropicSchema
		a.consumers = []consumer.ID{consumer.MCPSpec, consumer.TSSDK, consumer.Anthropic, consumer.ClaudeCode, consumer.ClaudeAI}
	case "cursor", "vscode", "":
		a.names, a.input = newRenamer(mainstreamNames), mainstreamSchema
		for _, c := range consumer.All {
			if c.Default {
				a.consumers = append(a.consumers, c.ID)
			}
		}
		if client == "cursor" {
			a.consumers = append(a.consumers, consumer.Cursor)
		}
	default:
		return nil, fmt.Errorf("unknown client %q (want %s)", client, strings.Join(Clients, ", "))
	}
	return a, nil
}

// mainstreamSchema is an input schema as every mainstream client takes it:
// in the 2020-12 dialect (Anthropic), with OpenAI's object root and items,
// and without "$schema" (Gemini's parametersJsonSchema).
func mainstreamSchema(s any) (any, []normalize.Loss) {
	d, lost := normalize.Draft2020(s)
	o, more := normalize.OpenAIFunction(d)
	lost = append(lost, more...)
	g, more := normalize.GeminiJSONSchema(o)
	return g, append(lost, more...)
}

// Client is the client the Adapter adapts for, "" for every mainstream one.
func (a *Adapter) Client() string { return a.client }

// Consumers are the consumers whose rules judge the adapted tools.
func (a *Adapter) Consumers() []consumer.ID { return slices.Clone(a.consumers) }

// Pack is the lint pack of the client's own rules, "" when it has none.
func (a *Adapter) Pack() string { return a.pack }

// Restart begins a new listing (Renamer.Restart).
func (a *Adapter) Restart() { a.names.Restart() }

// Adapted is one tool as the client takes it.
type Adapted struct {
	// Tool is the tool with the client's name and input schema; the
	// source tool when Err is set.
	Tool
	// Renamed and SchemaChanged say what changed; Err is set when the tool
	// cannot be adapted at all (its input schema admits no object).
	Renamed, SchemaChanged bool
	Err                    error
}

// Adapt adapts one page of the current listing. The warnings say what
// each tool lost and why it was renamed, at pointers relative to the
// source tool.
func (a *Adapter) Adapt(tools []Tool) ([]Adapted, []Warning) {
	out := make([]Adapted, len(tools))
	var warns []Warning
	page := make([]string, len(tools))
	for i, t := range tools {
		page[i] = t.Name
	}
	names, why := a.names.Names(page)
	for i, t := range tools {
		out[i].Tool = t
		root, err := normalize.ObjectRoot(schemaValue(t.InputSchema))
		if err != nil {
			out[i].Err = &ToolError{Tool: t.Name, Index: t.Index, Pointer: "/inputSchema", Err: err}
			continue
		}
		params, lost := a.input(root)
		if be := normalize.BudgetExceeded(lost); be != nil {
			out[i].Err = &ToolError{Tool: t.Name, Index: t.Index, Pointer: "/inputSchema" + be.Pointer, Err: be}
			continue
		}
		m, ok := params.(map[string]any)
		if !ok {
			out[i].Err = &ToolError{Tool: t.Name, Index: t.Index, Pointer: "/inputSchema", Err: fmt.Errorf("the %s transform left no object schema", a.label())}
			continue
		}
		warns = append(warns, losses(t, "/inputSchema", lost)...)
		if why[i] != "" {
			out[i].Renamed = true
			warns = append(warns, Warning{Tool: t.Name, Index: t.Index, Pointer: "/name",
				Message: fmt.Sprintf("renamed to %q: %s", names[i], why[i])})
		}
		out[i].Name = names[i]
		out[i].SchemaChanged = t.InputSchema == nil || !schema.Equal(t.InputSchema, m)
		out[i].InputSchema = m
	}
	return out, sortWarnings(warns)
}

func (a *Adapter) label() string {
	if a.client == "" {
		return "mainstream"
	}
	return a.client
}

// Refusals judges adapted tools as To judges what it writes: the rules
// that protect the client's consumers run on them, and what they still
// report comes back as refused Warnings at the source tools (sources[i]
// is the tool adapted[i] was made from).
func (a *Adapter) Refusals(sources, adapted []Tool) ([]Warning, error) {
	if len(sources) != len(adapted) {
		return nil, fmt.Errorf("%d sources for %d tools", len(sources), len(adapted))
	}
	list := make([]object, len(adapted))
	for i, t := range adapted {
		list[i] = mcpTool(t)
	}
	doc, err := encode(object{}.add("tools", list))
	if err != nil {
		return nil, err
	}
	return refusals(doc, a.consumers, sources, nil)
}

// MCPToolJSON writes a tool as one member of a tools/list result lists
// it, on one line: every member kept, properties in the source's order.
func MCPToolJSON(t Tool) ([]byte, error) {
	b, err := encode(mcpTool(t))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
