package breaking

import "github.com/mcpfit/mcplint/lint"

// Pack names. Every rule is in Pack; the changes that break nothing are also
// in NonBreakingPack, so `--ignore non-breaking` keeps only the others.
const (
	Pack            = "breaking"
	NonBreakingPack = "non-breaking"
)

// DefaultPacks are the packs compared when a selection names none.
var DefaultPacks = []string{Pack}

var (
	breakingPacks    = []string{Pack}
	nonBreakingPacks = []string{Pack, NonBreakingPack}
)

// Rules is the catalogue of changes Compare reports, in the order
// `mcplint rules` lists them.
var Rules = []*lint.Rule{
	ToolRemoved, ToolRenamed,
	PropertyRemoved, PropertyBecameRequired, RequiredPropertyAdded, AdditionalPropertiesTightened,
	TypeNarrowed, EnumValueRemoved, ConstChanged, BoundTightened, FormatAdded, SchemaChanged,
	OutputSchemaRemoved, OutputPropertyRemoved, OutputTypeWidened,
	AnnotationSafetyLowered,
	ToolAdded, OptionalPropertyAdded, ConstraintRelaxed, DescriptionChanged,
}

// runBy opens every doc: the rules have no Check, lint never reports them.
const runBy = "Reported by `mcplint breaking` (package breaking), which compares two tool lists.\n\n"

const sourceBuf = `buf breaking rules (https://buf.build/docs/breaking/rules/) and oasdiff's
breaking-change catalogue (https://github.com/oasdiff/oasdiff/blob/main/BREAKING-CHANGES.md)`

// ToolRemoved reports a tool of the old list missing from the new one.
var ToolRemoved = &lint.Rule{
	ID: "tool-removed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "a tool of the old list is gone from the new one",
	Doc: runBy + `Agents, prompts and client configurations (allow-lists, auto-approval
rules) call tools by name. When a tool disappears, every one of them fails
with "unknown tool" at the next call. Removing a tool is a major change: keep
it (deprecated in its description) until its users have moved.

When a removed tool and an added tool have the same schemas, tool-renamed
reports the pair instead.

Bad (old, then new):

    {"tools": [{"name": "search", ...}, {"name": "fetch", ...}]}
    {"tools": [{"name": "search", ...}]}

Good: keep "fetch" and say in its description what replaces it.

The finding points at the tool's name in the old list.

Source: MCP specification 2025-06-18 and later, server/tools, "List Changed
Notification"; ` + sourceBuf + ` ("SERVICE_NO_DELETE", "api-path-removed").`,
}

// ToolRenamed reports a likely rename.
var ToolRenamed = &lint.Rule{
	ID: "tool-renamed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "a tool seems renamed: a removed and an added tool share their schemas",
	Doc: runBy + `A rename is a removal for every caller that uses the old name. When a tool
of the old list is missing and a new tool has the same input schema (and the
same output schema), the change is reported as a likely rename, pointing at
the new name. Descriptions and key order do not count.

Bad (old, then new):

    {"name": "read_file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}
    {"name": "file_read", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}

Good: keep serving "read_file" as an alias of "file_read" until its callers
have moved.

Source: ` + sourceBuf + `.`,
}

// PropertyRemoved reports an input property removed.
var PropertyRemoved = &lint.Rule{
	ID: "property-removed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "a property of an input schema is gone",
	Doc: runBy + `Clients and agents that send the property keep sending it. A server that
validates its input (or a schema with "additionalProperties": false) now
rejects their calls; one that does not silently ignores the argument, so the
call does something else than the caller asked. Deprecate the property in
its description and keep accepting it instead.

Bad (old, then new):

    {"properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}}
    {"properties": {"query": {"type": "string"}}}

Good: keep "limit" (ignored or mapped onto its replacement).

The finding points at the property in the old list.

Source: ` + sourceBuf + ` ("FIELD_NO_DELETE", "request-property-removed").`,
}

// PropertyBecameRequired reports an optional input property made required.
var PropertyBecameRequired = &lint.Rule{
	ID: "property-became-required", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an optional input property is now required",
	Doc: runBy + `Every call that left the property out was valid and is now rejected,
by clients that validate arguments before sending them and by the server.

Bad (old, then new):

    {"properties": {"limit": {"type": "integer"}}}
    {"properties": {"limit": {"type": "integer"}}, "required": ["limit"]}

Good: keep it optional and document its default.

Source: ` + sourceBuf + ` ("request-property-became-required").`,
}

// RequiredPropertyAdded reports a new required input property.
var RequiredPropertyAdded = &lint.Rule{
	ID: "required-property-added", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "a new input property is required",
	Doc: runBy + `No existing caller sends a property that did not exist, so every existing
call fails validation. Add new properties as optional, with a default.

Bad (old, then new):

    {"properties": {"q": {"type": "string"}}, "required": ["q"]}
    {"properties": {"q": {"type": "string"}, "lang": {"type": "string"}}, "required": ["q", "lang"]}

Good:

    {"properties": {"q": {"type": "string"}, "lang": {"type": "string", "default": "en"}}, "required": ["q"]}

Source: ` + sourceBuf + ` ("new-required-request-property").`,
}

// AdditionalPropertiesTightened reports additionalProperties made stricter.
var AdditionalPropertiesTightened = &lint.Rule{
	ID: "additional-properties-tightened", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an input schema now refuses properties it used to accept",
	Doc: runBy + `With "additionalProperties" absent or true, any extra argument is accepted;
false (or a schema where there was none) rejects the calls that send one.
Models do send extra arguments, and clients built against the old list may
too.

Bad (old, then new):

    {"type": "object", "properties": {"q": {"type": "string"}}}
    {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}

Good: keep accepting extra properties, or make the change in a new major
version of the server.

Source: JSON Schema 2020-12 Core, section 10.3.2.3 "additionalProperties"; ` + sourceBuf + `.`,
}

// TypeNarrowed reports an input type that accepts less.
var TypeNarrowed = &lint.Rule{
	ID: "type-narrowed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an input value's type accepts less than it did",
	Doc: runBy + `A type removed from a list (["string", "number"] to "string"), number made
integer, a type given where there was none, or a branch of anyOf/oneOf
removed: values that were valid are rejected. Integer made number is a
widening and is not reported here.

Bad (old, then new):

    {"type": ["string", "number"]}
    {"type": "string"}

Good: keep the old type and convert on the server.

Source: JSON Schema 2020-12 Validation, section 6.1.1 "type"; ` + sourceBuf + ` ("FIELD_SAME_TYPE", "request-property-type-changed").`,
}

// EnumValueRemoved reports an input enum that lost values.
var EnumValueRemoved = &lint.Rule{
	ID: "enum-value-removed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an input enum lost a value, or an enum now restricts a free value",
	Doc: runBy + `Callers that send the removed value are rejected; agents prompted with the
old list keep choosing it.

Bad (old, then new):

    {"type": "string", "enum": ["asc", "desc", "relevance"]}
    {"type": "string", "enum": ["asc", "desc"]}

Good: keep accepting "relevance" (mapped onto what replaces it).

Source: JSON Schema 2020-12 Validation, section 6.1.2 "enum"; ` + sourceBuf + ` ("ENUM_VALUE_NO_DELETE", "request-property-enum-value-removed").`,
}

// ConstChanged reports an input const changed or added.
var ConstChanged = &lint.Rule{
	ID: "const-changed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an input const changed, or a const now fixes a free value",
	Doc: runBy + `A const admits exactly one value: changing it rejects every call that
sends the old one.

Bad (old, then new):

    {"const": "v1"}
    {"const": "v2"}

Good: {"enum": ["v1", "v2"]} while callers move.

Source: JSON Schema 2020-12 Validation, section 6.1.3 "const"; ` + sourceBuf + `.`,
}

// BoundTightened reports a validation bound that accepts less.
var BoundTightened = &lint.Rule{
	ID: "bound-tightened", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an input bound is tighter: minimum up, maximum down, a pattern changed, …",
	Doc: runBy + `minimum, exclusiveMinimum, minLength, minItems, minProperties and
minContains raised (or added); maximum, exclusiveMaximum, maxLength, maxItems,
maxProperties and maxContains lowered (or added); a pattern added or
changed; multipleOf added or changed to a value that is not a divisor of the
old one; uniqueItems turned on. Values that were valid are rejected. A
changed pattern is always reported: mcplint does not decide whether one
regular expression accepts all the strings of another.

Bad (old, then new):

    {"type": "integer", "maximum": 100}
    {"type": "integer", "maximum": 50}

Good: keep accepting up to 100 and clamp on the server.

Source: JSON Schema 2020-12 Validation, section 6 "A Vocabulary for
Structural Validation"; ` + sourceBuf + ` ("request-property-max-decreased" and kin).`,
}

// FormatAdded reports an input format added or changed.
var FormatAdded = &lint.Rule{
	ID: "format-added", Packs: breakingPacks, Severity: lint.Warning, Harm: lint.Risks,
	Summary: "an input string gained or changed its format",
	Doc: runBy + `JSON Schema 2020-12 treats "format" as an annotation by default, but many
validators (Ajv with ajv-formats, which the TypeScript MCP SDK uses, pydantic)
assert it: a "date-time" added to a free string rejects "tomorrow" that used
to pass. A warning, because validators that do not assert formats accept the
same values as before.

Bad (old, then new):

    {"type": "string"}
    {"type": "string", "format": "date-time"}

Good: parse the formats you support on the server and say so in the
description.

Source: JSON Schema 2020-12 Validation, section 7 "Vocabularies for Semantic
Content With format"; ` + sourceBuf + `.`,
}

// SchemaChanged reports a change mcplint cannot classify.
var SchemaChanged = &lint.Rule{
	ID: "schema-changed", Packs: breakingPacks, Severity: lint.Warning, Harm: lint.Risks,
	Summary: "an input keyword changed in a way mcplint does not classify",
	Doc: runBy + `Keywords whose changes mcplint does not analyse (allOf, not, if/then/else,
patternProperties, dependentRequired, unevaluatedProperties, a remote $ref,
…) are compared as values: when one differs, this warning asks a person to
decide whether old calls are still valid.

Bad (old, then new):

    {"allOf": [{"required": ["a"]}]}
    {"allOf": [{"required": ["a", "b"]}]}

Good: no change, or a reviewed one.

Source: ` + sourceBuf + `.`,
}

// OutputSchemaRemoved reports a tool that no longer declares its output.
var OutputSchemaRemoved = &lint.Rule{
	ID: "output-schema-removed", Packs: breakingPacks, Severity: lint.Warning, Harm: lint.Risks,
	Summary: "a tool no longer declares an outputSchema",
	Doc: runBy + `A tool with an outputSchema must return structuredContent that conforms to
it; without one, clients get no structured result to rely on. Clients that
read structuredContent, or that generated types from the schema, lose them.

Bad (old, then new):

    {"name": "weather", "inputSchema": {...}, "outputSchema": {"type": "object", ...}}
    {"name": "weather", "inputSchema": {...}}

Good: keep the outputSchema and keep returning structuredContent.

Source: MCP specification 2025-06-18 and later, server/tools, "Output
Schema" ("Servers MUST provide structured results that conform to this
schema").`,
}

// OutputPropertyRemoved reports an output property gone or made optional.
var OutputPropertyRemoved = &lint.Rule{
	ID: "output-property-removed", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "a property of an output schema is gone or no longer required",
	Doc: runBy + `Output schemas run the other way from input schemas: clients read what the
server returns. A property removed from the outputSchema, or no longer in
its "required", may be missing from structuredContent, and clients that
read it break.

Bad (old, then new):

    {"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp"]}
    {"type": "object", "properties": {}}

Good: keep returning "temp".

A removed property points into the old list, a property no longer required
into the new one.

Source: MCP specification 2025-06-18 and later, server/tools, "Output
Schema"; ` + sourceBuf + ` ("response-property-removed", "response-required-property-became-optional").`,
}

// OutputTypeWidened reports an output value that may now be more.
var OutputTypeWidened = &lint.Rule{
	ID: "output-type-widened", Packs: breakingPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "an output value's type, enum or const admits more than it did",
	Doc: runBy + `A client wrote its code for the values the old outputSchema promised. A type
added ("number" to ["number", "null"]), integer made number, an enum value
added, a const changed or dropped: the client now meets values it does not
handle.

Bad (old, then new):

    {"type": "integer"}
    {"type": ["integer", "null"]}

Good: keep returning an integer; add a new property for the new case.

Source: MCP specification 2025-06-18 and later, server/tools, "Output
Schema"; ` + sourceBuf + ` ("response-property-type-changed", "response-property-enum-value-added").`,
}

// AnnotationSafetyLowered reports hints that now claim less safety.
var AnnotationSafetyLowered = &lint.Rule{
	ID: "annotation-safety-lowered", Packs: breakingPacks, Severity: lint.Warning, Harm: lint.Risks,
	Summary: "a tool's annotations now claim less safety (readOnlyHint true to false, …)",
	Doc: runBy + `Clients decide from a tool's annotations whether to ask the user before a
call: a read-only tool may be auto-approved, a destructive one is confirmed.
When readOnlyHint goes from true to false, destructiveHint from false to true,
idempotentHint from true to false or openWorldHint from false to true (with
the specification's defaults for absent hints: readOnlyHint false,
destructiveHint true, idempotentHint false, openWorldHint true; the last
three mean something only when readOnlyHint is false), a tool that ran
without asking now does more than what its user approved. Users who set
up auto-approval for the old tool must review it.

Bad (old, then new):

    {"annotations": {"readOnlyHint": true}}
    {"annotations": {"readOnlyHint": false}}

Good: publish the new behaviour as a new tool, so approvals of the old one
keep their meaning.

Source: MCP specification 2026-07-28, schema.ts "ToolAnnotations" (hints and
their defaults) and server/tools, "Tool" ("clients MUST consider tool
annotations to be untrusted unless they come from trusted servers").`,
}

// ToolAdded lists new tools.
var ToolAdded = &lint.Rule{
	ID: "tool-added", Packs: nonBreakingPacks, Severity: lint.Info, Harm: lint.Notes,
	Summary: "a tool was added (not breaking)",
	Doc: runBy + `A new tool breaks nothing: clients that do not know it do not call it.
Listed so that a review sees every change. Servers that declare the
tools.listChanged capability should send notifications/tools/list_changed.

Example (old, then new):

    {"tools": [{"name": "search", ...}]}
    {"tools": [{"name": "search", ...}, {"name": "fetch", ...}]}

Source: MCP specification 2025-06-18 and later, server/tools, "List Changed
Notification".`,
}

// OptionalPropertyAdded lists new optional input properties.
var OptionalPropertyAdded = &lint.Rule{
	ID: "optional-property-added", Packs: nonBreakingPacks, Severity: lint.Info, Harm: lint.Notes,
	Summary: "an optional input property was added (not breaking)",
	Doc: runBy + `Existing calls do not send it and stay valid. Listed so that a review sees
every change.

Example (old, then new):

    {"properties": {"q": {"type": "string"}}}
    {"properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}

Source: ` + sourceBuf + `.`,
}

// ConstraintRelaxed lists input constraints that accept more.
var ConstraintRelaxed = &lint.Rule{
	ID: "constraint-relaxed", Packs: nonBreakingPacks, Severity: lint.Info, Harm: lint.Notes,
	Summary: "an input constraint accepts more than it did (not breaking)",
	Doc: runBy + `A bound relaxed, a type or an enum value added, a property no longer
required, a format or pattern dropped, additionalProperties opened: every old
call is still valid. Listed so that a review sees every change.

Example (old, then new):

    {"type": "integer", "maximum": 50}
    {"type": "integer", "maximum": 100}

Source: ` + sourceBuf + `.`,
}

// DescriptionChanged lists description edits.
var DescriptionChanged = &lint.Rule{
	ID: "description-changed", Packs: nonBreakingPacks, Severity: lint.Info, Harm: lint.Notes,
	Summary: "a tool's or a property's description changed (not breaking for the protocol)",
	Doc: runBy + `Descriptions are what the model reads to choose and call a tool, so an edit
can change how agents use it without changing what the server accepts.
Listed so that a review sees it; a description that starts to carry
instructions for the model is the security pack's business.

Example (old, then new):

    {"description": "Search the docs."}
    {"description": "Search the docs and the changelog."}

Source: MCP specification 2025-06-18 and later, server/tools, "Tool"
("description").`,
}
