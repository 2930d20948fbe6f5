package rules

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

var headerRules = []*lint.Rule{XMcpHeaderValid}

// XMcpHeaderValid checks x-mcp-header annotations.
var XMcpHeaderValid = &lint.Rule{
	ID:       "x-mcp-header-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "x-mcp-header", Mangles: true, Source: "MCP specification 2026-07-28, server/tools, \"x-mcp-header\" (clients drop the tool)"},
	},
	Summary: "x-mcp-header annotations name a valid, unique header on a reachable string, integer or boolean property",
	Fix:     lint.NoFix,
	Check:   checkXMcpHeader,
	Doc: `From protocol 2026-07-28 a property of a tool's inputSchema may carry
"x-mcp-header": "Name", and a client on the Streamable HTTP transport then
copies the argument into the HTTP header Mcp-Param-Name, so load balancers
and gateways can route on it without parsing the body. The specification
constrains the annotation, and a client MUST exclude a tool that breaks any
constraint from the result of tools/list: the tool silently disappears. Each
offending annotation is one error, listing what is wrong with it:

- its value is not a string, or is empty;
- it contains control characters (CR and LF included), or other characters
  outside the HTTP token set of RFC 9110 (letters, digits and
  ! # $ % & ' * + - . ^ _ ` + "`" + ` | ~): no spaces, colons, slashes or non-ASCII;
- it repeats, ignoring case, another annotation of the same inputSchema (the
  later one is reported, naming the first);
- the property's "type" is not exactly one of "string", "integer" or
  "boolean". "number" is forbidden by name. mcplint also reports a property
  with no "type" (an enum, a const, a $ref or an anyOf of its own) and a
  type list such as ["string", "null"]: the constraint names single
  primitive types, and clients compare "type" with those names;
- the property is not statically reachable: only a chain of "properties"
  keys from the root is. An annotation on the root, or under items,
  prefixItems, additionalProperties, patternProperties, anyOf, oneOf, allOf,
  not, if/then/else, $defs, or reached through a $ref, makes the tool
  invalid.

Two warnings come as separate findings:

- the header or the property name looks sensitive (password, secret, token,
  API key, authorization, cookie, session id, e-mail, phone, …): header
  values are visible to every intermediary, and the specification says
  servers SHOULD NOT mirror passwords, API keys, tokens or PII;
- an integer property whose minimum or maximum (exclusive or not) allows
  values beyond ±(2^53−1): header integers MUST stay within that range. An
  unbounded integer is not reported: the constraint concerns the values a
  model sends, and a bound the schema declares is the only thing a linter
  can see contradict it.

The rule is silent for protocols before 2026-07-28, which give
"x-mcp-header" no meaning (it is then an unknown keyword, ignored), and
annotations in outputSchema are not checked: the specification defines them
for the input schema only. There is no fix: renaming a header breaks the
intermediaries that route on it.

Bad:

    "properties": {
      "region": {"type": "string", "x-mcp-header": "Cloud Region"},
      "zone": {"type": "string", "x-mcp-header": "region"},
      "limit": {"type": "number", "x-mcp-header": "Limit"},
      "tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}},
      "api_key": {"type": "string", "x-mcp-header": "Api-Key"}
    }

Good:

    "properties": {
      "region": {"type": "string", "x-mcp-header": "Region"},
      "zone": {"type": "string", "x-mcp-header": "Zone"},
      "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "x-mcp-header": "Limit"},
      "tags": {"type": "array", "items": {"type": "string"}},
      "api_key": {"type": "string"}
    }

Source: MCP specification 2026-07-28, server/tools, "x-mcp-header";
basic/transports/streamable-http, "Custom Headers from Tool Parameters"
("statically reachable" and header value extraction); RFC 9110, section 5.1
(field names are tokens) and 5.6.2 (tchar).`,
}

// maxSafeInteger is 2^53−1, the largest integer an IEEE 754 double holds
// exactly.
var maxSafeInteger = new(big.Rat).SetInt64(1<<53 - 1)

// HeaderAnnotation is one x-mcp-header annotation of a tool's input
// schema, and what makes it invalid. The rule x-mcp-header-valid reports
// the problems; mcplint proxy, a client of a Streamable HTTP server, drops
// a tool with any, as the specification asks of clients: the one check
// serves both.
type HeaderAnnotation struct {
	// Pointer locates the annotated subschema in the input schema (RFC
	// 6901; "" for the root).
	Pointer string
	// Schema is the annotated subschema; Value is the annotation's value.
	Schema map[string]any
	Value  any
	// Problems say what makes the annotation, and so the tool, invalid:
	// none when it is valid.
	Problems []string
	// offset is the annotation's place in its source, when known.
	offset int
}

// Name is the header name the annotation gives (Mcp-Param-Name), "" when
// its value is not a string.
func (a *HeaderAnnotation) Name() string {
	name, _ := a.Value.(string)
	return name
}

// Path is the property path the argument is read at (the chain of
// "properties" keys to the annotated property).
func (a *HeaderAnnotation) Path() []string {
	toks := pointer.Split(a.Pointer)
	var out []string
	for i := 1; i < len(toks); i += 2 {
		out = append(out, toks[i])
	}
	return out
}

// HeaderAnnotations finds every x-mcp-header annotation of an input schema
// (decoded JSON) and says what makes each invalid, as the MCP
// specification 2026-07-28 constrains them (server/tools, "x-mcp-header").
// Of two annotations naming one header, the later in walk order (keys
// sorted) is the one said to repeat the other.
func HeaderAnnotations(inputSchema any) []HeaderAnnotation {
	anns := findHeaders(func(fn func(*schema.Node) bool) { schema.Walk(inputSchema, "", fn) }, "")
	judgeHeaders(anns)
	return anns
}

// findHeaders collects the annotations a walk of an input schema finds,
// their pointers made relative to it by dropping base.
func findHeaders(walk func(func(*schema.Node) bool), base string) []HeaderAnnotation {
	var anns []HeaderAnnotation
	walk(func(n *schema.Node) bool {
		if v, ok := n.Value["x-mcp-header"]; ok {
			anns = append(anns, HeaderAnnotation{Pointer: strings.TrimPrefix(n.Pointer(), base), Schema: n.Value, Value: v})
		}
		return true
	})
	return anns
}

// judgeHeaders fills in the problems of each annotation, a repeat judged
// against those before it.
func judgeHeaders(anns []HeaderAnnotation) {
	seen := map[string]*HeaderAnnotation{} // lower-cased header name -> first annotation
	for i := range anns {
		a := &anns[i]
		var problems []string
		name, isString := a.Value.(string)
		switch {
		case !isString:
			problems = append(problems, fmt.Sprintf("its value is %s, not a string naming the header", schema.KindWithArticle(a.Value)))
		case name == "":
			problems = append(problems, "it is empty (name the header, as in \"Region\" for Mcp-Param-Region)")
		default:
			problems = append(problems, headerNameProblems(name)...)
			key := strings.ToLower(name)
			if first, dup := seen[key]; dup {
				problems = append(problems, fmt.Sprintf("it repeats %q of %s (header names are case-insensitive, so give each header its own)", first.Value, pointerLabel(first.Pointer)))
			} else {
				seen[key] = a
			}
		}
		// On the root the one thing to say is that it is not a property.
		if msg := reachabilityProblem(a.Pointer); msg != "" {
			problems = append(problems, msg)
		}
		if msg := headerTypeProblem(a.Schema); msg != "" && a.Pointer != "" {
			problems = append(problems, msg)
		}
		a.Problems = problems
	}
}

func checkXMcpHeader(p *lint.Pass) {
	if !p.Since("2026-07-28") {
		return
	}
	anns := findHeaders(p.Schema("inputSchema").Walk, "/inputSchema")
	if len(anns) == 0 {
		return
	}
	at := make([]string, len(anns))
	for i, a := range anns {
		at[i] = "/inputSchema" + a.Pointer + "/x-mcp-header"
	}
	// "Later" means later in the source, whatever order the walk took.
	for i, pl := range p.Tool.Places(at) {
		anns[i].offset = pl.Offset()
	}
	slices.SortStableFunc(anns, func(a, b HeaderAnnotation) int { return a.offset - b.offset })
	judgeHeaders(anns)
	for i := range anns {
		a := &anns[i]
		at := "/inputSchema" + a.Pointer + "/x-mcp-header"
		name, isString := a.Value.(string)
		if len(a.Problems) > 0 {
			label := "x-mcp-header"
			if isString {
				label = fmt.Sprintf("x-mcp-header %q", name)
			}
			p.Reportf(at, "%s makes clients drop the tool from tools/list: %s", label, strings.Join(a.Problems, "; "))
		}
		if isString && name != "" {
			if word, what := sensitiveHeader(name, propertyName(a.Pointer)); word != "" {
				p.Report(lint.Diagnostic{Severity: lint.Warning, RelPointer: at, Message: fmt.Sprintf(
					"x-mcp-header %q mirrors a parameter whose %s looks sensitive (%q): header values are visible to every proxy and load balancer on the way, and the specification says servers should not mirror passwords, API keys, tokens or personal data; remove the annotation unless the value is safe to expose", name, what, word)})
			}
		}
		checkHeaderIntegerRange(p, a)
	}
}

// headerNameProblems checks a header name against RFC 9110's token syntax
// (field-name = token = 1*tchar).
func headerNameProblems(name string) []string {
	var controls, others []string
	seen := map[rune]bool{}
	for _, r := range name {
		if isTchar(r) || seen[r] {
			continue
		}
		seen[r] = true
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			controls = append(controls, controlName(r))
		} else {
			others = append(others, describeRune(r))
		}
	}
	var out []string
	if len(controls) > 0 {
		out = append(out, "it contains the control characters "+strings.Join(controls, ", ")+", which would split or corrupt the HTTP header")
	}
	if len(others) > 0 {
		out = append(out, "it contains "+strings.Join(others, ", ")+", but a header name is an HTTP token (letters, digits and ! # $ % & ' * + - . ^ _ ` | ~)")
	}
	return out
}

func controlName(r rune) string {
	switch r {
	case '\r':
		return "CR (U+000D)"
	case '\n':
		return "LF (U+000A)"
	case '\t':
		return "tab (U+0009)"
	}
	return fmt.Sprintf("U+%04X", r)
}

func isTchar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// headerTypeProblem says why a property's type does not allow mirroring.
func headerTypeProblem(s map[string]any) string {
	switch t := s["type"].(type) {
	case nil:
		return "the property has no \"type\" (give it \"type\": \"string\", \"integer\" or \"boolean\")"
	case string:
		switch t {
		case "string", "integer", "boolean":
			return ""
		case "number":
			return "the property's type is \"number\", which the specification forbids for headers (use \"integer\" or \"string\")"
		}
		return fmt.Sprintf("the property's type is %q (only \"string\", \"integer\" and \"boolean\" values can be mirrored)", t)
	case []any:
		return "the property's type is a list (give it one type, \"string\", \"integer\" or \"boolean\", and leave the property optional: a null argument sends no header anyway)"
	}
	return "the property's \"type\" is not a type name (give it \"string\", \"integer\" or \"boolean\")"
}

// reachabilityProblem says why an annotation at ptr (relative to the
// inputSchema) is not statically reachable: reachable means a chain of
// "properties" keys from the root and nothing else.
func reachabilityProblem(ptr string) string {
	if ptr == "" {
		return "it is on the root schema, not on a property (put it on the property to mirror)"
	}
	toks := strings.Split(ptr[1:], "/")
	for i := 0; i < len(toks); i += 2 {
		if toks[i] != "properties" || i+1 >= len(toks) {
			return fmt.Sprintf("the property is not statically reachable: its path goes through %q at %s, where only a chain of \"properties\" from the root is (move the annotation to such a property, or remove it)", pointer.Split("/" + toks[i])[0], pointerLabel("/"+strings.Join(toks[:i+1], "/")))
		}
	}
	return ""
}

// propertyName is the name of the property at ptr, "" when ptr is not a
// property.
func propertyName(ptr string) string {
	toks := pointer.Split(ptr)
	if len(toks) >= 2 && toks[len(toks)-2] == "properties" {
		return toks[len(toks)-1]
	}
	return ""
}

// checkHeaderIntegerRange warns about integer bounds past ±(2^53−1).
func checkHeaderIntegerRange(p *lint.Pass, a *HeaderAnnotation) {
	if t, _ := a.Schema["type"].(string); t != "integer" {
		return
	}
	name := a.Name()
	for _, kw := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		n, ok := ratOf(a.Schema[kw])
		if !ok {
			continue
		}
		// An exclusive bound one past the safe range still keeps every
		// allowed integer inside it.
		limit := maxSafeInteger
		if strings.HasPrefix(kw, "exclusive") {
			limit = new(big.Rat).Add(maxSafeInteger, big.NewRat(1, 1))
		}
		if new(big.Rat).Abs(n).Cmp(limit) > 0 {
			p.Report(lint.Diagnostic{Severity: lint.Warning, RelPointer: "/inputSchema" + a.Pointer + "/" + kw, Message: fmt.Sprintf(
				"x-mcp-header %q mirrors an integer whose %s %s allows values beyond +/-9007199254740991 (2^53-1), the range the specification requires header integers to stay within; keep the bound inside it", name, kw, n.RatString())})
		}
	}
}

// ratOf reads a JSON number exactly.
func ratOf(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case json.Number:
		if !schema.Comparable(x) { // an exact value costly to build
			return nil, false
		}
		return new(big.Rat).SetString(x.String())
	case float64:
		return new(big.Rat).SetFloat64(x), true
	}
	return nil, false
}
