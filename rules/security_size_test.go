package rules

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcplint/mcplint/internal/benchgen"
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
