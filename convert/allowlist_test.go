package convert

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
	"github.com/mcpfit/mcplint/schema"
)

// keywordSamples are a valid value of each keyword of the vocabulary
// (consumer.VocabularyKeywords), and the type of the schema that holds it.
var keywordSamples = map[string]struct {
	typ   string
	value string
}{
	"$schema": {"string", `"https://json-schema.org/draft/2020-12/schema"`}, "$id": {"string", `"https://example.com/p"`},
	"$ref": {"", `"#/properties/q"`}, "$anchor": {"string", `"p"`}, "$dynamicRef": {"", `"#node"`}, "$dynamicAnchor": {"string", `"node"`},
	"$vocabulary": {"string", `{"https://json-schema.org/draft/2020-12/vocab/core": true}`}, "$comment": {"string", `"c"`},
	"$defs": {"string", `{"X": {"type": "string"}}`}, "allOf": {"", `[{"type": "string"}, {"minLength": 1}]`},
	"anyOf": {"", `[{"type": "string"}, {"type": "integer"}]`}, "oneOf": {"", `[{"type": "string"}, {"type": "integer"}]`},
	"not": {"string", `{"const": ""}`}, "if": {"string", `{"minLength": 1}`}, "then": {"string", `{"maxLength": 5}`},
	"else": {"string", `{"maxLength": 9}`}, "dependentSchemas": {"object", `{"a": {"required": ["b"]}}`},
	"prefixItems": {"array", `[{"type": "string"}]`}, "items": {"array", `{"type": "string"}`}, "contains": {"array", `{"type": "string"}`},
	"properties": {"object", `{"a": {"type": "string"}}`}, "patternProperties": {"object", `{"^x-": {"type": "string"}}`},
	"additionalProperties": {"object", `{"type": "string"}`}, "propertyNames": {"object", `{"pattern": "^[a-z]+$"}`},
	"unevaluatedItems": {"array", `false`}, "unevaluatedProperties": {"object", `false`},
	"type": {"", `"string"`}, "enum": {"string", `["a", "b"]`}, "const": {"string", `"a"`}, "multipleOf": {"integer", `2`},
	"maximum": {"integer", `10`}, "exclusiveMaximum": {"integer", `10`}, "minimum": {"integer", `1`}, "exclusiveMinimum": {"number", `0`},
	"maxLength": {"string", `10`}, "minLength": {"string", `1`}, "pattern": {"string", `"^a"`}, "maxItems": {"array", `3`},
	"minItems": {"array", `1`}, "uniqueItems": {"array", `true`}, "maxContains": {"array", `2`}, "minContains": {"array", `2`},
	"maxProperties": {"object", `3`}, "minProperties": {"object", `1`}, "required": {"object", `["a"]`},
	"dependentRequired": {"object", `{"a": ["b"]}`}, "title": {"string", `"P"`}, "description": {"string", `"d"`},
	"default": {"string", `"x"`}, "deprecated": {"string", `true`}, "readOnly": {"string", `true`}, "writeOnly": {"string", `true`},
	"examples": {"string", `["x"]`}, "format": {"string", `"date-time"`}, "contentEncoding": {"string", `"base64"`},
	"contentMediaType": {"string", `"text/plain"`}, "contentSchema": {"string", `{"type": "string"}`},
	"$recursiveRef": {"", `"#"`}, "$recursiveAnchor": {"string", `true`}, "definitions": {"string", `{"X": {"type": "string"}}`},
	"dependencies": {"object", `{"a": ["b"]}`}, "additionalItems": {"array", `false`}, "id": {"string", `"#p"`},
	"nullable": {"string", `true`}, "example": {"string", `"x"`}, "discriminator": {"object", `{"propertyName": "kind"}`},
	"externalDocs": {"string", `{"url": "https://example.com"}`}, "xml": {"string", `{"name": "p"}`}, "propertyOrdering": {"object", `["a"]`},
}

// documentedFormats are formats JSON Schema 2020-12 and OpenAPI define, the
// values a format line is probed with.
var documentedFormats = []string{"uri", "email", "date", "date-time", "uuid", "regex", "int32", "float", "byte", "password"}

// probe is a property schema that a profile does not take.
type probe struct {
	what    string // what is outside the profile
	keyword string // the keyword that holds it
	schema  string
}

// probesOutside are one property schema per documented keyword an
// allowlist profile does not take, and per documented value its Values
// lines refuse.
func probesOutside(t *testing.T, p *consumer.Profile) []probe {
	var out []probe
	for _, k := range consumer.VocabularyKeywords() {
		if p.Denied(k, consumer.Nested) == nil {
			continue
		}
		s, ok := keywordSamples[k]
		if !ok {
			t.Fatalf("no sample value for keyword %q", k)
		}
		sch := fmt.Sprintf(`{%q: %s}`, k, s.value)
		if s.typ != "" {
			sch = fmt.Sprintf(`{"type": %q, %q: %s}`, s.typ, k, s.value)
		}
		out = append(out, probe{what: "keyword " + k, keyword: k, schema: sch})
	}
	for _, l := range p.Lines {
		if l.Kind != consumer.Values || l.Action != consumer.Refuses && l.Action != consumer.MayRefuse {
			continue
		}
		k, typ := l.Keywords[0], l.Type
		if typ == "" {
			typ = "string"
		}
		var value string
		switch {
		case k == "format":
			for _, f := range documentedFormats {
				if !l.Allows(f) {
					value = fmt.Sprintf("%q", f)
					break
				}
			}
		case k == "type" && l.Match == consumer.OneOf:
			value = `["string", "null"]`
		case k == "enum" && l.Match == consumer.Kinds:
			value = `[1, 2]`
			typ = "integer"
		case k == "pattern" && l.Match == consumer.Without:
			value = fmt.Sprintf("%q", "^"+l.Values[0]+"a)")
		}
		if value == "" {
			continue // the line refuses no documented value
		}
		sch := fmt.Sprintf(`{"type": %q, %q: %s}`, typ, k, value)
		if k == "type" {
			sch = fmt.Sprintf(`{"type": %s}`, value)
		}
		out = append(out, probe{what: fmt.Sprintf("%s %s (line %s)", k, value, l.ID), keyword: k, schema: sch})
	}
	return out
}

// targetOf is the conversion whose document consumer id judges.
func targetOf(id consumer.ID) (string, Options, bool) {
	for _, target := range Targets {
		for _, o := range []Options{{}, {Strict: true}, {GeminiJSONSchema: true}} {
			if cs := Consumers(target, o); slices.Contains(cs, id) && (id != consumer.OpenAIChat || !o.Strict) {
				return target, o, true
			}
		}
	}
	return "", Options{}, false
}

// TestOutsideEveryAllowlist takes each profile that is an allowlist (the
// consumer documents what it takes), writes one tool per documented keyword
// or value outside it, and holds mcplint to it: the rules that protect the
// consumer report it for that consumer, and convert to the consumer either
// rewrites it or refuses the tool (convert exits 1).
func TestOutsideEveryAllowlist(t *testing.T) {
	n := 0
	for _, p := range consumer.Profiles {
		if !p.Allowlist {
			continue
		}
		target, opts, ok := targetOf(p.Consumer)
		if !ok {
			t.Fatalf("no conversion writes for %s", p.Consumer)
		}
		var sel []string
		for _, r := range rules.All {
			if slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool { return f.Consumer == p.Consumer }) {
				sel = append(sel, r.ID)
			}
		}
		l, err := lint.New(rules.All, lint.Config{Select: sel})
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range probesOutside(t, p) {
			n++
			doc := fmt.Sprintf(`{"tools": [{"name": "probe", "description": "d", "inputSchema": {"type": "object", "properties": {"p": %s, "q": {"type": "string"}}, "required": ["p", "q"], "additionalProperties": false}}]}`, pr.schema)
			where := fmt.Sprintf("%s, %s", p.Consumer, pr.what)
			m, err := manifest.Load("probe.json", []byte(doc))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			ds, err := l.Lint(m)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if !slices.ContainsFunc(ds, func(d lint.Diagnostic) bool {
				return strings.HasPrefix(d.RelPointer, "/inputSchema/properties/p") && slices.ContainsFunc(d.Consumers, func(f consumer.Refusal) bool {
					return f.Consumer == p.Consumer && !f.Mangles
				})
			}) {
				t.Errorf("%s: the rules of %s report nothing naming it in %s", where, p.Consumer, pr.schema)
			}
			tools, err := FromManifest(m)
			if err != nil {
				t.Fatal(err)
			}
			out, warns, err := To(target, tools, opts)
			if err != nil {
				t.Fatalf("%s: convert: %v", where, err)
			}
			if slices.ContainsFunc(warns, func(w Warning) bool { return w.Refused }) {
				continue // convert exits 1
			}
			if prop, ok := convertedProperty(t, out); ok && stillHas(prop, pr) {
				t.Errorf("%s: convert --to %s wrote it unchanged and refused nothing: %s", where, target, schema.Compact(prop))
			}
		}
	}
	if n < 40 {
		t.Errorf("%d probes, want the vocabulary outside each allowlist", n)
	}
}

// convertedProperty finds property "p" of the converted tool's parameters.
func convertedProperty(t *testing.T, out []byte) (map[string]any, bool) {
	t.Helper()
	doc := testenv.JSON(t, string(out))
	for _, ptr := range []string{
		"/tools/0/function/parameters/properties/p", "/tools/0/parameters/properties/p",
		"/functionDeclarations/0/parameters/properties/p", "/functionDeclarations/0/parametersJsonSchema/properties/p",
	} {
		if v, ok := schema.Get(doc, ptr); ok {
			m, _ := v.(map[string]any)
			return m, true
		}
	}
	return nil, false
}

// stillHas reports whether the converted property keeps what the probe put
// there: the keyword, with the probe's value for a value probe.
func stillHas(prop map[string]any, pr probe) bool {
	v, ok := prop[pr.keyword]
	if !ok {
		return false
	}
	parsed, err := testenv.ParseJSON(pr.schema)
	orig, isObject := parsed.(map[string]any)
	if err != nil || !isObject {
		return true
	}
	return schema.Equal(v, orig[pr.keyword])
}
