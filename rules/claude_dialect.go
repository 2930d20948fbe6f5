package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// anthropic2020Error is the Anthropic API's refusal of an input_schema that
// is not valid 2020-12.
const anthropic2020Error = "JSON schema is invalid. It must match JSON Schema draft 2020-12"

// ClaudeSchema2020 reports what the 2020-12 metaschema refuses in an input
// schema that declares an older dialect.
var ClaudeSchema2020 = &lint.Rule{
	ID:       "claude-schema-2020-12",
	Packs:    []string{"claude"},
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.Anthropic, Line: "draft-2020-12", Error: anthropic2020Error, Source: "anthropics/claude-code#586"},
	},
	Summary: "inputSchema is valid JSON Schema 2020-12 even when it declares an older dialect",
	Fix:     lint.MixedFix,
	Check:   checkClaudeSchema2020,
	Doc: `The Anthropic Messages API validates every tool's input_schema against
the JSON Schema 2020-12 metaschema, whatever dialect its "$schema" declares,
and refuses the whole request when one fails, so in Claude Code and Claude
Desktop one such tool makes every tool of every server unusable:

    tools.74.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12)

A schema that declares draft-04, draft-06, draft-07 or 2019-09 can be valid
under its dialect and still fail there. The constructs that do:

  - a tuple written as an "items" array (draft-04 to 2019-09), which
    zod-to-json-schema (the TypeScript SDK's converter for Zod 3) and Zod 4's
    draft-07 target emit for z.tuple; 2020-12 writes it "prefixItems", and
    "additionalItems" becomes "items";
  - draft-04's boolean "exclusiveMinimum"/"exclusiveMaximum"; 2020-12 takes
    the bound itself;
  - an "$id" with a fragment ("#node"), draft-06 and draft-07's way to name
    an anchor; 2020-12 writes "$anchor";
  - 2019-09's "$recursiveAnchor": true; 2020-12 writes "$dynamicAnchor";
  - an anchor name with ":", which 2020-12 no longer allows.

Each such keyword is reported. A "$schema" of draft-07 alone is not a
problem: the API accepts it when the rest is valid 2020-12. What is invalid
under the schema's own dialect is schema-valid's finding, not this rule's;
so is a schema without "$schema" when protocol 2025-11-25 or later is
checked, since MCP then reads it as 2020-12. Checking only older versions,
where the TypeScript SDK read such a schema as draft-07, this rule reports
it.

The fix rewrites the schema as 2020-12 with the same meaning and removes
"$schema" (2020-12 is MCP's default dialect; a declared 2020-12 URI is
refused by clients whose validator only knows draft-07): tuples become
"prefixItems", "dependencies" is split into "dependentRequired" and
"dependentSchemas", boolean bounds become numbers, fragment ids become
anchors, keywords that draft-07 ignored beside "$ref" are removed (their
annotations, such as "description", stay), 2019-09 recursion becomes
"$dynamicRef", and references follow what moved. The fix is safe when the
meaning is kept exactly, and unsafe otherwise (a keyword the declared
dialect does not know, which its validators ignore and 2020-12 applies,
for one), with the difference in its message. While the schema is invalid
under its own dialect there is no fix.

Bad:

    "inputSchema": {
      "$schema": "http://json-schema.org/draft-07/schema#",
      "type": "object",
      "properties": {"range": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}}
    }

Good:

    "inputSchema": {
      "type": "object",
      "properties": {"range": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]}}
    }

Source: the Anthropic API's error, quoted in anthropics/claude-code#586 (a
draft-07 schema from the TypeScript SDK) and mapbox/mcp-server#22;
AlexGladkov/claude-in-mobile#57 and openclaw/openclaw#98588 trace it to the
"items" array of z.tuple; JSON Schema 2020-12 release notes
(https://json-schema.org/draft/2020-12/release-notes) and its metaschema.`,
}

func checkClaudeSchema2020(p *lint.Pass) {
	root, ok := p.Value["inputSchema"].(map[string]any)
	if !ok {
		return
	}
	d, declared := schema.Dialect(root)
	assumed := ""
	switch {
	case d == schema.UnknownDraft, d == schema.Draft2020 && declared != "":
		return
	case declared == "" && p.Since("2025-11-25"):
		return // read as 2020-12: schema-valid reports what fails
	case declared == "":
		d, assumed = schema.Draft7, schema.Draft7
	}
	c := schemaChecker(p)
	bare := make(map[string]any, len(root))
	for k, v := range root {
		if k != "$schema" {
			bare[k] = v
		}
	}
	refused := c.Problems(bare, schema.Draft2020)
	if len(refused) == 0 {
		return
	}
	own := c.Problems(root, d)
	if declared == "" && len(own) > 0 {
		return // invalid both ways: schema-valid reports it
	}
	invalidAt := map[string]bool{}
	for _, pr := range own {
		invalidAt[pr.Pointer] = true
	}
	declaredAs := fmt.Sprintf("declares %s", d)
	if declared == "" {
		declaredAs = "declares no \"$schema\" (before protocol 2025-11-25 a client may read it as draft-07, where it is valid)"
	}
	fix, how := dialectFix(c, "/inputSchema", root, assumed, len(own) > 0)
	for _, pr := range refused {
		if invalidAt[pr.Pointer] {
			continue
		}
		p.ReportFix("/inputSchema"+pr.Pointer, fix,
			"inputSchema %s, but at %s %s; the Anthropic API reads every input_schema as JSON Schema 2020-12 and refuses the whole request: %s",
			declaredAs, pointerLabel(pr.Pointer), refusedIn2020(root, pr, d), how)
	}
}

// refusedIn2020 says why the 2020-12 metaschema refuses the keyword at
// pr.Pointer of a schema written for dialect d.
func refusedIn2020(root map[string]any, pr schema.Problem, d string) string {
	v, _ := schema.Get(root, pr.Pointer)
	kw := pr.Pointer[strings.LastIndexByte(pr.Pointer, '/')+1:]
	switch _, isList := v.([]any); {
	case kw == "items" && isList:
		return fmt.Sprintf("a tuple is an \"items\" array, the %s form; 2020-12 writes it \"prefixItems\" (and \"additionalItems\" as \"items\")", d)
	case (kw == "exclusiveMinimum" || kw == "exclusiveMaximum") && schema.Kind(v) == "boolean":
		return fmt.Sprintf("%q is a boolean, draft-04's form; 2020-12 takes the bound itself (\"%s\": <%s>)", kw, kw, strings.ToLower(strings.TrimPrefix(kw, "exclusive")))
	case kw == "$recursiveAnchor":
		return "\"$recursiveAnchor\" is 2019-09's; 2020-12 writes \"$dynamicAnchor\" (and \"$dynamicRef\" for \"$recursiveRef\")"
	case kw == "$id" && strings.Contains(fmt.Sprint(v), "#"):
		return fmt.Sprintf("\"$id\": %q names an anchor by its fragment; 2020-12 writes \"$anchor\"", v)
	case kw == "$anchor" || kw == "$dynamicAnchor":
		return fmt.Sprintf("the anchor name %q has characters 2020-12 does not allow in one (it wants ^[A-Za-z_][-A-Za-z0-9._]*$)", v)
	}
	return "the 2020-12 metaschema refuses it: " + pr.Message
}

// dialectFix is the fix of both dialect rules: the schema at member
// rewritten as 2020-12 (normalize.Draft2020). It is nil, with the reason,
// while the schema is invalid under its own dialect or when the rewrite
// is not valid 2020-12; unsafe, with what changes, when the rewrite is not
// exact. how is the end of a finding's message.
func dialectFix(c *schema.Checker, member string, root map[string]any, assumed string, invalid bool) (fix *lint.Fix, how string) {
	if invalid {
		return nil, "rewrite it as 2020-12 (no automatic fix while the schema is invalid under its own dialect: see schema-valid)"
	}
	fixed, losses := normalize.Draft2020From(root, assumed)
	if len(c.Problems(fixed, schema.Draft2020)) > 0 {
		return nil, "rewrite it as 2020-12 (no automatic fix: the rewrite would not be valid 2020-12)"
	}
	fix = &lint.Fix{
		Message: "rewrite the schema as JSON Schema 2020-12 and remove \"$schema\" (2020-12 is MCP's default dialect)",
		Safe:    len(losses) == 0,
		Edits:   lint.Diff(member, root, fixed),
	}
	if fix.Safe {
		return fix, "rewrite it as 2020-12 (the fix does, with the same meaning)"
	}
	what := lossSummary(losses)
	fix.Message += "; not exact: " + what
	return fix, "rewrite it as 2020-12 (the unsafe fix does, but not exactly: " + what + ")"
}

// lossSummary says what a rewrite could not keep, once per kind of loss,
// naming the keywords of each where the loss does not.
func lossSummary(losses []normalize.Loss) string {
	var order []string
	keywords := map[string][]string{}
	for _, l := range losses {
		if _, seen := keywords[l.What]; !seen {
			order = append(order, l.What)
			keywords[l.What] = nil
		}
		if q := strconv.Quote(l.Keyword); l.Keyword != "" && !strings.Contains(l.What, q) && !slices.Contains(keywords[l.What], q) {
			keywords[l.What] = append(keywords[l.What], q)
		}
	}
	out := make([]string, len(order))
	for i, w := range order {
		out[i] = w
		if kws := keywords[w]; len(kws) > 0 {
			out[i] += " (" + strings.Join(kws, ", ") + ")"
		}
	}
	return strings.Join(out, "; ")
}

// ClaudeOutputSchemaDialect reports an output schema that declares a
// dialect other than 2020-12.
var ClaudeOutputSchemaDialect = &lint.Rule{
	ID:       "claude-output-schema-dialect",
	Packs:    []string{"claude"},
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.ClaudeCode, Line: "output-dialect", Error: claudeDialectError, Source: "anthropics/claude-code#88882"},
		{Consumer: consumer.ClaudeAI, Line: "output-dialect", Error: claudeDialectError, Source: "ankimcp/anki-mcp-server-addon#75"},
	},
	Summary: "outputSchema declares no \"$schema\" other than JSON Schema 2020-12",
	Fix:     lint.MixedFix,
	Check:   checkClaudeOutputSchemaDialect,
	Doc: `Claude Code and Claude Desktop check a tool's structured results against its
outputSchema with a validator that supports JSON Schema 2020-12 only. An
outputSchema whose "$schema" names another dialect lists fine, and then
every call of the tool fails before its result reaches the model:

    Error: Tool 'list_allowed_directories' has an invalid outputSchema: JSON Schema declares an unsupported dialect ("$schema": "http://json-schema.org/draft-07/schema#"). The default validator supports JSON Schema 2020-12 only

The TypeScript SDK's servers write "$schema": "http://json-schema.org/draft-07/schema#"
into every outputSchema they build from Zod, so this hits most TypeScript
servers with structured output. The SDK's own client (1.x) accepts it; the
specification does too, since a schema may declare its dialect.

A "$schema" that names draft-04, draft-06, draft-07 or 2019-09 is reported
(a dialect mcplint does not know is schema-valid's finding). The fix
rewrites the schema as 2020-12 with the same meaning and removes "$schema",
as claude-schema-2020-12 does for input schemas (see there for the rewrites).
Removing it rather than declaring 2020-12 keeps the tool working with
clients whose validator knows only draft-07, which refuse a declared 2020-12
URI ("no schema with key or ref"). The fix is safe when the rewrite is exact,
unsafe with the difference in its message otherwise.

Bad:

    "outputSchema": {
      "$schema": "http://json-schema.org/draft-07/schema#",
      "type": "object",
      "properties": {"content": {"type": "string"}},
      "required": ["content"]
    }

Good:

    "outputSchema": {
      "type": "object",
      "properties": {"content": {"type": "string"}},
      "required": ["content"]
    }

Source: anthropics/claude-code#88882, #86142 and #90549 (Claude Code and
Claude Desktop, the error above); ankimcp/anki-mcp-server-addon#75,
DAWNCR0W/affine-mcp-server#292 and kintone/mcp-server#550 (Claude Desktop and
its remote connectors); modelcontextprotocol/typescript-sdk#2532 (the SDK's
2020-12-only validator); HexSleeves/tailscale-mcp#46 (a declared 2020-12
URI refused by a draft-07 validator).`,
}

// claudeDialectError is the refusal Claude Code and Claude Desktop show.
const claudeDialectError = "has an invalid outputSchema: JSON Schema declares an unsupported dialect (\"$schema\": \"http://json-schema.org/draft-07/schema#\"). The default validator supports JSON Schema 2020-12 only"

func checkClaudeOutputSchemaDialect(p *lint.Pass) {
	root, ok := p.Value["outputSchema"].(map[string]any)
	if !ok {
		return
	}
	d, declared := schema.Dialect(root)
	if declared == "" || d == schema.Draft2020 || d == schema.UnknownDraft {
		return
	}
	c := schemaChecker(p)
	fix, how := dialectFix(c, "/outputSchema", root, "", len(c.Problems(root, d)) > 0)
	p.ReportFix("/outputSchema/$schema", fix,
		"outputSchema declares %s (%q); Claude Code and Claude Desktop check results with a validator that supports JSON Schema 2020-12 only, so every call of the tool fails: %s",
		d, declared, how)
}
