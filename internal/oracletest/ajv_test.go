package oracletest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/rules"
)

// ajvRequest is one schema for ajv-compile.mjs.
type ajvRequest struct {
	ID     string `json:"id"`
	Schema any    `json:"schema"`
}

type ajvAnswer struct {
	ID      string  `json:"id"`
	Dialect string  `json:"dialect"`
	Error   *string `json:"error"`
}

// ajvSamples prove the oracle is strict where it must be, and lets through
// what the allowlist in ajv-compile.mjs documents. want is a fragment of
// Ajv's error, "" for a schema that must compile.
var ajvSamples = []struct {
	name, schema, want string
}{
	{"plain", `{"type": "object", "properties": {"q": {"type": "string", "format": "uri"}}}`, ""},
	{"union-type", `{"type": "object", "properties": {"q": {"type": ["string", "null"]}}, "required": ["q"], "additionalProperties": false}`, ""},
	{"x-mcp-header", `{"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}`, ""},
	{"x-extension", `{"type": "object", "x-order": ["a"], "properties": {"a": {"type": "string", "x-go-name": "A"}}}`, ""},
	{"openapi-annotations", `{"type": "object", "properties": {"a": {"type": "string", "nullable": true, "example": "x"}}}`, ""},
	{"draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"$ref": "#/definitions/A"}}, "definitions": {"A": {"type": "string"}}}`, ""},
	{"2019-09", `{"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object", "$defs": {"A": {"type": "string"}}}`, ""},
	{"2020-12-refs", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}`, ""},
	{"unknown-keyword", `{"type": "object", "propertys": {}}`, `unknown keyword: "propertys"`},
	{"zod-internals", `{"type": "object", "_def": {"typeName": "ZodObject"}}`, `unknown keyword: "_def"`},
	{"unknown-format", `{"type": "string", "format": "uuid4"}`, `unknown format "uuid4"`},
	{"bad-type-name", `{"type": "object", "properties": {"a": {"type": "str"}}}`, "schema is invalid"},
	{"required-not-array", `{"type": "object", "required": "a"}`, "schema is invalid"},
	{"unresolvable-ref", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}`, "can't resolve reference"},
	{"draft-07-tuple-in-2020", `{"type": "array", "items": [{"type": "string"}]}`, "schema is invalid"},
	{"prefixItems-in-draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "prefixItems": [{"type": "string"}]}`, `unknown keyword: "prefixItems"`},
	{"ignored-additionalItems", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": {"type": "string"}, "additionalItems": false}`, "additionalItems"},
	{"nullable-without-type", `{"type": "object", "properties": {"a": {"nullable": true}}}`, "nullable"},
	{"unknown-dialect", `{"$schema": "https://example.com/my-dialect", "type": "object"}`, "no schema with key or ref"},
	{"draft-04-exclusive-boolean", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}`, ""},
	{"draft-04-exclusive-number", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}}`, "schema is invalid"},
	{"draft-07-https", `{"$schema": "https://json-schema.org/draft-07/schema", "type": "object", "definitions": {}}`, ""},
	{"untyped-defs-and-tuples", `{"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]}}, "$defs": {"A": {"properties": {"a": {"minimum": 1}}, "required": ["a"]}}}`, ""},
	{"anchor", `{"type": "object", "properties": {"a": {"$ref": "#node"}}, "$defs": {"n": {"$anchor": "node", "type": "string"}}}`, ""},
	{"anchor-unresolved", `{"type": "object", "properties": {"a": {"$ref": "#other"}}, "$defs": {"n": {"$anchor": "node", "type": "string"}}}`, "can't resolve reference"},
	{"anchor-in-draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "$anchor": "x"}`, `unknown keyword: "$anchor"`},
}

// schemaRequests lists the input and output schema of every tool of the
// subjects, with ids naming manifest, tool and member.
func schemaRequests(t *testing.T, subjects []subject) ([]ajvRequest, map[string]schemaRef) {
	t.Helper()
	var reqs []ajvRequest
	refs := map[string]schemaRef{}
	for _, s := range subjects {
		for i, v := range toolValues(t, s) {
			obj, _ := v.(map[string]any)
			for _, member := range []string{"inputSchema", "outputSchema"} {
				sch, ok := obj[member]
				if !ok {
					continue
				}
				id := fmt.Sprintf("%s: %s /%s", s.name, toolName(v, i), member)
				reqs = append(reqs, ajvRequest{ID: id, Schema: sch})
				refs[id] = schemaRef{subject: s, tool: i, member: member}
			}
		}
	}
	return reqs, refs
}

type schemaRef struct {
	subject subject
	tool    int
	member  string
}

// TestAjvStrict compiles, in one node process, the samples and every input
// and output schema of the fixed manifests (the committed fixed output of
// every rule case, and what `fix --unsafe-fixes` makes of the example and
// of every case input with --select mcp,robust, openai,openai-strict and
// gemini) with Ajv in strict mode.
//
// A fixed schema Ajv refuses must carry a finding of the mcp or robust pack,
// or of the pack it was fixed for (some cases are about schemas no fix can
// repair): a schema mcplint passes and Ajv strict refuses is a
// disagreement. Converted schemas are judged in
// convert_oracle_test.go, with no exception.
func TestAjvStrict(t *testing.T) {
	testenv.Oracles(t) // skip before the work, when Ajv cannot judge it
	subjects := ajvSubjects(t)
	reqs, refs := schemaRequests(t, subjects)
	answers := ajvAll(t)

	t.Run("samples", func(t *testing.T) {
		for _, s := range ajvSamples {
			a := answers["sample "+s.name]
			switch {
			case s.want == "" && a.Error != nil:
				t.Errorf("%s: Ajv refused a good sample: %s", s.name, *a.Error)
			case s.want != "" && a.Error == nil:
				t.Errorf("%s: Ajv compiled a bad sample; want an error with %q", s.name, s.want)
			case s.want != "" && !strings.Contains(*a.Error, s.want):
				t.Errorf("%s: Ajv said %q; want an error with %q", s.name, *a.Error, s.want)
			}
		}
	})

	t.Run("fixed", func(t *testing.T) {
		findings := map[string][]lint.Diagnostic{} // by subject name
		for _, s := range subjects {
			l, err := lint.New(rules.All, lint.Config{Select: append([]string{"mcp", "robust"}, s.packs...)})
			if err != nil {
				t.Fatal(err)
			}
			diags, err := l.Lint(s.m)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			findings[s.name] = diags
		}
		for _, r := range reqs {
			a, ref := answers[r.ID], refs[r.ID]
			if a.Error == nil || ref.subject.m == nil {
				continue
			}
			vals := toolValues(t, ref.subject)
			if allowed(ajvAllowances, ref.subject.name, toolName(vals[ref.tool], ref.tool), ref.member) {
				continue
			}
			if !reportedAt(findings[ref.subject.name], ref.tool, "/"+ref.member, locateAjvError(r.Schema, *a.Error)) {
				t.Errorf("%s: Ajv strict (%s) refuses it: %s; but mcplint (mcp, robust%s) reports nothing there", r.ID, a.Dialect, *a.Error, strings.TrimSuffix(", "+strings.Join(ref.subject.packs, ", "), ", "))
			}
		}
	})
}

// ajvAllowances let Ajv strict refuse a fixed schema mcplint passes: known
// disagreements, each with its reason.
var ajvAllowances = []allowance{
	{
		manifest: "rules/testdata/cases/description-injection/attacks/",
		tool:     `tool 4 "mode"`,
		what:     []string{"inputSchema"},
		reason: "\"enumDescriptions\" (a VS Code settings-schema keyword) is unknown to every JSON " +
			"Schema dialect: Ajv strict refuses it, mcplint has no rule for unknown keywords (JSON " +
			"Schema lets validators ignore them). Reported as a possible robust rule.",
	},
	{
		manifest: "rules/testdata/cases/ref-resolvable/dynamic/",
		tool:     `tool 2 "draft07_ignores_dynamic"`,
		what:     []string{"inputSchema"},
		reason: "the case is about \"$dynamicRef\" being an ignored unknown keyword in draft-07; " +
			"Ajv strict refuses unknown keywords, mcplint has no rule for them. Reported.",
	},
	{
		manifest: "testdata/realworld/server-notion/",
		tool:     `tool 11 "API-post-page"`,
		what:     []string{"inputSchema"},
		reason:   unknownFormat,
	},
}

// ajvSubjects are the fixed manifests whose schemas Ajv compiles: the
// committed goldens, and the fixes made for the default packs and for each
// consumer pack.
func ajvSubjects(t *testing.T) []subject {
	t.Helper()
	out := append(fixedCases(t), fixed(t, "mcp", "robust")...)
	out = append(out, fixed(t, "default")...)
	out = append(out, fixed(t, "openai", "openai-strict")...)
	return append(out, fixed(t, "gemini")...)
}

var (
	ajvOnce    sync.Once
	ajvAnswers map[string]ajvAnswer
)

// ajvAll compiles, in the one run of ajv-compile.mjs the suite makes, the
// samples, the schemas of the fixed manifests (TestAjvStrict) and the
// schemas convert writes (TestConvertAjv).
func ajvAll(t *testing.T) map[string]ajvAnswer {
	t.Helper()
	testenv.Oracles(t) // before the Once: a skip inside it would look like a failed run
	ajvOnce.Do(func() {
		reqs, _ := schemaRequests(t, ajvSubjects(t))
		for _, s := range ajvSamples {
			reqs = append(reqs, ajvRequest{ID: "sample " + s.name, Schema: json.RawMessage(s.schema)})
		}
		for _, ct := range converted(t) {
			if ct.valid && ct.schema != nil {
				reqs = append(reqs, ajvRequest{ID: ct.where, Schema: ct.schema})
			}
		}
		ajvAnswers = compileAjv(t, reqs)
	})
	if ajvAnswers == nil {
		t.Fatal("the Ajv run failed (see the first test that ran it)")
	}
	return ajvAnswers
}

// compileAjv runs ajv-compile.mjs once over the requests. Identical
// schemas (fixed goldens and fix outputs share most) are compiled once.
func compileAjv(t *testing.T, reqs []ajvRequest) map[string]ajvAnswer {
	t.Helper()
	var unique []ajvRequest
	keyOf := make(map[string]string, len(reqs)) // request id -> unique id
	byText := map[string]string{}               // schema text -> unique id
	for _, r := range reqs {
		b, err := json.Marshal(r.Schema)
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		id, ok := byText[string(b)]
		if !ok {
			id = fmt.Sprint(len(unique))
			byText[string(b)] = id
			unique = append(unique, ajvRequest{ID: id, Schema: json.RawMessage(b)})
		}
		keyOf[r.ID] = id
	}
	var answers []ajvAnswer
	runNode(t, "ajv-compile.mjs", unique, &answers)
	if len(answers) != len(unique) {
		t.Fatalf("ajv-compile.mjs answered %d results for %d schemas", len(answers), len(unique))
	}
	byID := make(map[string]ajvAnswer, len(answers))
	for _, a := range answers {
		byID[a.ID] = a
	}
	out := make(map[string]ajvAnswer, len(reqs))
	for _, r := range reqs {
		a := byID[keyOf[r.ID]]
		a.ID = r.ID
		out[r.ID] = a
	}
	return out
}
