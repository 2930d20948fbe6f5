package rules

import (
	"fmt"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// RequiredInProperties reports "required" names that no schema declares.
var RequiredInProperties = &lint.Rule{
	ID:       "required-in-properties",
	Packs:    []string{"mcp"},
	Subject:  "required-names",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Error: "property is not defined", Source: "Kilo-Org/kilocode#11955"},
		{Consumer: consumer.OpenAIStrict, Line: "all-required", Error: "'required' is required to be supplied and to be an array including every key in properties", Source: "dotnet/extensions#6302"},
	},
	Summary: "every name in \"required\" is declared in \"properties\"",
	Fix:     lint.UnsafeFix,
	Check:   checkRequiredInProperties,
	Doc: `A name in "required" that "properties" does not declare is a property the
caller must send but knows nothing about: no type, no description. The model
either leaves it out, and the call fails validation, or invents a value.
It is nearly always a leftover: a renamed or removed field whose name
stayed in "required" (a typo, a refactor that missed one list, a
hand-merged schema). Providers refuse it outright: Gemini rejects the whole
request ("parameters.required[0]: property is not defined"), and OpenAI's
strict mode wants "required" to match "properties" exactly.

The rule looks at every schema of inputSchema and outputSchema, nested ones
included. A name counts as declared when "properties" has it, a
"patternProperties" pattern matches it, or "additionalProperties" (or
"unevaluatedProperties") gives undeclared properties a schema, in the
schema holding "required" or in any schema combined with it: its allOf,
anyOf and oneOf branches, if/then/else, dependentSchemas and "$ref"
targets, and, when it is itself such a branch, its parent and siblings (so
{"anyOf": [{"required": ["a"]}, {"required": ["b"]}]} next to properties a
and b is fine), and, for a definition, every schema that references it. A
reference that does not resolve, or a pattern Go cannot compile, counts as
declaring everything, to stay quiet rather than guess.

JSON Schema allows the shape, and MCP says nothing against it, so this is a
warning, except where the same schema also forbids undeclared properties
("additionalProperties": false): then no value satisfies the schema, the
tool can never be called (or never return a valid result), and the finding
is an error.

The fix drops the undeclared names from "required" (and "required" itself
when it becomes empty). It is unsafe: a property that had to be present
becomes optional. If the name is meant, declare it in "properties" instead,
with a type and a description.

Bad:

    {"type": "object", "properties": {"userId": {"type": "string"}}, "required": ["user_id"]}

Good:

    {"type": "object", "properties": {"userId": {"type": "string"}}, "required": ["userId"]}

Source: JSON Schema 2020-12 Validation, "required"; Gemini API,
iBUHub/AIStudioToAPI#154 ("function_declarations[1].parameters.required[0]:
property is not defined", Playwright MCP tools); OpenAI strict mode,
Gitlawb/openclaude#1121 (orphan "required" keys in MCP tool schemas).`,
}

func checkRequiredInProperties(p *lint.Pass) {
	for _, member := range lint.SchemaMembers {
		if !undeclaredRequired(p.Schema(member)) {
			continue
		}
		// A name is missing from its own schema's "properties": whether
		// another schema declares it takes the whole schema.
		root := p.Value[member]
		var dropped any // the fixed schema, built for the first fix
		for _, d := range normalize.DanglingRequired(root) {
			ptr := "/" + member + d.Pointer + "/required"
			fix := &lint.Fix{Message: "drop " + quoteAll(d.Names) + " from \"required\"", Build: func() []manifest.Edit {
				if dropped == nil {
					dropped = normalize.DropDanglingRequired(root)
				}
				old, _ := schema.Get(root, d.Pointer+"/required")
				if kept, ok := schema.Get(dropped, d.Pointer+"/required"); ok {
					return lint.Diff(ptr, old, kept)
				}
				return []manifest.Edit{{Op: manifest.Remove, Pointer: ptr}}
			}}
			node, _ := schema.Get(root, d.Pointer)
			diag := lint.Diagnostic{RelPointer: ptr, Fix: fix, Message: requiredMessage(member, d, node)}
			if d.Unsatisfiable {
				diag.Severity = lint.Error
			}
			p.Report(diag)
		}
	}
}

// undeclaredRequired reports whether a schema of the tree has a "required"
// name its own "properties" does not declare, which nearly no schema has:
// only then is the whole schema searched for where else it is declared.
func undeclaredRequired(t *schema.Tree) bool {
	found := false
	t.Walk(func(n *schema.Node) bool {
		req, _ := n.Value["required"].([]any)
		props, _ := n.Value["properties"].(map[string]any)
		for _, r := range req {
			name, ok := r.(string)
			if _, declared := props[name]; ok && !declared {
				found = true
			}
		}
		return !found
	})
	return found
}

func requiredMessage(member string, d normalize.Dangling, node any) string {
	names, verb, it := quoteAll(d.Names), "is", "it"
	if len(d.Names) > 1 {
		verb, it = "are", "them"
	}
	msg := fmt.Sprintf("\"required\" lists %s, which %s not declared in \"properties\"; declare %s there (with a type and a description) or drop %s from \"required\"", names, verb, it, it)
	if d.Unsatisfiable {
		what := "no arguments satisfy this schema"
		if member == "outputSchema" {
			what = "no result satisfies this schema"
		}
		kw := "additionalProperties"
		if s, _ := node.(map[string]any); s != nil && s[kw] != false {
			kw = "unevaluatedProperties"
		}
		msg += fmt.Sprintf(" (with %q false here, %s)", kw, what)
	}
	return msg
}
