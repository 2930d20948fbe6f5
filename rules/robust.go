package rules

import (
	"fmt"
	"strconv"

	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/manifest"
	"github.com/mcplint/mcplint/normalize"
	"github.com/mcplint/mcplint/schema"
)

var robustRules = []*lint.Rule{IntegerAcceptsString}

// IntegerAcceptsString asks numeric parameters to accept their decimal string.
var IntegerAcceptsString = &lint.Rule{
	ID:       "integer-accepts-string",
	Packs:    []string{"robust"},
	Severity: lint.Info,
	Summary:  "integer and number parameters also accept their decimal string (\"1\" for 1)",
	Fix:      lint.UnsafeFix,
	Options:  map[string]any{"form": formAuto},
	Check:    checkIntegerAcceptsString,
	Doc: `Models often send a number as a string: "thoughtNumber": "1" where the schema
says {"type": "integer"}. A client that validates arguments against the input
schema before calling the server (the specification's Security Considerations
speak of clients "validating tool inputs") refuses the call, and the tool is
unusable through no fault of the value. Accepting the decimal string too keeps
the tool usable; the server, which MUST validate its inputs anyway, converts
"1" to 1 before checking it.

The rule reports every parameter whose own "type" names integer or number but
not string. A parameter is a property of the input schema at any depth, and an
array element (items, prefixItems, additionalItems) or a map value
(additionalProperties, patternProperties) below one: a model that quotes a
number quotes it in a list as well. The rule looks nowhere else: not inside
allOf, anyOf, oneOf, not, if/then/else or contains, where a schema is combined
with others (widening one branch of a oneOf can make a value match two
branches and be refused), nor in $defs/definitions, reached through $refs from
places the rule cannot all see. It leaves alone parameters that already
accept strings (a type list with "string", a oneOf or anyOf with a string
branch, no type of their own), enum and const parameters (the model copies the
listed values), parameters with "x-mcp-header" (the specification requires
them to have a primitive type, and clients drop a tool that breaks this; the
rule skips them at every protocol version), and the root.

The rule is an info, not a warning: nearly every popular server declares
plain integers and every client accepts them, so the finding is advice
about robustness, not a refusal. Its fix is unsafe, because the schema then
promises what the server must keep: a server that validates with the old
schema still refuses "5" (a Zod-validated TypeScript server answers
-32602 "Expected number, received string"). Apply the fix together with
the server-side half of the change, in this order:

  - convert first: before validating arguments, turn a decimal string into
    a number wherever the schema declares integer or number. TypeScript with
    Zod: z.union([z.number().int(), z.string().regex(/^-?(0|[1-9][0-9]*)$/)
    .transform(Number)]) (whose JSON Schema is the same anyOf the fix
    writes); Python with Pydantic: its default lax mode already converts
    "5" to 5, so FastMCP servers only need the schema; Go with the official
    SDK: server.AddReceivingMiddleware(coerce.Middleware()), from package
    github.com/mcplint/mcplint/coerce, converts before the SDK validates
    and unmarshals (a typed handler's int field does not unmarshal from
    "5", whatever the schema says), and mcplinttest.StringNumbers() checks
    from go test that the server keeps the promise;
  - then declare the string form in the schema (the fix), so clients that
    validate let the call through.

The fix rewrites the parameter into two branches, a number or a string whose
pattern spells one. The pattern encodes the type and the sign the lower bound
demands: integers are digits with an optional minus sign and no leading zero
("^[1-9][0-9]*$" for minimum 1, "^(0|[1-9][0-9]*)$" for minimum 0); numbers
follow the JSON number grammar, with fraction and exponent. It is exact for no
bound, minimum 0 or 1 and exclusiveMinimum 0; with other bounds, maximum or
multipleOf it is wider than the numeric branch and the server refuses the
rest. Every value accepted before is accepted after.
Keywords that constrain the value (type, minimum, maximum, exclusiveMinimum,
exclusiveMaximum, multipleOf, format, nullable, $ref, applicators) move into
the numeric branch; keywords that describe the parameter (title, description,
default, examples, deprecated, $comment, $id, $defs, x-* extensions, unknown
keywords) stay beside the combinator.

Option "form" chooses the combinator: "auto" (the default), "oneOf" or
"anyOf". The branches are disjoint, so both accept the same values. "auto"
writes anyOf when a pack for OpenAI or Gemini runs (openai, openai-strict,
gemini) and oneOf otherwise: OpenAI in strict mode answers "'oneOf' is not
permitted" (an API error quoted in ai-dynamo/dynamo#15153; Azure OpenAI's
structured-outputs documentation lists anyOf, not oneOf, among the supported
keywords), and Gemini's function-declaration Schema documents anyOf and no
oneOf (https://googleapis.github.io/js-genai/interfaces/types.Schema.html).
"oneOf" or "anyOf" forces that form whatever packs run.

Bad:

    "thoughtNumber": {"type": "integer", "minimum": 1, "description": "Current thought number"}

Good:

    "thoughtNumber": {
      "description": "Current thought number",
      "oneOf": [
        {"type": "integer", "minimum": 1},
        {"type": "string", "pattern": "^[1-9][0-9]*$"}
      ]
    }

Source: MCP specification 2026-07-28, server/tools, "Security Considerations"
(servers MUST validate all tool inputs) and "x-mcp-header" (primitive types
only); modelcontextprotocol/servers#2905 ("Claude Code + Sequential Thinking:
Invalid thoughtNumber: must be a number": the model sent "1" for 1).`,
}

func checkIntegerAcceptsString(p *lint.Pass) {
	root, ok := p.InputSchema()
	if !ok {
		return
	}
	form, formErr := integerForm(p, p.Option("form"))
	// Parameters are the schemas reached from the root through keywords
	// that describe parts of the arguments; labels name them for messages.
	labels := map[string]string{"/inputSchema": ""}
	schema.Walk(root, "/inputSchema", func(s map[string]any, ptr string, _ int) bool {
		label, param := labels[ptr]
		if !param {
			return false
		}
		if ptr != "/inputSchema" && normalize.RejectsNumericStrings(s) {
			reportIntegerAcceptsString(p, s, ptr, label, form, formErr)
			return false
		}
		markParameters(s, ptr, label, labels)
		return true
	})
}

// markParameters records the schemas below s that describe a part of its
// value: properties, array elements and map values.
func markParameters(s map[string]any, ptr, label string, labels map[string]string) {
	if m, ok := s["properties"].(map[string]any); ok {
		for name := range m {
			labels[ptr+"/properties/"+manifest.EscapePointerToken(name)] = joinLabel(label, name)
		}
	}
	if m, ok := s["patternProperties"].(map[string]any); ok {
		for re := range m {
			labels[ptr+"/patternProperties/"+manifest.EscapePointerToken(re)] = joinLabel(label, "*")
		}
	}
	if _, ok := s["additionalProperties"].(map[string]any); ok {
		labels[ptr+"/additionalProperties"] = joinLabel(label, "*")
	}
	switch items := s["items"].(type) {
	case map[string]any:
		labels[ptr+"/items"] = label + "[]"
	case []any:
		for i := range items {
			labels[ptr+"/items/"+strconv.Itoa(i)] = label + "[" + strconv.Itoa(i) + "]"
		}
	}
	if l, ok := s["prefixItems"].([]any); ok {
		for i := range l {
			labels[ptr+"/prefixItems/"+strconv.Itoa(i)] = label + "[" + strconv.Itoa(i) + "]"
		}
	}
	if _, ok := s["additionalItems"].(map[string]any); ok {
		labels[ptr+"/additionalItems"] = label + "[]"
	}
}

// joinLabel names a member: "options.limit", "weights.*" for map values.
func joinLabel(label, name string) string {
	if label == "" {
		return name
	}
	return label + "." + name
}

func reportIntegerAcceptsString(p *lint.Pass, s map[string]any, ptr, label string, form normalize.Form, formErr error) {
	kind := "a number"
	if !schema.HasType(s, "number") {
		kind = "an integer"
	}
	pattern, _ := normalize.NumericPattern(s)
	msg := fmt.Sprintf("%q is %s: models often send \"1\" for 1, and a client that validates arguments then refuses the call; once the server converts decimal strings before validating, declare them too (%s with {\"type\": \"string\", \"pattern\": %q})",
		label, kind, form, pattern)
	if formErr != nil {
		p.Reportf(ptr, "%s (no fix: %v)", msg, formErr)
		return
	}
	fixed := normalize.IntegerTolerant(s, normalize.TolerantOptions{Form: form})
	p.ReportFix(ptr, &lint.Fix{
		Message: fmt.Sprintf("accept strings matching %s beside the number (%s); the server must convert them", pattern, form),
		Safe:    false,
		Edits:   lint.Diff(ptr, s, fixed),
	}, "%s", msg)
}

func integerForm(p *lint.Pass, v any) (normalize.Form, error) {
	switch f, _ := v.(string); normalize.Form(f) {
	case normalize.OneOf, normalize.AnyOf:
		return normalize.Form(f), nil
	case formAuto:
		// oneOf is refused by OpenAI strict mode and undocumented for
		// Gemini; when their packs run, write the form they accept.
		for _, pack := range []string{"openai", "openai-strict", "gemini"} {
			if p.PackEnabled(pack) {
				return normalize.AnyOf, nil
			}
		}
		return normalize.OneOf, nil
	}
	if s, ok := v.(string); ok {
		v = strconv.Quote(s)
	}
	return normalize.OneOf, fmt.Errorf("option \"form\" is %v; want \"auto\", \"oneOf\" or \"anyOf\"", v)
}

// formAuto lets integer-accepts-string choose its combinator from the
// packs that run.
const formAuto = "auto"
