package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

var validityRules = []*lint.Rule{SchemaValid, RefResolvable}

// schemaKeys are the members of a tool that hold a JSON Schema.
var schemaKeys = []string{"inputSchema", "outputSchema"}

// SchemaValid compiles every schema under its dialect.
var SchemaValid = &lint.Rule{
	ID:       "schema-valid",
	Packs:    []string{"mcp"},
	Subject:  "schema-shape",
	Severity: lint.Error,
	Consumers: append([]consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "valid", Source: "MCP specification 2025-11-25, basic, \"JSON Schema Usage\""},
		{Consumer: consumer.Anthropic, Line: "draft-2020-12", Error: "JSON schema is invalid. It must match JSON Schema draft 2020-12", Source: "anthropics/claude-code#586"},
		{Consumer: consumer.VSCode, Line: "valid", Error: "Failed to validate tool", Source: "microsoft/vscode-copilot-chat, toolSchemaNormalizer.ts (validates every tool against the draft-07 meta-schema)"},
	}, openaiModes("valid", "Invalid schema for function: [] is not of type 'object', 'boolean'", "FoundationAgents/OpenManus#1162")...),
	Summary: "inputSchema and outputSchema are valid JSON Schema under their dialect",
	Fix:     lint.NoFix,
	Check:   checkSchemaValid,
	Doc: `A tool's inputSchema and outputSchema must be valid JSON Schema under the
dialect they declare with "$schema", JSON Schema 2020-12 when they declare
none. Clients validate arguments and results against these schemas; a schema
that its dialect's metaschema rejects ("type": "strin", "required": "id", a
draft-07 tuple "items": [...] under 2020-12, a "pattern" that is not a regular
expression) makes the validator throw, and the client drops the tool, refuses
the whole list, or calls it unchecked. The Anthropic API refuses a request
whose tool schema is not valid 2020-12 ("JSON schema is invalid. It must match
JSON Schema draft 2020-12", anthropics/claude-code#586). OpenAI checks function
parameters against a metaschema too: "Invalid schema for function '...': []
is not of type 'object', 'boolean'" (FoundationAgents/OpenManus#1162, a
subschema written as []; maltekuhr/laravel-gpt#8 and prism-php/prism#746 for
"properties": []).

The schema is compiled with github.com/santhosh-tekuri/jsonschema against the
metaschema of its dialect (draft-04, draft-06, draft-07, 2019-09 or 2020-12;
http and https spellings, with or without the trailing "#"). Each finding
points at the offending keyword and names its location inside the schema.

A "$schema" that names any other dialect is reported on its own: mcplint
cannot check the schema, and the specification says implementations MUST
handle unsupported dialects by returning an error that says so, so a client
that does not know the dialect refuses the tool.

Before protocol 2025-11-25 the specification named no default dialect, so a
schema without "$schema" passes if it is valid under 2020-12 or under
draft-07 (the dialect of the Ajv export the TypeScript SDK used); from
2025-11-25 it must be valid 2020-12.

Patterns are ECMA-262 regular expressions. Constructs Go's engine lacks
(lookahead, backreferences, \uXXXX escapes) are accepted unchecked; a pattern
that is malformed in any engine, such as "(ab", is reported.

Not reported here: a $ref that does not resolve (ref-resolvable), a schema
that is not a JSON object at all, and the root's "type" where it must be
"object" (input-schema-root-object; output-schema-root-object before
2026-07-28). There is no fix: only the author knows what the keyword meant.

Bad:

    "inputSchema": {
      "type": "object",
      "properties": {"id": {"type": "strin"}, "tags": {"items": [{"type": "string"}]}},
      "required": "id"
    }

Good:

    "inputSchema": {
      "type": "object",
      "properties": {"id": {"type": "string"}, "tags": {"prefixItems": [{"type": "string"}]}},
      "required": ["id"]
    }

Source: MCP specification 2025-11-25 and 2026-07-28, basic, "JSON Schema
Usage": "Schema Dialect" (2020-12 is the default), "Implementation
Requirements" ("MUST validate schemas according to their declared or default
dialect. They MUST handle unsupported dialects gracefully by returning an
appropriate error indicating the dialect is not supported"), "Schema
Validation" ("Schemas MUST be valid according to their declared or default
dialect"); server/tools, "Tool" (inputSchema "MUST be a valid JSON Schema
object").`,
}

func checkSchemaValid(p *lint.Pass) {
	for _, key := range schemaKeys {
		v, ok := p.Value[key]
		if !ok {
			continue
		}
		// A root that is not a JSON object is input-schema-root-object's
		// and output-schema-root-object's, and so is the root's "type"
		// wherever they demand "object".
		root, isObject := v.(map[string]any)
		if !isObject {
			continue
		}
		rootTypeOwned := key == "inputSchema" || p.Before("2026-07-28")
		// Before 2025-11-25 a schema without "$schema" may be read as
		// draft-07 too; the newer default, 2020-12, is the stricter demand.
		legacy := !p.Since("2025-11-25")
		dialect := dialectLabel(root, legacy)
		for _, pr := range schemaProblems(p, root, legacy) {
			ptr := "/" + key + pr.Pointer
			switch {
			case pr.Kind == schema.ProblemReference:
				continue
			case rootTypeOwned && pr.Pointer == "/type":
				continue
			case isStringRef(root, pr.Pointer):
				// ref-resolvable judges every reference written as a string,
				// including one that is not a valid URI reference.
				continue
			case pr.Kind == schema.ProblemDialect:
				_, declared := schema.Dialect(root)
				p.Reportf(ptr, "%s declares \"$schema\": %q, a JSON Schema dialect mcplint does not know and clients refuse as unsupported; use %q or remove \"$schema\" (2020-12 is the default)", key, declared, "https://json-schema.org/draft/2020-12/schema")
			default:
				p.Reportf(ptr, "%s is not valid JSON Schema %s at %s: %s; correct this keyword", key, dialect, pointerLabel(pr.Pointer), pr.Message)
			}
		}
	}
}

// schemaProblems finds what makes a schema invalid under its dialect. One
// schema.Checker serves the whole run: it validates each distinct schema
// node once, and generated servers repeat the same nodes across tools.
func schemaProblems(p *lint.Pass, root map[string]any, legacy bool) []schema.Problem {
	c := schemaChecker(p)
	probs := c.Problems(root, schema.Draft2020)
	if _, declared := schema.Dialect(root); legacy && declared == "" && hasInvalid(probs) {
		if !hasInvalid(c.Problems(root, schema.Draft7)) {
			return nil
		}
	}
	return probs
}

// schemaChecker is the run's schema.Checker, shared by every rule that
// validates schemas against a metaschema.
func schemaChecker(p *lint.Pass) *schema.Checker {
	return p.Cache.Get("schema-valid\x00checker", func() any { return schema.NewChecker() }).(*schema.Checker)
}

// isStringRef reports whether ptr is a reference keyword with a string
// value.
func isStringRef(root map[string]any, ptr string) bool {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return false
	}
	switch ptr[i+1:] {
	case "$ref", "$dynamicRef", "$recursiveRef":
		v, _ := schema.Get(root, ptr)
		_, ok := v.(string)
		return ok
	}
	return false
}

func hasInvalid(probs []schema.Problem) bool {
	for _, pr := range probs {
		if pr.Kind != schema.ProblemReference {
			return true
		}
	}
	return false
}

func dialectLabel(root map[string]any, legacy bool) string {
	d, declared := schema.Dialect(root)
	switch {
	case declared != "":
		return d
	case legacy:
		return "2020-12 or draft-07"
	}
	return "2020-12 (the default dialect)"
}

func pointerLabel(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// RefResolvable checks that every reference stays inside the tool's schema.
var RefResolvable = &lint.Rule{
	ID:       "ref-resolvable",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "references", Source: "MCP specification 2026-07-28, basic, \"JSON Schema Usage\" (clients must not fetch network references)"},
		{Consumer: consumer.ClaudeCode, Line: "references", Error: "can't resolve reference #/$defs/ScreenInstance from id #", Source: "anthropics/claude-code#76881"},
		{Consumer: consumer.GeminiJSONSchema, Line: "references", Error: "can't resolve reference #/$defs/Issue from id #", Source: "google-gemini/gemini-cli#13142"},
	},
	Summary: "every $ref resolves inside the tool's own schema, never over the network",
	Fix:     lint.NoFix,
	Check:   checkRefResolvable,
	Doc: `A tool's schema travels alone: a client receives it in tools/list with no
base document and nothing to load references from. Every "$ref" must therefore
lead to a subschema of the same inputSchema or outputSchema: a JSON Pointer
fragment ("#/$defs/Address"), a plain-name anchor ("#address", declared with
"$anchor"), or the URI of the schema's own or an embedded "$id". The rule
reports, for each reference:

- a pointer that reaches nothing ("#/$defs/Adress" when only Address exists),
  or an anchor that no subschema declares;
- a pointer that reaches a value that is not a schema ("#/required");
- a reference to a network URI ("https://example.com/address.json", a
  relative one under an http "$id", even the URI of a JSON Schema
  metaschema, which not every validator has built in). From protocol 2026-07-28 implementations
  MUST NOT dereference it automatically, and a schema that fails to validate
  because of it SHOULD be rejected, so the tool is unusable: an error. Before
  2026-07-28 the specification was silent and a validator that fetches could
  resolve it, but most validators do not fetch by default: a warning;
- a reference to another document that is not on the network (a relative
  "other.json" with no "$id" to resolve it against, "urn:…", "file:…"):
  nothing could load it;
- a cycle of references that never leaves the value being checked
  ("#/$defs/a" refers to "#/$defs/b", which refers back to "#/$defs/a"): a
  validator following it recurses forever.

"$dynamicRef" (2020-12) and "$recursiveRef" (2019-09) are checked like "$ref"
for their initial target; "$dynamicAnchor" declares an anchor. mcplint never
fetches anything. There is no fix: copy the definition into "$defs" and refer
to it by pointer.

Bad:

    "inputSchema": {
      "type": "object",
      "properties": {
        "address": {"$ref": "https://schemas.example.com/address.json"},
        "owner": {"$ref": "#/$defs/Person"}
      }
    }

Good:

    "inputSchema": {
      "type": "object",
      "properties": {
        "address": {"$ref": "#/$defs/Address"},
        "owner": {"$ref": "#/$defs/Person"}
      },
      "$defs": {
        "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
        "Person": {"type": "object", "properties": {"name": {"type": "string"}}}
      }
    }

Source: MCP specification 2026-07-28, basic, "JSON Schema Usage", "$ref
Resolution" ("Implementations MUST NOT automatically dereference $ref values
that resolve to a network URI"; "Schemas that fail to validate due to an
unresolved external $ref SHOULD be rejected rather than silently treated as
permissive"); JSON Schema 2020-12 Core, section 8.2 (base URI, anchors and
references).`,
}

func checkRefResolvable(p *lint.Pass) {
	for _, key := range schemaKeys {
		root, ok := p.Value[key].(map[string]any)
		if !ok {
			continue
		}
		d, _ := schema.Dialect(root)
		keywords := []string{"$ref"}
		switch d {
		case schema.Draft2020:
			keywords = append(keywords, "$dynamicRef")
		case schema.Draft2019:
			keywords = append(keywords, "$recursiveRef")
		}
		var r *schema.Resolver // indexed at the first reference: most schemas have none
		var refs []string      // the schemas with a "$ref", for the cycles
		base := "/" + key
		p.Schema(key).Walk(func(n *schema.Node) bool {
			for _, kw := range keywords {
				ref, ok := n.Value[kw].(string)
				if !ok {
					continue
				}
				if r == nil {
					r = resolverOf(p, key)
				}
				ptr := strings.TrimPrefix(n.Pointer(), base)
				if kw == "$ref" {
					refs = append(refs, ptr)
				}
				checkRef(p, base+ptr+"/"+kw, kw, ref, r.Resolve(ptr, ref))
			}
			return true
		})
		if r != nil {
			reportRefCycles(p, key, root, r, refs)
		}
	}
}

// resolverOf indexes the references of the tool's member (inputSchema or
// outputSchema) once for all the rules that follow them.
func resolverOf(p *lint.Pass, member string) *schema.Resolver {
	return p.Memo("schema/resolver/"+member, func() any { return schema.NewResolver(p.Value[member]) }).(*schema.Resolver)
}

func checkRef(p *lint.Pass, ptr, kw, ref string, res schema.Ref) {
	switch {
	case res.Kind == schema.RefInvalid:
		p.Reportf(ptr, "%s %q is not a valid URI reference; refer to a definition with a fragment such as \"#/$defs/Name\"", kw, ref)
	case res.Kind == schema.RefLocal && !res.Found && res.Anchor != "":
		p.Reportf(ptr, "%s %q names the anchor %q, which no subschema declares; declare it with \"$anchor\" or refer to the definition by pointer", kw, ref, res.Anchor)
	case res.Kind == schema.RefLocal && !res.Found:
		p.Reportf(ptr, "%s %q points at %s, which does not exist in this schema; fix the pointer or add the definition", kw, ref, pointerLabel(res.Pointer))
	case res.Kind == schema.RefLocal:
		switch res.Target.(type) {
		case map[string]any, bool:
		default:
			p.Reportf(ptr, "%s %q points at %s, which is %s, not a schema", kw, ref, pointerLabel(res.Pointer), schema.KindWithArticle(res.Target))
		}
	case res.Network:
		where := ""
		if res.URI != ref {
			where = " (" + res.URI + ")"
		}
		if p.Since("2026-07-28") {
			p.Reportf(ptr, "%s %q points at a network URI%s, which clients must not fetch, so they cannot validate the tool; copy the definition under \"$defs\" and refer to it as \"#/$defs/Name\"", kw, ref, where)
			return
		}
		p.Report(lint.Diagnostic{Severity: lint.Warning, RelPointer: ptr, Message: fmt.Sprintf(
			"%s %q points at a network URI%s, which validators that do not fetch (most, by default) cannot resolve, and which protocol 2026-07-28 forbids clients to fetch; copy the definition under \"$defs\" and refer to it as \"#/$defs/Name\"", kw, ref, where)})
	default:
		p.Reportf(ptr, "%s %q points at another document, which a client receiving this tool has no way to load; copy the definition under \"$defs\" and refer to it as \"#/$defs/Name\"", kw, ref)
	}
}

// reportRefCycles reports chains of $ref that come back to where they
// started (schema.RefCycles): each step applies to the same value, so
// validating never ends.
func reportRefCycles(p *lint.Pass, key string, root map[string]any, r *schema.Resolver, refs []string) {
	for _, cycle := range schema.RefCyclesFrom(root, r, refs) {
		p.Reportf("/"+key+cycle[0]+"/$ref", "$ref cycle %s: a validator following it applies the same schemas to the same value forever; break the cycle", cycleLabel(cycle))
	}
}

func cycleLabel(cycle []string) string {
	// A cycle through thousands of definitions is named by its ends: a
	// hundred of them, some two kilobytes, which keeps the note of how
	// many were left out inside lint.MaxMessage.
	const most = 100
	shown := cycle
	if len(cycle) > most {
		shown = append(slices.Clone(cycle[:most/2]), cycle[len(cycle)-most/2:]...)
	}
	var b strings.Builder
	for i, c := range append(shown, cycle[0]) {
		if i > 0 {
			b.WriteString(" -> ")
		}
		if i == most/2 && len(cycle) > most {
			fmt.Fprintf(&b, "… (%d more) -> ", len(cycle)-most)
		}
		b.WriteString("#" + c)
	}
	return b.String()
}
