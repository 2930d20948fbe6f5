package testenv

import (
	"encoding/json"
	"strings"
	"testing"
)

// JSON decodes a test's JSON text as the manifest decodes tools: numbers as
// json.Number, so that a test compares values the way the code sees them.
// Text that does not decode fails the test.
func JSON(t testing.TB, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}
