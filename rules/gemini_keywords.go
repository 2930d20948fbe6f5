package rules

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/pointer"
)

// GeminiUnsupportedKeyword reports keywords outside Gemini's Schema.
var GeminiUnsupportedKeyword = &lint.Rule{
	ID:       "gemini-unsupported-keyword",
	Packs:    geminiPacks,
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "unlisted", Error: "Unknown name \"additionalProperties\"", Source: "nanbingxyz/5ire#42"},
	},
	Summary: "schemas use only the fields of Gemini's Schema object (an OpenAPI 3.0 subset)",
	Fix:     lint.MixedFix,
	Check:   checkGeminiUnsupportedKeyword,
	Defers:  []*lint.Rule{OpenAIStrictAdditionalProperties},
	Doc: `Gemini reads a function's "parameters" into a fixed message type, and any
member that is not one of its fields fails the whole request:

    Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[8].parameters.properties[1].value.items': Cannot find field.

MCP servers hit it with "$schema" (zod-to-json-schema, pydantic),
"additionalProperties" (nearly every SDK), "propertyNames",
"exclusiveMinimum", "oneOf", "allOf", and with keys that are not JSON Schema
at all. Each keyword is reported where it is, once.

The fix rewrites or removes the keyword as "mcplint convert --to gemini"
does:

  - "$schema", "$id", "$comment", "$anchor": removed (safe: nothing reads
    them once references are inlined);
  - "oneOf" becomes "anyOf": safe when no value can match two branches
    (each names another type, or each requires a property to hold other
    values), unsafe otherwise;
  - "allOf" is merged into its schema: safe when the branches combine
    (properties and required are united, bounds take the tighter), unsafe
    when two set one keyword differently (the first is kept);
  - "exclusiveMinimum"/"exclusiveMaximum" become "minimum"/"maximum": safe
    for integers (x > 3 is x >= 4), unsafe for numbers (the bound itself is
    now accepted);
  - "examples" becomes "example" (its first value);
  - anything else is removed: safe when it constrained nothing
    ("additionalProperties": true, "uniqueItems": false), unsafe otherwise,
    and the fix says what is no longer checked.

A schema's keywords are fixed together: the fix of one rewrites every
keyword of its schema, and the fix of a lossless one only the lossless ones,
so that it stays safe and applies without --unsafe-fixes.

Two keywords get no fix. "x-mcp-header" tells MCP clients to mirror the
argument into an HTTP header; removing it changes the server's contract,
so convert drops it for Gemini instead. "additionalProperties" when the
openai-strict pack is on too: OpenAI's strict mode requires
"additionalProperties": false on every object and Gemini refuses the
keyword, so no one schema satisfies both (this holds when the rule
openai-strict-additional-properties runs, as with --strict); write one per target with
"mcplint convert --to gemini" and "mcplint convert --to openai --strict".

` + geminiField + `

Bad:

    {"type": "object", "properties": {"path": {"type": "string"}}, "additionalProperties": false}

Good:

    {"type": "object", "properties": {"path": {"type": "string"}}}

Source: nanbingxyz/5ire#42 and musistudio/claude-code-router#187
(additionalProperties); router-for-me/CLIProxyAPI#97 ($schema);
zendev-sh/zenflow#14 (propertyNames, exclusiveMinimum); kaitranntt/ccs#459
(non-JSON-Schema keys); ` + geminiSchemaSource + ` (the fields).`,
}

// geminiAdvice says what to do instead of each rewritten keyword.
var geminiAdvice = map[string]string{
	"oneOf":            "use anyOf",
	"allOf":            "merge its branches into this schema",
	"exclusiveMinimum": "use minimum",
	"exclusiveMaximum": "use maximum",
	"examples":         "use \"example\" (one value)",
}

func checkGeminiUnsupportedKeyword(p *lint.Pass) {
	// openai-strict-additional-properties adds what this rule removes.
	strict := p.Runs(OpenAIStrictAdditionalProperties)
	for _, vs := range byNode(geminiViolations(p, "unlisted")) {
		reportGeminiKeywords(p, vs, strict)
	}
}

// reportGeminiKeywords reports the keywords of one schema that are not
// fields of Gemini's Schema (vs, in the schema's keyword order).
func reportGeminiKeywords(p *lint.Pass, vs []violation, strict bool) {
	n := vs[0].node
	s := n.Value
	type finding struct {
		key    string
		losses []normalize.Loss
	}
	var found []finding
	var all, safe []string
	for _, v := range vs {
		k := v.keyword
		at := v.pointer()
		what := fmt.Sprintf("%q is not a field of Gemini's Schema, which refuses the request (Unknown name %q)", k, k)
		switch {
		case k == "x-mcp-header":
			p.Reportf(at, "%s; MCP clients need it to mirror the argument into a header, so keep it here and let mcplint convert --to gemini drop it for Gemini", what)
			continue
		case k == "additionalProperties" && strict:
			p.Reportf(at, "%s, while OpenAI's strict mode (openai-strict-additional-properties, also selected) requires \"additionalProperties\": false on every object; no schema satisfies both: write one per target with mcplint convert --to gemini and --to openai --strict", what)
			continue
		}
		_, losses := normalize.GeminiRewrite(s, k, n.Pointer())
		found = append(found, finding{k, losses})
		all = append(all, k)
		if len(losses) == 0 {
			safe = append(safe, k)
		}
	}
	if len(found) == 0 {
		return
	}
	// One fix rewrites every keyword of the node at once: fixes of one
	// object's members overlap, and one keyword per round would not
	// reach a fixed point on a node with many (a zod shape, say).
	// A lossless keyword's fix takes only the lossless ones, so that it
	// stays safe.
	safeFix, allFix := geminiKeywordsFix(s, safe, n.Pointer()), geminiKeywordsFix(s, all, n.Pointer())
	for _, f := range found {
		advice := geminiAdvice[f.key]
		if advice == "" {
			advice = "remove it"
		}
		fix := allFix
		if len(f.losses) == 0 {
			fix = safeFix
		}
		p.ReportFix(n.Pointer()+"/"+pointer.Escape(f.key), fix,
			"%q is not a field of Gemini's Schema, which refuses the request (Unknown name %q); %s%s", f.key, f.key, advice, lossNote(f.losses))
	}
}

// geminiKeywordsFix rewrites the keywords of the node at ptr one after the
// other, as normalize.GeminiRewrite does; it is safe when nothing is lost.
func geminiKeywordsFix(s map[string]any, keys []string, ptr string) *lint.Fix {
	cur := s
	var losses []normalize.Loss
	var names []string
	for _, k := range keys {
		if _, ok := cur[k]; !ok {
			continue // an earlier rewrite took it (allOf merging, say)
		}
		var ls []normalize.Loss
		cur, ls = normalize.GeminiRewrite(cur, k, ptr)
		losses = append(losses, ls...)
		names = append(names, fmt.Sprintf("%q", k))
	}
	return lint.DiffFix("rewrite or remove "+strings.Join(names, ", ")+" as Gemini's subset allows"+lossNote(losses), len(losses) == 0, ptr, s, cur)
}
