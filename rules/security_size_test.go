package rules

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/manifest"
)

// TestCompactSize holds the counted size to encoding/json's output.
func TestCompactSize(t *testing.T) {
	values := []any{
		nil, true, false, "", "a\"b\\c\b\f\n\r\t\x01<>&é\u2028\u2029\xff\U0001F600", json.Number("-1.5e3"),
		[]any{}, map[string]any{}, []any{1.5, "x", nil}, map[string]any{"k<": []any{map[string]any{"": "\x7f"}}},
	}
	dec := json.NewDecoder(bytes.NewReader(benchgen.Manifest(50)))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	values = append(values, doc)
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := compactSize(v); got != len(b) {
			t.Errorf("compactSize(%.60s) = %d, encoding/json writes %d", b, got, len(b))
		}
	}
}

// TestRawCompactSize holds the size counted from a tool's text to the size
// of the tool decoded, over every JSON manifest of the test data and a
// generated one.
func TestRawCompactSize(t *testing.T) {
	srcs := map[string][]byte{
		"generated": benchgen.Manifest(200),
		"escapes":   []byte(`{"tools":[{"name":"e\u00e9\"\\\/\b\f\n\r\t\u0001\u2028<>&\ud83d\ude00","inputSchema":{"type":"object","x":[1.50, -0e+3, true, false, null, {}, []]}}]}`),
	}
	files, err := filepath.Glob("../testdata/*/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("testdata/*/*.json")
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = src
	}
	tools := 0
	for name, src := range srcs {
		m, err := manifest.Load(name, src)
		if err != nil {
			if name == "generated" || name == "escapes" {
				t.Fatal(err)
			}
			continue // not a manifest, or one built to fail
		}
		for _, tl := range m.Tools {
			raw, ok := tl.Raw()
			if !ok {
				continue
			}
			v, err := tl.Value()
			if err != nil {
				continue
			}
			tools++
			if got, want := rawCompactSize(raw), compactSize(v); got != want {
				t.Errorf("%s tool %d: counted from the text %d, decoded %d", name, tl.Index, got, want)
			}
		}
	}
	if tools < 500 {
		t.Fatalf("only %d tools compared", tools)
	}
}
