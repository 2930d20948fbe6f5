package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// The OpenAI rules apply to function calling with and without strict mode,
// so they belong to both packs: --strict alone checks everything a strict
// request needs.
var openaiPacks = []string{"openai", "openai-strict"}

var openaiRules = []*lint.Rule{OpenAIFunctionName, OpenAIDescriptionLength, OpenAIRootObject, OpenAIArrayItems, OpenAIObjectProperties}

// OpenAIFunctionName checks the tool name against OpenAI's function names.
var OpenAIFunctionName = &lint.Rule{
	ID:       "openai-function-name",
	Packs:    openaiPacks,
	Subject:  "tool-name",
	Severity: lint.Warning,
	Consumers: openaiModes("name", "", "OpenAI API reference, FunctionDefinition.name", "OpenAI API reference, Responses FunctionTool.name",
		"OpenAI API reference, FunctionDefinition.name"),
	Summary: "the tool name is a valid OpenAI function name: ^[a-zA-Z0-9_-]{1,64}$",
	Fix:     lint.UnsafeFix,
	Check:   checkOpenAIFunctionName,
	Doc: `Clients that hand MCP tools to OpenAI's function calling (Chat Completions
tools[].function.name, Responses tools[].name) pass the tool name as the
function name, and the API refuses the whole request when one name does not
match ^[a-zA-Z0-9_-]{1,64}$: "Must be a-z, A-Z, 0-9, or contain underscores
and dashes, with a maximum length of 64". MCP allows more: dots (the
specification's own examples use "admin.tools.list"), and up to 128
characters.

The fix replaces each character outside [a-zA-Z0-9_-] by "_" and cuts the
name to 64 characters. It is unsafe: a renamed tool breaks every agent and
prompt that calls it by its old name, and two names can become one
(tool-name-unique then reports it). A name that is not a string, or empty,
gets no fix.

Bad:

    {"name": "files.read", "inputSchema": {"type": "object"}}

Good:

    {"name": "files_read", "inputSchema": {"type": "object"}}

Source: OpenAI API reference, Chat Completions, FunctionDefinition "name"
(https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools);
MCP specification 2025-11-25, server/tools, "Tool Names".`,
}

func checkOpenAIFunctionName(p *lint.Pass) {
	name, _ := p.Value["name"].(string)
	for _, f := range ruleFindings(p, "name") {
		is := nameIssuesOf(f.line, name)
		fixed := cutName(is.fixed, f.line.Max)
		p.Report(lint.Diagnostic{RelPointer: "/name", Consumers: f.consumers,
			Fix: &lint.Fix{Message: fmt.Sprintf("rename the tool to %q", fixed),
				Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: fixed}}},
			Message: fmt.Sprintf("OpenAI refuses the function name %q: it %s; rename it to match ^[a-zA-Z0-9_-]{1,64}$ (%q, say)", name, is, fixed)})
	}
}

// OpenAIDescriptionLength checks the description against OpenAI's limit.
var OpenAIDescriptionLength = &lint.Rule{
	ID:        "openai-description-length",
	Packs:     openaiPacks,
	Severity:  lint.Warning,
	Consumers: openaiModes("description", "", "getsentry/sentry-mcp#106"),
	Summary:   "the tool description is at most 1024 characters, OpenAI's limit for a function description",
	Fix:       lint.NoFix,
	Check:     checkOpenAIDescriptionLength,
	Doc: `OpenAI refuses a request whose function description is longer than 1024
characters, and with it every other tool of the request:

    Invalid 'tools[13].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 1103 instead.

(code "string_above_max_length"). MCP servers with rich descriptions hit it
often: the reference sequential-thinking server, Sentry's, OpenAPI bridges.
Length is counted in characters (Unicode code points), as the error does.

There is no automatic fix: cutting a description drops what the model
needs to call the tool well. Move detail into parameter descriptions (which
have no such limit) or shorten the text.

Bad:

    {"name": "search", "description": "<1,500 characters of usage notes>", "inputSchema": {"type": "object"}}

Good:

    {"name": "search", "description": "Search issues by text; see each parameter for filters.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "<the detail>"}}}}

Source: the OpenAI API's error, quoted in getsentry/sentry-mcp#106,
microsoft/genaiscript#1381 (the sequential-thinking server) and
langchain-ai/open_deep_research#80.`,
}

func checkOpenAIDescriptionLength(p *lint.Pass) {
	for _, f := range ruleFindings(p) {
		n := utf8.RuneCountInString(p.Value["description"].(string))
		p.Report(lint.Diagnostic{RelPointer: "/description", Consumers: f.consumers,
			Message: fmt.Sprintf("the description is %d characters long; OpenAI refuses function descriptions over %d characters (and with them the whole request): shorten it, or move detail into parameter descriptions", n, f.line.Max)})
	}
}

// OpenAIRootObject checks the top level of the parameters as OpenAI does.
var OpenAIRootObject = &lint.Rule{
	ID:       "openai-root-object",
	Packs:    openaiPacks,
	Subject:  "root-combinator",
	Severity: lint.Warning,
	Consumers: openaiModes("root-combinators", "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.",
		"langchain-ai/langchainjs#9804", "langchain-ai/langchainjs#9804", "OpenAI Structured Outputs guide, \"Supported schemas\""),
	Summary: "inputSchema's root is \"type\": \"object\" with no anyOf, oneOf, allOf, enum, const or not beside it",
	Fix:     lint.MixedFix,
	Check:   checkOpenAIRootObject,
	Defers:  []*lint.Rule{InputSchemaRootObject},
	Doc: `OpenAI checks the top level of function parameters, strict mode or not,
and refuses the request when it is not a plain object schema:

    Invalid schema for function 'createEvent': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.

(later messages list 'const' too), or, for a root without "type":

    Invalid schema for function 'generate': schema must be a JSON Schema of 'type: "object"', got 'type: null'.

Clients pass MCP input schemas through unchanged (LangChain's MCP adapters
with ChatOpenAI, for one), so a server whose arguments are "one of these
shapes" breaks them even though MCP allows it.

Fixes. Root anyOf, oneOf and allOf are rewritten by merging the branches
into one object schema (the same rewrite as for Anthropic's API, which
refuses them too): an allOf merge is exact and safe; merging the variants
of anyOf or oneOf accepts more than before (the "one of these shapes"
constraint is lost and said in the fix) and is unsafe. A root enum, const
or not has no object form and no fix. A root whose "type" is missing or not
"object" is input-schema-root-object's finding (pack mcp), with its fix;
this rule reports it only when that pack is off, without a fix of its own.
A tool without inputSchema is not reported: OpenAI takes a function without
parameters.

Bad:

    {"name": "create_event", "inputSchema": {"anyOf": [{"type": "object", "properties": {"date": {"type": "string"}}, "required": ["date"]}, {"type": "object", "properties": {"recurrence": {"type": "string"}}, "required": ["recurrence"]}]}}

Good:

    {"name": "create_event", "inputSchema": {"type": "object", "properties": {"date": {"type": "string"}, "recurrence": {"type": "string"}}}}

Source: the OpenAI API's errors, quoted in langchain-ai/langchainjs#9804 and
nspady/google-calendar-mcp#39 (combinators) and chatanywhere/GPT_API_free#403
(missing type); OpenAI function-calling guide
(https://platform.openai.com/docs/guides/function-calling).`,
}

func checkOpenAIRootObject(p *lint.Pass) {
	v, ok := openaiInput(p)
	if !ok {
		return
	}
	if f, bad := diagnoseRoot("inputSchema", v, true); bad {
		if !p.Runs(InputSchemaRootObject) {
			p.Reportf("/inputSchema"+f.at, "OpenAI refuses parameters that are not an object schema, and here %s (select the mcp pack: input-schema-root-object fixes this where a fix exists)", lowerFirst(f.msg))
		}
		return
	}
	s := v.(map[string]any)
	combos, others := rootCombinators(ruleFindings(p))
	if len(combos) > 0 {
		reportRootCombinators(p, s, combos)
	}
	for _, k := range others {
		p.Reportf("/inputSchema/"+k, "OpenAI refuses %q at the top level of parameters, and no object schema says the same; express the constraint in the properties, or check it in the server", k)
	}
}

// rootCombinators splits the keywords a root-combinators line refuses at
// the root into the combinators RootCombinators merges, in the order both
// root rules report them (so that their findings meet at one pointer), and
// the others.
func rootCombinators(fs []lineFinding) (combos, others []string) {
	for _, k := range normalize.OpenAIRootCombinatorKeywords {
		if slices.ContainsFunc(fs, func(f lineFinding) bool { return f.keyword == k }) {
			combos = append(combos, k)
		}
	}
	for _, f := range fs {
		if !slices.Contains(combos, f.keyword) {
			others = append(others, f.keyword)
		}
	}
	return combos, others
}

func reportRootCombinators(p *lint.Pass, s map[string]any, combos []string) {
	quoted := make([]string, len(combos))
	for i, k := range combos {
		quoted[i] = fmt.Sprintf("%q", k)
	}
	msg := fmt.Sprintf("OpenAI refuses %s at the top level of parameters", strings.Join(quoted, " and "))
	fixed, losses := normalize.RootCombinators(s)
	fm, _ := fixed.(map[string]any)
	if p.InPlay(consumer.OpenAIStrict) {
		losses = append(losses, strictTypedProperties(fm)...)
	}
	left := false
	for _, k := range combos {
		if _, ok := fm[k]; ok {
			left = true
		}
	}
	if left {
		p.Reportf("/inputSchema/"+combos[0], "%s; the branches cannot be merged into one object (%s): restructure the arguments as one object", msg, lossText(losses))
		return
	}
	fix := &lint.Fix{Message: "merge the branches into the root", Safe: len(losses) == 0, Edits: lint.Diff("/inputSchema", s, fixed)}
	if len(losses) > 0 {
		fix.Message += " (" + lossText(losses) + ")"
	}
	p.ReportFix("/inputSchema/"+combos[0], fix, "%s; merge the branches into one object schema", msg)
}

// strictTypedProperties gives the properties of a merged root that say
// nothing of a type (branches that disagreed on one) the types strict mode
// takes, as convert --to openai --strict does, and returns what that
// loses.
func strictTypedProperties(root map[string]any) []normalize.Loss {
	props, _ := root["properties"].(map[string]any)
	var losses []normalize.Loss
	for _, name := range schema.SortedKeys(props) {
		if m, ok := props[name].(map[string]any); ok && normalize.Typeless(m) {
			typed, ls := normalize.StrictType(m)
			props[name] = typed
			for _, l := range ls {
				l.What = fmt.Sprintf("%q: %s", name, l.What)
				losses = append(losses, l)
			}
		}
	}
	return losses
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "inputSchema") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// openaiInput returns the tool's input schema for the OpenAI schema rules,
// or false when there is none or it holds a serialised Zod value: that is
// zod-leak's finding, and its fix rebuilds the schema these rules then check
// (closing or requiring Zod internals would only bury what it can rebuild).
func openaiInput(p *lint.Pass) (any, bool) {
	v, ok := p.InputSchema()
	if !ok {
		return nil, false
	}
	return v, !zodInInput(p, v)
}

// zodInInput is zodInside for the tool's input schema v, found once for
// every rule that asks: most tools hold none, and zod-leak then has
// nothing to look for there.
func zodInInput(p *lint.Pass, v any) bool {
	return p.Memo("openai/zod", func() any { return zodInside(p, v) }).(bool)
}

// zodInside reports whether the input schema v holds a serialised Zod
// value anywhere, by zod-leak's own test, so that Zod-looking data (a
// const, a default) does not count.
func zodInside(p *lint.Pass, v any) bool {
	if isZodLeak(v) {
		return true
	}
	leak := false
	p.Schema("inputSchema").Walk(func(n *schema.Node) bool {
		s := n.Value
		if isZodLeak(s) {
			leak = true
		} else if props, ok := s["properties"].(map[string]any); ok {
			if form, _ := normalize.DetectZod(props); form == normalize.ZodRawShape {
				leak = true
			}
		}
		return !leak
	})
	return leak
}

// lossText joins what transforms lost, for a message.
func lossText(ls []normalize.Loss) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, l.What)
	}
	return strings.Join(parts, "; ")
}

// OpenAIArrayItems demands "items" on every array schema.
var OpenAIArrayItems = &lint.Rule{
	ID:       "openai-array-items",
	Packs:    openaiPacks,
	Subject:  "array-items",
	Severity: lint.Warning,
	Consumers: append(openaiModes("array-items", "array schema missing items", "sigoden/aichat#1049", "meilisearch/meilisearch-mcp#27",
		"OpenAI Structured Outputs guide, \"Supported schemas\""),
		consumer.Refusal{Consumer: consumer.VSCode, Line: "array-items", Error: "array type must have items", Source: "modelscope/ReMe#84"}),
	Summary: "every array schema has \"items\"",
	Fix:     lint.MixedFix,
	Check:   checkOpenAIArrayItems,
	Doc: `OpenAI refuses function parameters with an array schema that has no
"items", strict mode or not, at any depth, and with them the request:

    Invalid schema for function 'filesystem_read_multiple_files': In context=('properties', 'paths'), array schema missing items.

JSON Schema allows it ({"type": "array"} is any array), and MCP SDKs emit it
for an untyped list (mcp-go's WithArray without an item option,
mark3labs/mcphost#35). A "type" list naming "array" needs "items" too.

The fix adds "items": {}. It is safe: a missing "items" and "items": {}
accept the same arrays. OpenAI takes it without strict mode (pydantic-ai
sends a bare list that way and falls back to non-strict for it). Strict
mode wants a type on every schema, so when it is in play (the openai-strict
pack, --strict) the fix writes what "mcplint convert --to openai --strict"
writes, "items": {"anyOf": [string, number, boolean, null]}, and is unsafe:
objects and arrays are no longer accepted as elements. A fix whose result a
selected consumer refuses (Gemini's parameters want a type on an array's
elements) is not offered. Better still, say what the elements are.

Bad:

    "paths": {"type": "array"}

Good:

    "paths": {"type": "array", "items": {"type": "string"}}

Source: the OpenAI API's error, quoted in sigoden/aichat#1049,
mark3labs/mcphost#35 and gumloop/guMCP#136; strict mode and "items": {},
pydantic/pydantic-ai#4706.`,
}

func checkOpenAIArrayItems(p *lint.Pass) {
	if _, ok := openaiInput(p); !ok {
		return
	}
	for _, f := range ruleFindings(p) {
		n := f.node
		if _, has := n.Value["items"]; !has {
			p.Report(lint.Diagnostic{RelPointer: n.Pointer(), Consumers: f.consumers, Fix: arrayItemsFix(p, n),
				Message: "array schema without \"items\", which OpenAI (\"array schema missing items\") and VS Code (\"array type must have items\") refuse; say what the elements are, or add \"items\": {}"})
			continue
		}
		// Zod 4 writes a tuple's end as "items": false; VS Code's check
		// reads false as missing.
		p.Report(lint.Diagnostic{RelPointer: n.Pointer() + "/items", Consumers: f.consumers, Fix: arrayItemsFix(p, n),
			Message: "\"items\": false (no elements beyond prefixItems), which VS Code takes for a missing \"items\" (\"array type must have items\"); write {\"not\": {}}, which refuses the same elements"})
	}
}

// arrayItemsFix is the fix that gives the array schema at n its "items":
// {} for a missing one and {"not": {}} for false, which accept what they
// replace (safe), or, when OpenAI's strict mode is in play, which wants a
// type on every schema, the types strict mode takes, as convert --to
// openai --strict writes them (unsafe: no objects or arrays any more). A
// form some consumer in play refuses is no fix. Only this node is fixed:
// nested arrays have findings of their own.
func arrayItemsFix(p *lint.Pass, n *schema.Node) *lint.Fix {
	s := n.Value
	fixed := mergeItems(s, normalize.OpenAIArrayItems(s).(map[string]any))
	fix := &lint.Fix{Message: "add \"items\": {}", Safe: true}
	if s["items"] == false {
		fix.Message = "write \"items\": {\"not\": {}}"
	}
	if items, _ := fixed["items"].(map[string]any); p.InPlay(consumer.OpenAIStrict) && len(items) == 0 {
		typed, losses := normalize.StrictType(items)
		fixed["items"] = typed
		fix.Message, fix.Safe = "add \"items\" with the types strict mode takes ("+lossText(losses)+")", false
	}
	if introduces(p, n.Pointer(), isMember(n), s, fixed) {
		return nil
	}
	ptr := n.Pointer()
	fix.Build = func() []manifest.Edit { return lint.Diff(ptr, s, fixed) }
	return fix
}

// OpenAIObjectProperties demands "properties" on the root object.
var OpenAIObjectProperties = &lint.Rule{
	ID:       "openai-object-properties",
	Packs:    openaiPacks,
	Severity: lint.Warning,
	Consumers: openaiModes("root-properties", "object schema missing properties", "github/github-mcp-server#1548", "containers/kubernetes-mcp-server#717",
		"OpenAI API reference, FunctionDefinition.parameters (the form for no arguments)"),
	Summary: "a tool's input schema root lists \"properties\", even an empty {}",
	Fix:     lint.SafeFix,
	Check:   checkOpenAIObjectProperties,
	Doc: `OpenAI's Chat Completions API, strict mode off, refuses function parameters
whose root object schema has no "properties" member, and with them the
whole request:

    Invalid schema for function 'get_me': In context=(), object schema missing properties.

MCP itself is content with {"type": "object"} for a tool without arguments,
and servers publish it that way: the GitHub MCP server's get_me did until
it added "properties": {} (github/github-mcp-server#1548), and Spring AI
and mcphost users met the same error (spring-projects/spring-ai#4776,
mark3labs/mcphost#88). OpenAI's own reference gives {"type": "object",
"properties": {}} as the form for a function without parameters.

The fix adds "properties": {}. It is safe: an empty "properties" constrains
nothing, so the schema accepts exactly what it accepted.

Bad:

    {"name": "get_me", "inputSchema": {"type": "object"}}

Good:

    {"name": "get_me", "inputSchema": {"type": "object", "properties": {}}}

Source: the OpenAI API's error, quoted in github/github-mcp-server#1548,
spring-projects/spring-ai#4776 and mark3labs/mcphost#88; OpenAI API
reference, FunctionDefinition.parameters ("To describe a function that
accepts no parameters, provide the value {"type": "object", "properties":
{}}").`,
}

func checkOpenAIObjectProperties(p *lint.Pass) {
	if _, ok := openaiInput(p); !ok {
		return
	}
	for _, f := range ruleFindings(p) {
		s := f.node.Value
		if s["type"] != "object" {
			continue // a type list is the root rules' finding
		}
		p.Report(lint.Diagnostic{RelPointer: "/inputSchema", Consumers: f.consumers,
			Fix:     &lint.Fix{Message: "add \"properties\": {}", Safe: true, Edits: lint.Diff("/inputSchema", s, normalize.OpenAIRootProperties(s))},
			Message: "the root object schema has no \"properties\", which OpenAI refuses (\"object schema missing properties\"); add \"properties\": {} (or declare the arguments)"})
	}
}

// mergeItems keeps s as it is but for the "items" fixed adds to it.
func mergeItems(s, fixed map[string]any) map[string]any {
	out := schema.Clone(s).(map[string]any)
	out["items"] = fixed["items"]
	return out
}
