package manifest

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// tokenNameOffsets is what jsonNameOffsets computes, by a tokenizer: the
// reference it must agree with.
func tokenNameOffsets(src []byte, base int) map[string]int {
	order := map[string]int{}
	dec := jsontext.NewDecoder(bytes.NewReader(src))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return order
		}
		if tok.Kind() != '"' {
			continue
		}
		if kind, n := dec.StackIndex(dec.StackDepth()); kind == '{' && n%2 == 1 {
			if _, seen := order[tok.String()]; !seen {
				order[tok.String()] = base + int(dec.InputOffset())
			}
		}
	}
}

func TestJSONNameOffsetsAgreesWithTokenizer(t *testing.T) {
	for _, src := range []string{
		`{}`,
		`{"a":1,"b":{"a":2,"c":[{"d":null}]}}`,
		`{ "a" : "x:y" , "b" :"\":" , "c\"d": {"e\\": true}}`,
		`{"value": "a \"quoted\": name", "next": ["k", "v:", {"k2" :1}]}`,
		`{"\u00e9t\u00e9": 1, "ete": 2, "tab\t": "\\", "z": "\\\\\":"}`,
		"{\n  \"properties\": {\n    \"b\": {},\n    \"a\": {}\n  },\n  \"required\": [\"a\"]\n}",
		`[{"in":"array"}, "str:", {"in":"second"}]`,
	} {
		if !jsontext.Value(src).IsValid() {
			t.Fatalf("invalid test input %s", src)
		}
		want := tokenNameOffsets([]byte(src), 100)
		got := jsonNameOffsets([]byte(src), 100, map[string]int{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: (-tokenizer +scan)\n%s", src, diff)
		}
	}
}

func FuzzJSONNameOffsets(f *testing.F) {
	f.Add([]byte(`{"a":{"b\"":":","c":["d:",{"e":1}]}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		if !jsontext.Value(src).IsValid() {
			return
		}
		want := tokenNameOffsets(src, 0)
		got := jsonNameOffsets(src, 0, map[string]int{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: (-tokenizer +scan)\n%s", src, diff)
		}
	})
}
