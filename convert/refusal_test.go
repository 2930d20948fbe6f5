package convert

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func decodeTool(t *testing.T, name, inputSchema string) Tool {
	t.Helper()
	var s map[string]any
	dec := json.NewDecoder(strings.NewReader(inputSchema))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	return Tool{Name: name, Description: "d", InputSchema: s}
}

func refusedOnly(ws []Warning) []Warning {
	var out []Warning
	for _, w := range ws {
		if w.Refused {
			out = append(out, w)
		}
	}
	return out
}

// TestRefusals: what a target's rules still refuse in the document written
// comes back refused, at the source tool and the place in it, naming the
// consumer and the rule; the document is written all the same.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name, target string
		o            Options
		schema       string
		// pointer and words of the one refusal expected, "" for none.
		pointer, says string
	}{
		{"mcp: a boolean property schema", "mcp", Options{}, `{"type": "object", "properties": {"v": true}}`,
			"/inputSchema/properties/v", "refused by MCP specification, MCP TypeScript SDK"},
		{"openai: none for a plain schema", "openai", Options{}, `{"type": "object", "properties": {"v": {"type": "string"}}}`, "", ""},
		{"anthropic: a type no dialect has", "anthropic", Options{}, `{"type": "object", "properties": {"n": {"type": "int"}}}`,
			"/inputSchema/properties/n/type", "refused by Anthropic API"},
		{"anthropic: a draft-07 tuple is rewritten into 2020-12 instead", "anthropic", Options{},
			`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"r": {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}], "additionalItems": false}}}`, "", ""},
		{"gemini json schema: so is a draft-07 one", "gemini", Options{GeminiJSONSchema: true},
			`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"r": {"type": "array", "items": [{"type": "integer"}], "additionalItems": false}}}`, "", ""},
		{"gemini: a required free-form map", "gemini", Options{}, `{"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["m"]}`,
			"/inputSchema/properties/m", "--gemini-json-schema"},
		{"gemini: an optional one is left out instead", "gemini", Options{}, `{"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}, "q": {"type": "string"}}}`, "", ""},
		{"gemini json schema: a reference to nothing", "gemini", Options{GeminiJSONSchema: true}, `{"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}`,
			"/inputSchema/properties/a/$ref", "refused by Gemini parametersJsonSchema"},
		{"gemini: a shapeless branch of a type list is left out", "gemini", Options{}, `{"type": "object", "properties": {"v": {"type": ["object", "string"]}}, "required": ["v"]}`,
			"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := decodeTool(t, "t", tt.schema)
			tool.Index = 3
			out, warns, err := To(tt.target, []Tool{tool}, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) == 0 {
				t.Fatal("nothing written")
			}
			refused := refusedOnly(warns)
			if strings.Contains(tt.schema, "draft-07") && !strings.Contains(string(out), `"prefixItems"`) {
				t.Errorf("the draft-07 tuple was not rewritten:\n%s", out)
			}
			if tt.pointer == "" {
				if len(refused) > 0 {
					t.Errorf("refused: %v", refused)
				}
				return
			}
			if len(refused) != 1 {
				t.Fatalf("%d refusals, want 1: %v", len(refused), warns)
			}
			w := refused[0]
			if w.Tool != "t" || w.Index != 3 || w.Pointer != tt.pointer || !strings.Contains(w.Message, tt.says) || !strings.HasSuffix(w.Message, "]") {
				t.Errorf("refusal %+v, want at %s saying %q and naming its rule", w, tt.pointer, tt.says)
			}
		})
	}
}

// TestSourcePointer: a place of the output is placed at itself in the
// source when the source has it, else at its deepest ancestor there.
func TestSourcePointer(t *testing.T) {
	tool := decodeTool(t, "t", `{"type": "object", "properties": {"a/b": {"type": ["object", "string"]}}}`)
	for ptr, want := range map[string]string{
		"/inputSchema/properties/a~1b/type":     "/inputSchema/properties/a~1b/type",
		"/inputSchema/properties/a~1b/anyOf/0":  "/inputSchema/properties/a~1b",
		"/inputSchema/properties/missing/items": "/inputSchema/properties",
		"/name":                                 "/name",
		"/function":                             "",
		"":                                      "",
	} {
		if got := sourcePointer(tool, ptr); got != want {
			t.Errorf("sourcePointer(%q) = %q, want %q", ptr, got, want)
		}
	}
	tool.OutputSchema = map[string]any{"type": "object"}
	tool.Other = map[string]any{"_meta": map[string]any{"k": "v"}}
	for ptr, want := range map[string]string{
		"/outputSchema/type":  "/outputSchema/type",
		"/outputSchema/items": "/outputSchema",
		"/_meta/k":            "/_meta/k",
	} {
		if got := sourcePointer(tool, ptr); got != want {
			t.Errorf("sourcePointer(%q) = %q, want %q", ptr, got, want)
		}
	}
	// A tool without a schema: the output's {"type": "object"} is the
	// source tool's.
	if got := sourcePointer(Tool{Name: "n"}, "/inputSchema/type"); got != "" {
		t.Errorf("no schema: %q", got)
	}
}

// TestDroppedSummary: a member many tools lose is one warning, at the
// first of them, naming them all (the message the first three).
func TestDroppedSummary(t *testing.T) {
	var tools []Tool
	for i, name := range []string{"a", "b", "", "d"} {
		tools = append(tools, Tool{Name: name, Title: strings.ToUpper(name) + "!", Index: i + 1,
			Annotations: map[string]any{"readOnlyHint": true}, InputSchema: map[string]any{"type": "object"}})
	}
	tools[0].Annotations = nil
	tools[2].Extra = map[string]any{"cache_control": map[string]any{}}
	_, warns, err := To("gemini", tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Warning{}
	for _, w := range warns {
		if w.Pointer != "/name" { // the nameless tool is named
			got[w.Pointer] = w
		}
	}
	want := map[string]Warning{
		"/title": {Tool: "a", Index: 1, Pointer: "/title", Tools: []string{"a", "b", "tool 3", "d"},
			Message: `"title" dropped from 4 tools (Gemini has no place for it: only the name and description reach the model): a, b, tool 3, …`},
		"/annotations": {Tool: "b", Index: 2, Pointer: "/annotations", Tools: []string{"b", "tool 3", "d"},
			Message: `"annotations" dropped from 3 tools (Gemini has no place for it: hints such as readOnlyHint are not passed on): b, tool 3, d`},
		"/cache_control": {Tool: "", Index: 3, Pointer: "/cache_control", Tools: []string{"tool 3"},
			Message: `"cache_control" dropped from 1 tool (Gemini has no place for it: it belongs to the format the tools were read from): tool 3`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if s := got["/title"].String(); s != got["/title"].Message {
		t.Errorf("a summary prints as its message, not %q", s)
	}
}

// TestShorten: a description over OpenAI's limit is cut at a word
// boundary to fit, counted in characters as the API counts them.
func TestShorten(t *testing.T) {
	word := "évènement " // 10 characters, 12 bytes
	long := strings.Repeat(word, 200)
	tests := []struct {
		in      string
		max     int
		wantCut int
	}{
		{"short enough", 1024, 0},
		{strings.Repeat("é", 1024), 1024, 0}, // 2048 bytes, 1024 characters: fits
		{long, 1024, 2000 - 1019},
		{strings.Repeat("x", 2000), 1024, 2000 - 1023}, // no space: a hard cut
	}
	for i, tt := range tests {
		got, cut := shorten(tt.in, tt.max)
		if cut != tt.wantCut {
			t.Errorf("%d: cut %d, want %d", i, cut, tt.wantCut)
		}
		if cut == 0 {
			if got != tt.in {
				t.Errorf("%d: changed a description that fits", i)
			}
			continue
		}
		kept, ok := strings.CutSuffix(got, "…")
		if n := utf8.RuneCountInString(got); !ok || n > tt.max || !strings.HasPrefix(tt.in, kept) || utf8.RuneCountInString(tt.in)-utf8.RuneCountInString(kept) != cut {
			t.Errorf("%d: %d characters, %q…", i, n, got[max(0, len(got)-24):])
		}
		if strings.Contains(tt.in, " ") && (strings.HasSuffix(kept, " ") || tt.in[len(kept)] != ' ') {
			t.Errorf("%d: not cut at a word boundary: %q", i, got[max(0, len(got)-24):])
		}
	}
}

// TestOpenAIDescriptionCut: the cut is a warning naming how much was cut,
// and the result is not refused.
func TestOpenAIDescriptionCut(t *testing.T) {
	tool := decodeTool(t, "t", `{"type": "object"}`)
	tool.Description = strings.Repeat("word ", 300)
	for _, o := range []Options{{}, {API: "responses"}, {Strict: true}} {
		out, warns, err := To("openai", []Tool{tool}, o)
		if err != nil {
			t.Fatal(err)
		}
		if r := refusedOnly(warns); len(r) > 0 {
			t.Errorf("%+v: refused %v", o, r)
		}
		if len(warns) != 1 || warns[0].Pointer != "/description" || !strings.Contains(warns[0].Message, fmt.Sprintf("(%d characters cut)", 1500-1019)) {
			t.Errorf("%+v: warnings %v", o, warns)
		}
		if strings.Contains(string(out), strings.Repeat("word ", 206)) {
			t.Errorf("%+v: the description was not cut", o)
		}
	}
}

// TestGeminiNoArguments: a root that says only "an object with no
// properties" (a Pydantic title at most) is declared without parameters;
// a description of it goes with a warning.
func TestGeminiNoArguments(t *testing.T) {
	tools := []Tool{
		decodeTool(t, "titled", `{"type": "object", "title": "titledArguments", "properties": {}}`),
		decodeTool(t, "described", `{"type": "object", "description": "Nothing to pass.", "properties": {}, "required": []}`),
	}
	tools[1].Index = 1
	out, warns, err := To("gemini", tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), `"parameters"`) {
		t.Errorf("parameters written:\n%s", out)
	}
	if len(warns) != 1 || warns[0].Tool != "described" || warns[0].Refused || !strings.Contains(warns[0].Message, `"Nothing to pass."`) {
		t.Errorf("warnings %v", warns)
	}
}
