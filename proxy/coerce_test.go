package proxy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/decimaltest"
)

func mustCompile(t *testing.T, s string) *jsonschema.Schema {
	t.Helper()
	c, err := compileRaw([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCoerceArgs: a value is converted only where the schema refuses it as
// sent and takes it converted, and then only when the whole arguments
// pass; every other byte stays as the client sent it.
func TestCoerceArgs(t *testing.T) {
	schema := `{"type":"object","properties":{
		"n":{"type":"integer","minimum":1},
		"x":{"type":"number"},
		"on":{"type":"boolean"},
		"opts":{"type":"object","properties":{"depth":{"type":"integer"}},"required":["depth"]},
		"ids":{"type":"array","items":{"type":"integer"}},
		"name":{"type":"string"},
		"either":{"anyOf":[{"type":"integer"},{"type":"null"}]},
		"opt":{"type":"string"}
	},"required":["name"],"additionalProperties":false}`
	s := mustCompile(t, schema)
	for _, c := range []struct {
		name, in, want string
		whats          []string
	}{
		{"valid stays", `{"name":"a", "n": 5}`, `{"name":"a", "n": 5}`, nil},
		{"decimal integer", `{"name":"a","n":"5"}`, `{"name":"a","n":5}`, []string{"integer"}},
		{"leading zeros stay", `{"name":"a","n":"007"}`, `{"name":"a","n":"007"}`, nil},
		{"surrounding space stays", `{"name":"a","n":" 5"}`, `{"name":"a","n":" 5"}`, nil},
		{"number", `{"name":"a","x":"-1.5e2"}`, `{"name":"a","x":-1.5e2}`, []string{"number"}},
		{"boolean", `{"name":"a","on":"false"}`, `{"name":"a","on":false}`, []string{"boolean"}},
		{"json object", `{"name":"a","opts":"{\"depth\": 2}"}`, `{"name":"a","opts":{"depth":2}}`, []string{"object"}},
		{"json text holding a string to convert", `{"name":"a","opts":"{\"depth\":\"2\"}"}`, `{"name":"a","opts":{"depth":2}}`, []string{"object", "integer"}},
		{"json array", `{"name":"a","ids":"[1, 2]"}`, `{"name":"a","ids":[1,2]}`, []string{"array"}},
		{"array items", `{"name":"a","ids":["1",2]}`, `{"name":"a","ids":[1,2]}`, []string{"integer"}},
		{"a union with null", `{"name":"a","either":"3"}`, `{"name":"a","either":3}`, []string{"integer"}},
		{"null for an optional argument", `{"name":"a","opt":null}`, `{"name":"a"}`, []string{"null"}},
		{"null for the first argument", `{"opt":null,"name":"a"}`, `{"name":"a"}`, []string{"null"}},
		{"a string the schema wants stays", `{"name":"5"}`, `{"name":"5"}`, nil},
		{"not a number", `{"name":"a","n":"five"}`, `{"name":"a","n":"five"}`, nil},
		{"a bound still refused: nothing sent converted", `{"name":"a","n":"0"}`, `{"name":"a","n":"0"}`, nil},
		{"another argument still wrong: nothing converted", `{"name":"a","n":"5","x":"lots"}`, `{"name":"a","n":"5","x":"lots"}`, nil},
		{"null for a required argument stays", `{"name":null}`, `{"name":null}`, nil},
		{"not JSON", `{"name":`, `{"name":`, nil},
		{"a fraction for an integer", `{"name":"a","n":"1.5"}`, `{"name":"a","n":"1.5"}`, nil},
		{"True is no boolean", `{"name":"a","on":"True"}`, `{"name":"a","on":"True"}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, cs := coerceArgs(s, []byte(c.in))
			if string(out) != c.want {
				t.Errorf("got %s, want %s", out, c.want)
			}
			if len(cs) != len(c.whats) {
				t.Fatalf("%d coercions, want %d: %+v", len(cs), len(c.whats), cs)
			}
			for i, w := range c.whats {
				if !strings.Contains(cs[i].what, w) {
					t.Errorf("coercion %d says %q, want it to name %s", i, cs[i].what, w)
				}
				if strings.Contains(cs[i].schemaAt, "\"") || !strings.HasPrefix(cs[i].schemaAt, "/") {
					t.Errorf("coercion %d placed at %q", i, cs[i].schemaAt)
				}
			}
			if len(cs) == 0 && !bytes.Equal(out, []byte(c.in)) {
				t.Error("unchanged arguments were rewritten")
			}
		})
	}
}

// TestCoerceKeepsOtherBytes: the bytes of arguments the coercion does not
// touch are the client's, spacing and number spelling included.
func TestCoerceKeepsOtherBytes(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"n":{"type":"integer"},"big":{"type":"number"}}}`)
	in := `{ "big" : 1.000000000000000000001 ,  "n" : "12" }`
	out, cs := coerceArgs(s, []byte(in))
	if want := `{ "big" : 1.000000000000000000001 ,  "n" : 12 }`; string(out) != want || len(cs) != 1 {
		t.Errorf("got %s (%d coercions), want %s", out, len(cs), want)
	}
}

// TestCoerceDecimals runs the table of decimal strings that package
// coerce's Arguments and Middleware run: the proxy converts a string sent
// for an integer or a number exactly where they do.
func TestCoerceDecimals(t *testing.T) {
	schemas := map[bool]*jsonschema.Schema{
		true:  mustCompile(t, `{"type":"object","properties":{"n":{"type":"integer"}}}`),
		false: mustCompile(t, `{"type":"object","properties":{"n":{"type":"number"}}}`),
	}
	for _, c := range decimaltest.Cases {
		args, _ := json.Marshal(map[string]string{"n": c.In})
		want := string(args)
		if c.Want != "" {
			want = `{"n":` + c.Want + `}`
		}
		out, cs := coerceArgs(schemas[c.Integer], args)
		if string(out) != want {
			t.Errorf("%s for an integer %v: got %s, want %s (%s)", args, c.Integer, out, want, c.Why)
		}
		if (len(cs) > 0) != (c.Want != "") {
			t.Errorf("%s for an integer %v: %d coercions logged", args, c.Integer, len(cs))
		}
	}
}

// FuzzCoerce: whatever the arguments, coercion returns them unchanged or
// converted into arguments the schema accepts, every converted value one
// of the forms it converts from.
func FuzzCoerce(f *testing.F) {
	const s = `{"type":"object","properties":{"n":{"type":"integer"},"x":{"type":["number","null"]},"b":{"type":"boolean"},
		"o":{"type":"object","properties":{"d":{"type":"integer"}}},"a":{"type":"array","items":{"type":"integer"}},"s":{"type":"string"}},"required":["s"]}`
	for _, seed := range []string{`{"s":"a","n":"5"}`, `{"s":"a","o":"{\"d\":\"1\"}","a":"[\"2\"]"}`, `{"s":null}`, `{"s":"","b":"true","x":"1e400"}`, `[]`, `{`} {
		f.Add([]byte(seed))
	}
	schema, err := compileRaw([]byte(s))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		out, cs := coerceArgs(schema, args)
		if len(cs) == 0 {
			if !bytes.Equal(out, args) {
				t.Fatalf("unchanged arguments rewritten: %s into %s", args, out)
			}
			return
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s became %s, not JSON: %v", args, out, err)
		}
		if err := schema.Validate(v); err != nil {
			t.Fatalf("%s became %s, which the schema refuses: %v", args, out, err)
		}
	})
}
