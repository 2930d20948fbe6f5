package rules

import (
	"fmt"
	"strconv"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

var robustRules = []*lint.Rule{IntegerAcceptsString}

// IntegerAcceptsString asks numeric parameters to accept their decimal string.
var IntegerAcceptsString = &lint.Rule{
	ID:       "integer-accepts-string",
	Packs:    []string{"robust"},
	Severity: lint.Info, Harm: lint.Notes,
	Summary:     "integer and number parameters also accept their decimal string (\"1\" for 1)",
	Fix:         lint.UnsafeFix,
	Options:     map[string]any{"form": formAuto},
	CheckOption: checkIntegerForm,
	Check:       checkIntegerAcceptsString,
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
    github.com/mcpfit/mcplint/coerce, converts before the SDK validates
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
writes anyOf when the profile of a consumer in play refuses oneOf, and
oneOf otherwise: OpenAI in strict mode (the openai-strict pack) answers
"'oneOf' is not permitted" (an API error quoted in ai-dynamo/dynamo#15153;
Azure OpenAI's structured-outputs documentation lists anyOf, not oneOf,
among the supported keywords), and Gemini's function-declaration Schema
(the gemini pack) documents anyOf and no oneOf
(https://googleapis.github.io/js-genai/interfaces/types.Schema.html).
OpenAI without strict mode documents no keyword list and takes a nested
oneOf, so the openai pack alone keeps oneOf.
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
	form := integerForm(p)
	// Parameters are the root and the schemas reached from it through
	// keywords that describe parts of the arguments.
	p.Schema("inputSchema").Walk(func(n *schema.Node) bool {
		if n.Parent == nil {
			return true
		}
		if !parameterKeywords[n.Keyword] {
			return false
		}
		if normalize.RejectsNumericStrings(n.Value) {
			reportIntegerAcceptsString(p, n, form)
			return false
		}
		return true
	})
}

// parameterKeywords hold the schemas that describe a part of their parent's
// value: properties, map values and array elements.
var parameterKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"items": true, "prefixItems": true, "additionalItems": true,
}

// parameterLabel names a parameter for messages: "options.limit",
// "weights.*" for map values, "tags[]" and "pair[0]" for array elements.
func parameterLabel(n *schema.Node) string {
	if n.Parent == nil {
		return ""
	}
	label := parameterLabel(n.Parent)
	switch n.Keyword {
	case "properties":
		return joinLabel(label, n.Name)
	case "patternProperties", "additionalProperties":
		return joinLabel(label, "*")
	}
	if n.Index >= 0 {
		return label + "[" + strconv.Itoa(n.Index) + "]"
	}
	return label + "[]"
}

// joinLabel names a member: "options.limit", "weights.*" for map values.
func joinLabel(label, name string) string {
	if label == "" {
		return name
	}
	return label + "." + name
}

func reportIntegerAcceptsString(p *lint.Pass, n *schema.Node, form normalize.Form) {
	s, ptr := n.Value, n.Pointer()
	kind := "a number"
	if !schema.HasType(s, "number") {
		kind = "an integer"
	}
	pattern, _ := normalize.NumericPattern(s)
	msg := fmt.Sprintf("%q is %s: models often send \"1\" for 1, and a client that validates arguments then refuses the call; once the server converts decimal strings before validating, declare them too (%s with {\"type\": \"string\", \"pattern\": %q})",
		parameterLabel(n), kind, form, pattern)
	// One finding per numeric parameter: the rewrite is built only when
	// the run wants the fix's edits.
	p.ReportFix(ptr, &lint.Fix{
		Message: fmt.Sprintf("accept strings matching %s beside the number (%s); the server must convert them", pattern, form),
		Safe:    false,
		Build: func() []manifest.Edit {
			return lint.Diff(ptr, s, normalize.IntegerTolerant(s, normalize.TolerantOptions{Form: form}))
		},
	}, "%s", msg)
}

// integerForm is the combinator the option "form" asks for.
func integerForm(p *lint.Pass) normalize.Form {
	if f := normalize.Form(p.Option("form").(string)); f != formAuto {
		return f
	}
	// oneOf says exactly what is meant (a number or its string, never
	// both), but some consumers do not take it (OpenAI's strict mode
	// refuses it, Gemini's classic Schema has only anyOf): when a consumer
	// in play refuses it by its profile, write the form every one takes.
	for _, prof := range consumer.Profiles {
		if p.InPlay(prof.Consumer) && prof.Denied("oneOf", consumer.Nested) != nil {
			return normalize.AnyOf
		}
	}
	return normalize.OneOf
}

// checkIntegerForm refuses a "form" the rule does not know.
func checkIntegerForm(_ string, v any) error {
	switch normalize.Form(v.(string)) {
	case formAuto, normalize.OneOf, normalize.AnyOf:
		return nil
	}
	return fmt.Errorf("%q is no form; want \"auto\", \"oneOf\" or \"anyOf\"", v)
}

// formAuto lets integer-accepts-string choose its combinator from the
// packs that run.
const formAuto = "auto"
