package convert

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLostKeywords: a keyword a target cannot carry is a warning naming the
// tool and the schema (or keyword) it was in, one per keyword.
func TestLostKeywords(t *testing.T) {
	tests := []struct {
		name, target string
		o            Options
		schema       string
		// lost are the keywords that must be reported, each as
		// "POINTER KEYWORD" with POINTER relative to the input schema.
		lost []string
	}{
		{
			"gemini", "gemini", Options{}, `{
				"type": "object",
				"additionalProperties": false,
				"properties": {
					"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "contains": {"const": "x"}},
					"n": {"type": "integer", "multipleOf": 5},
					"s": {"type": "string", "not": {"const": "forbidden"}},
					"m": {"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": {"type": "string"}}, "propertyNames": {"maxLength": 8}}
				}
			}`,
			[]string{" additionalProperties", "/properties/tags uniqueItems", "/properties/tags contains",
				"/properties/n multipleOf", "/properties/s not", "/properties/m patternProperties", "/properties/m propertyNames"},
		},
		{
			"openai strict", "openai", Options{Strict: true}, `{
				"type": "object",
				"properties": {
					"s": {"type": "string", "not": {"const": "forbidden"}},
					"c": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b"], "dependentRequired": {"a": ["b"]}},
					"d": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"], "if": {"required": ["k"]}, "then": {"minProperties": 1}}
				},
				"required": ["s", "c", "d"]
			}`,
			[]string{"/properties/s not", "/properties/c dependentRequired", "/properties/d if", "/properties/d then"},
		},
		{
			"openai root keywords", "openai", Options{}, `{
				"type": "object",
				"properties": {"a": {"type": "string"}},
				"not": {"required": ["b"]}
			}`,
			[]string{" not"},
		},
		{
			"anthropic root union", "anthropic", Options{}, `{
				"type": "object",
				"oneOf": [
					{"properties": {"a": {"type": "string"}}, "required": ["a"]},
					{"properties": {"b": {"type": "string"}}, "required": ["b"]}
				]
			}`,
			[]string{" oneOf"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s map[string]any
			dec := json.NewDecoder(strings.NewReader(tt.schema))
			dec.UseNumber()
			if err := dec.Decode(&s); err != nil {
				t.Fatal(err)
			}
			_, warns, err := To(tt.target, []Tool{{Name: "t", InputSchema: s, Index: 0}}, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			used := map[int]bool{}
			for _, l := range tt.lost {
				ptr, kw, _ := strings.Cut(l, " ")
				ptr = "/inputSchema" + ptr
				found := false
				for i, w := range warns {
					if used[i] || w.Tool != "t" || (w.Pointer != ptr && w.Pointer != ptr+"/"+kw) || !strings.Contains(w.Message, `"`+kw+`"`) {
						continue
					}
					used[i], found = true, true
					break
				}
				if !found {
					t.Errorf("no warning for %q at %s; warnings:\n%s", kw, ptr, warningList(warns))
				}
			}
		})
	}
}

func warningList(warns []Warning) string {
	var b strings.Builder
	for _, w := range warns {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

// No transform meets a strict-mode size limit, so --strict refuses a
// result still over one (OpenAI refuses it).
func TestStrictLimitWarning(t *testing.T) {
	inner := `{"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"], "additionalProperties": false}`
	for range 11 {
		inner = `{"type": "object", "properties": {"n": ` + inner + `}, "required": ["n"], "additionalProperties": false}`
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(inner), &s); err != nil {
		t.Fatal(err)
	}
	tools := []Tool{{Name: "deep", Description: "d", InputSchema: s}}
	for _, strict := range []bool{false, true} {
		_, warns, err := To("openai", tools, Options{Strict: strict})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, w := range warns {
			if w.Refused && strings.Contains(w.Message, "levels deep") && strings.HasPrefix(w.Pointer, "/inputSchema/properties/n") {
				found = true
			}
		}
		if found != strict {
			t.Errorf("strict %v: nesting refused %v, want %v; warnings %v", strict, found, strict, warns)
		}
	}
}

// Gemini refuses OBJECT parameters without properties; a tool whose
// arguments are constrained only otherwise, in a way no merge turns into
// properties, is refused.
func TestGeminiNoPropertiesWarning(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal([]byte(`{"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}`), &s); err != nil {
		t.Fatal(err)
	}
	tools := []Tool{{Name: "either", InputSchema: s}, {Name: "none", InputSchema: map[string]any{"type": "object"}}}
	_, warns, err := To("gemini", tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		if strings.Contains(w.Message, "non-empty for OBJECT") && w.Refused {
			got = append(got, w.Tool)
		}
	}
	if len(got) != 1 || got[0] != "either" {
		t.Errorf("refused tools %v, want [either] (a tool without arguments gets no parameters at all); warnings %v", got, warns)
	}
}
