package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

var openaiStrictRules = []*lint.Rule{OpenAIStrictAdditionalProperties, OpenAIStrictRequired, OpenAIStrictKeywords, OpenAIStrictLimits}

// rewrittenKeywords hold subschemas that the strict fixes merge or remove
// (and root combinators, which openai-root-object merges). The strict
// rules do not look inside them: closing or requiring there would change
// what the merge gives, or constrain a schema about to go.
var rewrittenKeywords = []string{"allOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"}

// pendingMerge reports whether a fix will merge branches into the schema at
// n: openai-strict-keywords its allOf, openai-root-object the root's
// combinators. Closing or requiring it first would change the merge (a
// closed root refuses the properties its branches would bring).
func pendingMerge(n *schema.Node) bool {
	if _, ok := n.Value["allOf"]; ok {
		return true
	}
	return n.Parent == nil && normalize.HasRootCombinator(n.Value)
}

// walkStrict visits the input schema's subschemas, but not those below
// rewrittenKeywords, nor below the root's anyOf and oneOf.
func walkStrict(p *lint.Pass, fn func(n *schema.Node)) {
	p.Schema("inputSchema").Walk(func(n *schema.Node) bool {
		if strictSkips(n) {
			return false
		}
		fn(n)
		return true
	})
}

// strictSkips reports whether the strict rules leave the schema at n, and
// those below it, alone; strictSkipped whether they leave n.
func strictSkips(n *schema.Node) bool {
	return slices.Contains(rewrittenKeywords, n.Keyword) ||
		n.Parent != nil && n.Parent.Parent == nil && (n.Keyword == "anyOf" || n.Keyword == "oneOf")
}

func strictSkipped(n *schema.Node) bool {
	for ; n != nil; n = n.Parent {
		if strictSkips(n) {
			return true
		}
	}
	return false
}

// strictGuide is the document the strict rules cite.
const strictGuide = `OpenAI Structured Outputs guide, "Supported schemas"
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
also https://developers.openai.com/api/docs/guides/structured-outputs); OpenAI
function-calling guide, "Strict mode"
(https://platform.openai.com/docs/guides/function-calling#strict-mode)`

// OpenAIStrictAdditionalProperties demands closed objects.
var OpenAIStrictAdditionalProperties = &lint.Rule{
	ID:       "openai-strict-additional-properties",
	Packs:    []string{"openai-strict"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.OpenAIStrict, Line: "closed", Error: "'additionalProperties' is required to be supplied and to be false", Source: "letta-ai/letta#3137"},
	},
	Summary: "in strict mode, every object schema has \"additionalProperties\": false",
	Fix:     lint.UnsafeFix,
	Check:   checkStrictAdditionalProperties,
	Doc: `With "strict": true, OpenAI constrains the model's output to the parameters
schema (Structured Outputs), and refuses a schema where any object, at any
depth and in any definition, lacks "additionalProperties": false:

    Invalid schema for function 'my_tool': In context=('properties', 'fields'), 'additionalProperties' is required to be supplied and to be false.

Strict mode is chosen by the client, not the server: pydantic-ai may turn
it on by itself (makenotion/notion-mcp-server#102), Spring AI offers it for
MCP tools (spring-projects/spring-ai#6865), so an MCP server's schemas meet
it without warning.

The fix adds "additionalProperties": false. It is unsafe because it narrows
the contract for every client, not only OpenAI: arguments with keys the
schema does not name, which the server accepted (and probably ignored),
are refused by a client that validates them. An object whose
"additionalProperties" is true or a schema (a map with free keys) has no
strict form at all and gets no fix: strict mode cannot express it; turn the
map into a list of key/value objects, or leave strict mode off for that
tool.

Bad:

    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}

Good:

    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false}

Source: ` + strictGuide + ` ("additionalProperties: false must always be set
in objects"); the error as quoted in letta-ai/letta#3137 and
spring-projects/spring-ai#6865.`,
}

func checkStrictAdditionalProperties(p *lint.Pass) {
	if _, ok := openaiInput(p); !ok {
		return
	}
	for _, v := range strictFindings(p, "closed") {
		s := v.node.Value
		if pendingMerge(v.node) {
			continue
		}
		ptr := v.node.Pointer()
		if ap, has := s["additionalProperties"]; has {
			p.Reportf(ptr+"/additionalProperties", "\"additionalProperties\" is %s, an open map, and strict mode requires false on every object: no strict schema accepts free keys, so turn the map into a list of key/value objects or do not use strict mode for this tool", schema.Compact(ap))
			continue
		}
		p.ReportFix(ptr, &lint.Fix{Message: "add \"additionalProperties\": false (other keys are then refused)", Build: func() []manifest.Edit {
			fixed, _ := normalize.StrictClose(s)
			return lint.Diff(ptr, s, fixed)
		}}, "object schema without \"additionalProperties\": false, which OpenAI's strict mode requires of every object; add it")
	}
}

// OpenAIStrictRequired demands that every property be required.
var OpenAIStrictRequired = &lint.Rule{
	ID:       "openai-strict-required",
	Packs:    []string{"openai-strict"},
	Subject:  "required-names",
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.OpenAIStrict, Line: "all-required", Error: "'required' is required to be supplied and to be an array including every key in properties", Source: "OpenAI Structured Outputs guide, \"Supported schemas\""},
	},
	Summary: "in strict mode, \"required\" lists every key of \"properties\" and no other; optional ones are nullable",
	Fix:     lint.UnsafeFix,
	Check:   checkStrictRequired,
	Doc: `Strict mode has no optional properties: OpenAI refuses an object whose
"required" does not list every key of its "properties":

    Invalid schema for function 'search': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'max_results'.

The documented way to keep a property optional is to make it required and
nullable: the model then sends null for "absent".

The fix lists every property in "required" and makes each one that was
optional accept null: "null" joins its "type" (and null its "enum"), a
{"type": "null"} branch joins its "anyOf", or the schema (a "$ref", a
"const", a combinator) is wrapped as {"anyOf": [<schema>, {"type": "null"}]}
with its description kept beside. It is unsafe: the server now receives
null where the argument used to be absent, and must treat null as absent
(a handler that applies defaults only to missing keys, or validates types
strictly, breaks). Properties that already accept null are only added to
"required"; they too arrive as null rather than absent.

The other way round, "required" may list only declared properties:

    Invalid schema for function 'import_recipe': In context=(), 'required' must be an array that includes every key in ` + "`properties`" + `. Extra required key 'recipe' supplied.

A name "required" lists that the object's own "properties" does not
declare is reported too (strict mode judges each object by itself, so a
name declared in an anyOf branch or a referenced definition does not
count). Its fix drops the name from "required" (unsafe: nothing asks the
model for it any more); if the property is meant, declare it instead.

Bad:

    {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"], "additionalProperties": false}

Good:

    {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": ["integer", "null"]}}, "required": ["query", "limit"], "additionalProperties": false}

Source: ` + strictGuide + ` ("All fields must be required", with optional
fields emulated by a union type with "null"); the error as quoted in
trino's OpenAI tool conversion and in codex CLI reports; the extra key's
error as quoted in dotnet/extensions#6302.`,
}

func checkStrictRequired(p *lint.Pass) {
	if _, ok := openaiInput(p); !ok {
		return
	}
	walkStrict(p, func(n *schema.Node) {
		s := n.Value
		if pendingMerge(n) {
			return
		}
		// Every problem of the object is reported at once, with one fix
		// that mends them all: reported one at a time, the next showed
		// only after a fix.
		extra, missing := normalize.UndeclaredRequired(s), normalize.MissingRequired(s)
		if len(extra) == 0 && len(missing) == 0 {
			return
		}
		ptr := n.Pointer()
		build := func() []manifest.Edit {
			fixed, _ := normalize.StrictRequired(s)
			return lint.Diff(ptr, s, fixed)
		}
		if len(extra) > 0 {
			names := quoteAll(extra)
			p.ReportFix(ptr+"/required", &lint.Fix{
				Message: "drop " + names + " from \"required\" (nothing asks the model for them any more)" + alsoRequire(missing),
				Build:   build,
			}, "strict mode refuses names in \"required\" that \"properties\" does not declare (\"Extra required key supplied\"), and %s %s not declared; declare them, or drop them from \"required\"", names, english.Plural(len(extra), "is", "are"))
		}
		if len(missing) > 0 {
			names := quoteAll(missing)
			msg := "require " + names + " and make them nullable (the server then receives null where they were absent)"
			if len(extra) > 0 {
				msg += ", and drop " + quoteAll(extra) + " from \"required\""
			}
			p.ReportFix(ptr, &lint.Fix{Message: msg, Build: build},
				"strict mode requires every property in \"required\", and %s %s missing; list them and make them nullable, so the model sends null for \"absent\"", names, english.Plural(len(missing), "is", "are"))
		}
	})
}

// alsoRequire is the end of a fix message that drops names from
// "required" and also requires the missing ones.
func alsoRequire(missing []string) string {
	if len(missing) == 0 {
		return ""
	}
	return ", and require " + quoteAll(missing) + " (nullable)"
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// OpenAIStrictKeywords reports the keywords strict mode refuses.
var OpenAIStrictKeywords = &lint.Rule{
	ID:       "openai-strict-keywords",
	Packs:    []string{"openai-strict"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.OpenAIStrict, Line: "unlisted", Error: "'uniqueItems' is not permitted", Source: "1jehuang/jcode#687"},
		{Consumer: consumer.OpenAIStrict, Line: "composition", Error: "'allOf' is not permitted", Source: "makenotion/notion-mcp-server#102"},
		{Consumer: consumer.OpenAIStrict, Line: "length-and-default", Source: "openai/openai-node#1988"},
		{Consumer: consumer.OpenAIStrict, Line: "object-keywords", Error: "'propertyNames' is not permitted", Source: "can1357/oh-my-pi#209"},
		{Consumer: consumer.OpenAIStrict, Line: "array-unsupported", Error: "'uniqueItems' is not permitted", Source: "1jehuang/jcode#687"},
		{Consumer: consumer.OpenAIStrict, Line: "types", Source: "OpenAI Structured Outputs guide, \"Supported types\""},
		{Consumer: consumer.OpenAIStrict, Line: "format", Error: "'uri' is not a valid format", Source: "cyanheads/git-mcp-server#47"},
		{Consumer: consumer.OpenAIStrict, Line: "pattern", Source: "pydantic/pydantic-ai profiles/openai.py"},
		{Consumer: consumer.OpenAIStrict, Line: "typed", Error: "schema must have a 'type' key", Source: "can1357/oh-my-pi#210"},
		{Consumer: consumer.OpenAIStrict, Line: "ref-siblings", Error: "$ref cannot have keywords {'description'}", Source: "openai/openai-python src/openai/lib/_pydantic.py"},
	},
	Summary: "in strict mode, schemas use only supported keywords: no allOf, oneOf, not, if/then/else, dependentRequired/dependentSchemas, propertyNames, keywords beside $ref, or typeless schemas",
	Fix:     lint.MixedFix,
	Check:   checkStrictKeywords,
	Doc: `Strict mode supports a subset of JSON Schema. OpenAI's guide lists the
composition keywords allOf, not, dependentRequired, dependentSchemas, if,
then and else as unsupported, and anyOf as the only supported combinator;
the API answers, for instance:

    Invalid schema for function 'notion-update-page': In context=('properties', 'data'), 'allOf' is not permitted.
    In context=('properties', 'events', 'items'), $ref cannot have keywords {'description'}.
    In context=('properties', 'slide_instructions', 'items'), schema must have a 'type' key.

The rule reports, at any depth and in definitions: those keywords, oneOf,
"$ref" with keywords beside it, and schemas with no "type" (and no "$ref",
"anyOf", "enum" or "const" to stand for one; "items": {} is one). At the
root, anyOf, oneOf, allOf and not are openai-root-object's findings.
Draft-07's "dependencies" counts as dependentRequired and dependentSchemas.

Fixes, where a faithful rewrite exists (safe):

  - oneOf becomes anyOf when no value can match two branches: their types
    do not meet, their const/enum values do not, or a property both
    require has const/enum values that do not (a discriminator);
  - allOf whose branches are plain object schemas ("type": "object",
    "properties", "required", nothing else, no property declared twice
    differently) is merged into the schema; allOf with one branch becomes
    anyOf with that branch, which accepts the same;
  - "$ref" with keywords beside it moves into "anyOf": [{"$ref": ...}] with
    the keywords kept beside (the same meaning from 2019-09 on; in draft-07
    and older, where they are ignored, constraining keywords are dropped,
    annotations kept); a root "$ref" is inlined instead, since anyOf may
    not stand at the root.

"default", "minLength" and "maxLength" are refused too: OpenAI's own SDK
documents that strict mode "can reject" them (openai/openai-node#1988). So
is "propertyNames" ("'propertyNames' is not permitted", can1357/oh-my-pi#209,
as Zod 4 writes it for every record).

Otherwise the keyword is removed and the fix, unsafe, names what is lost:
not, if/then/else and the dependent keywords no longer constrain the value;
a removed length bound or default is the server's to apply (and a
removed "propertyNames" costs nothing once the object is closed);
a oneOf whose branches may overlap accepts values matching several; an
allOf that cannot be merged no longer applies. A typeless schema has no fix
(which types it takes is the author's choice); "mcplint convert --to
openai --strict" gives it string, number, boolean and null, and says so.

Not checked: other keywords the guide marks unsupported only for
fine-tuned models (patternProperties, uniqueItems, ...), and format values
outside the documented list, for which no refusal is documented.

Bad:

    "target": {"oneOf": [{"type": "string"}, {"type": "integer"}], "not": {"const": ""}}

Good:

    "target": {"anyOf": [{"type": "string"}, {"type": "integer"}]}

Source: ` + strictGuide + ` (anyOf is its only combinator, as in Azure
OpenAI's structured-outputs documentation quoted in ai-dynamo/dynamo#15153);
errors quoted in makenotion/notion-mcp-server#102 (allOf),
can1357/oh-my-pi#210 and pydantic/pydantic-ai#4706 (a schema without type).`,
}

// rootOwned are the root keywords openai-root-object reports.
var rootOwned = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "not": true, "enum": true, "const": true}

func checkStrictKeywords(p *lint.Pass) {
	v, ok := openaiInput(p)
	if !ok {
		return
	}
	root, ok := v.(map[string]any)
	if !ok {
		return
	}
	d, _ := schema.Dialect(root)
	ignored := schema.RefSiblingsIgnored(d)
	found := map[*schema.Node][]violation{}
	for _, f := range strictFindings(p, strictKeywordLines...) {
		found[f.node] = append(found[f.node], f)
	}
	walkStrict(p, func(n *schema.Node) {
		s := n.Value
		isRoot := n.Parent == nil
		var keywords, values []string
		typeless := false
		for _, v := range found[n] {
			switch {
			case v.line.ID == "typed":
				typeless = true
			case v.line.Kind == consumer.Values:
				values = append(values, v.keyword)
			case !isRoot || !rootOwned[v.keyword]:
				keywords = append(keywords, v.keyword)
			}
		}
		if _, tuple := s["items"].([]any); tuple {
			keywords = append(keywords, "items")
		}
		sort.Strings(keywords)
		sib := normalize.RefSiblings(s)
		if len(keywords) > 0 || len(values) > 0 || len(sib) > 0 {
			reportStrictKeywords(p, s, n.Pointer(), keywords, values, sib, isRoot, ignored)
		}
		if typeless && len(keywords) == 0 {
			p.Reportf(n.Pointer(), "schema without \"type\", which strict mode refuses (\"schema must have a 'type' key\"); say what it holds (\"type\": \"string\", a type list, or anyOf of typed schemas)")
		}
	})
}

// strictKeywordLines are the lines of the strict profile that
// openai-strict-keywords reports: every keyword and value it does not
// take, and schemas without a type.
var strictKeywordLines = []string{"unlisted", "composition", "length-and-default", "object-keywords", "array-unsupported", "types", "format", "pattern", "typed"}

// strictFindings are the violations of lines of the strict profile, in
// the schemas the strict rules look at (walkStrict's).
func strictFindings(p *lint.Pass, lines ...string) []violation {
	return slices.DeleteFunc(slices.Clone(violationsOf(p, consumer.OpenAIStrict, lines...)), func(v violation) bool {
		return v.node != nil && strictSkipped(v.node)
	})
}

func reportStrictKeywords(p *lint.Pass, s map[string]any, ptr string, found, values, sib []string, isRoot, ignored bool) {
	var what, hints []string
	if len(found) > 0 {
		what = append(what, quoteAll(found)+" ("+english.Plural(len(found), "a keyword", "keywords")+" strict mode does not support)")
	}
	for _, k := range values {
		switch k {
		case "format":
			what = append(what, "format "+schema.Compact(s[k])+", which is not one of strict mode's formats (date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid: \"'uri' is not a valid format\")")
		case "pattern":
			what = append(what, "a pattern with a lookaround, which strict mode may refuse")
		default:
			what = append(what, fmt.Sprintf("%q %s, a value strict mode does not support", k, schema.Compact(s[k])))
		}
	}
	if len(sib) > 0 {
		what = append(what, "keywords beside \"$ref\" ("+quoteAll(sib)+"), which strict mode refuses")
	}
	for _, k := range found {
		switch k {
		case "oneOf":
			hints = append(hints, "write oneOf as anyOf (the same when no value matches two branches)")
		case "allOf":
			hints = append(hints, "merge the allOf branches into the schema")
		}
	}
	if len(found) > len(hints) {
		hints = append(hints, "express the other constraints through supported keywords, or check them in the server")
	}
	if len(values) > 0 {
		hints = append(hints, "say the "+strings.Join(values, " and ")+" in the description instead")
	}
	switch {
	case len(sib) > 0 && isRoot:
		hints = append(hints, "inline the referenced definition at the root (anyOf may not stand there)")
	case len(sib) > 0:
		hints = append(hints, "move \"$ref\" into \"anyOf\": [{\"$ref\": ...}] and keep the keywords beside it")
	}
	at := ptr + "/$ref"
	switch {
	case len(found) > 0:
		at = ptr + "/" + pointer.Escape(found[0])
	case len(values) > 0:
		at = ptr + "/" + values[0]
	}
	msg := "this schema has " + strings.Join(what, " and ") + "; " + strings.Join(hints, "; ")
	var fixed map[string]any
	var losses []normalize.Loss
	if isRoot {
		// Root combinators are openai-root-object's; here only what is
		// found is rewritten, and a root "$ref" is inlined.
		n := schema.Clone(s).(map[string]any)
		for _, k := range append(slices.Clone(found), values...) {
			delete(n, k)
			losses = append(losses, normalize.Loss{Keyword: k, What: "\"" + k + "\" removed, so " + normalize.StrictLoss(k)})
		}
		r, more := normalize.StrictRootRef(n)
		fixed, losses = r.(map[string]any), append(losses, more...)
	} else {
		fixed, losses = normalize.StrictKeywords(s, ignored)
		if normalize.Typeless(fixed) {
			// What is left says nothing of a type, which strict mode wants:
			// type it as convert --to openai --strict does.
			var more []normalize.Loss
			fixed, more = normalize.StrictType(fixed)
			losses = append(losses, more...)
		}
	}
	fixMsg := "rewrite into supported keywords"
	if len(losses) > 0 {
		fixMsg += ": " + lossText(losses)
	}
	d := lint.Diagnostic{RelPointer: at, Message: msg, Fix: lint.DiffFix(fixMsg, len(losses) == 0, ptr, s, fixed)}
	if slices.Contains(found, "x-mcp-header") {
		// MCP clients need it to mirror the argument into a header:
		// convert --to openai --strict drops it for OpenAI instead.
		d.Fix = nil
		d.Message += " (keep \"x-mcp-header\" for MCP clients: mcplint convert --to openai --strict drops it for OpenAI)"
	}
	if len(found) == 0 && len(sib) == 0 && slices.Equal(values, []string{"pattern"}) {
		d.Severity = lint.Warning // some lookarounds pass: see the profile line
	}
	p.Report(d)
}

// OpenAIStrictLimits checks the size limits of a strict schema.
var OpenAIStrictLimits = &lint.Rule{
	ID:       "openai-strict-limits",
	Packs:    []string{"openai-strict"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.OpenAIStrict, Line: "depth", Source: "OpenAI Structured Outputs guide, \"Supported schemas\""},
		{Consumer: consumer.OpenAIStrict, Line: "properties", Source: "OpenAI Structured Outputs guide, \"Supported schemas\""},
		{Consumer: consumer.OpenAIStrict, Line: "enum-values", Source: "OpenAI Structured Outputs guide, \"Supported schemas\""},
		{Consumer: consumer.OpenAIStrict, Line: "string-chars", Source: "OpenAI Structured Outputs guide, \"Supported schemas\""},
		{Consumer: consumer.OpenAIStrict, Line: "long-enum", Source: "OpenAI Structured Outputs guide, \"Supported schemas\""},
	},
	Summary: "in strict mode, a schema stays within OpenAI's size limits (nesting, properties, enum values, string size)",
	Fix:     lint.NoFix,
	Check:   checkStrictLimits,
	Doc: `OpenAI's guide sets limits on a strict schema:

  - at most 10 levels of object nesting;
  - at most 5,000 object properties in total;
  - at most 1,000 enum values in total;
  - at most 120,000 characters in total over property names, definition
    names, enum values and const values;
  - a single string enum of more than 250 values at most 15,000 characters
    in total.

(At launch, in August 2024, the limits were 100 properties and 5 levels of
nesting.) mcplint counts nesting as the number of object schemas along the
deepest path of the document as written, the root object being the first;
a "$ref" is not followed, so recursion does not count. Generated schemas of
large APIs (an OpenAPI bridge exposing a whole spec as one tool, a country
or timezone enum) cross them.

There is no fix: split the tool, flatten its arguments, or replace a huge
enum by a string with a description of where to find the values.

Bad:

    {"type": "object", "properties": {"timezone": {"type": "string", "enum": ["<600 names, 20,000 characters>"]}}}

Good:

    {"type": "object", "properties": {"timezone": {"type": "string", "description": "An IANA time zone name, such as Europe/Paris"}}}

Source: ` + strictGuide + ` ("Objects have limitations on nesting and size",
"Limitations on total string size", "Limitations on enum size"); the
launch limits, community.openai.com/t/918388.`,
}

func checkStrictLimits(p *lint.Pass) {
	v, ok := openaiInput(p)
	if !ok {
		return
	}
	for _, l := range normalize.OpenAIStrictSize(v).Over() {
		p.Reportf("/inputSchema"+l.Pointer, "%s", l.What)
	}
}
