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
	v, err := ParseJSON(s)
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// ParseJSON decodes the first JSON value of s as JSON does, for a fuzz
// target that skips what does not decode.
func ParseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
