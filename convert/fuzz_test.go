package convert

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
)

// FuzzConvert checks, for any manifest that loads, that every target
// converts it without panicking and the same way twice, and that a JSON
// target's document loads back with one tool for each tool converted.
func FuzzConvert(f *testing.F) {
	if src, err := os.ReadFile("testdata/tools.json"); err == nil {
		f.Add(src)
	}
	for _, s := range []string{
		`{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n", "x"]}}]}`,
		`[{"name": "r", "inputSchema": {"$ref": "#/$defs/n", "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}}}}]`,
		`{"name": "u", "inputSchema": {"anyOf": [{"type": "object"}, {"type": "null"}], "additionalProperties": false}}`,
		"tools:\n  - name: y\n    inputSchema: {type: object, properties: {s: {type: [string, 'null'], enum: [a, b, null]}}}\n",
		`[{"type": "function", "function": {"name": "o", "parameters": {"type": "object", "properties": {"d": {"format": "date-time"}}}}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := manifest.Load("f", src)
		if err != nil {
			return
		}
		if _, err := FromManifest(m); err != nil {
			return
		}
		for _, c := range goldenCases {
			convert := func() ([]byte, int, error) {
				// Decoded anew each time: a conversion must not depend
				// on what an earlier one did to the values.
				tools, _ := FromManifest(m)
				out, _, err := To(c.target, tools, c.o)
				return out, len(tools), err
			}
			out, n, err := convert()
			var te *ToolError
			if errors.As(err, &te) {
				continue
			} else if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			again, _, _ := convert()
			if !bytes.Equal(out, again) {
				t.Fatalf("%s: two conversions differ:\n%s\n%s", c.name, out, again)
			}
			back, err := manifest.Load(c.name+".json", out)
			if err != nil {
				t.Fatalf("%s: the converted document does not load: %v\n%s", c.name, err, out)
			}
			if len(back.Tools) != n {
				t.Fatalf("%s: %d tools converted, %d read back\n%s", c.name, n, len(back.Tools), out)
			}
		}
		for _, zod := range []int{3, 4} {
			tools, _ := FromManifest(m)
			if _, _, err := To("zod", tools, Options{Zod: zod}); err != nil {
				var te *ToolError
				if !errors.As(err, &te) {
					t.Fatalf("zod %d: %v", zod, err)
				}
			}
		}
	})
}
