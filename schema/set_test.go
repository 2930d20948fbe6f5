package schema

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestSetAgreesWithEqual(t *testing.T) {
	vals := []any{
		nil, true, false, "a", "", json.Number("1"), json.Number("1.0"), json.Number("1e0"), 1.0, json.Number("-0"), json.Number("0"),
		json.Number("9007199254740993"), json.Number("9007199254740992"), json.Number("1e999"),
		map[string]any{"a": json.Number("1"), "b": []any{"x"}}, map[string]any{"b": []any{"x"}, "a": json.Number("1.00")},
		[]any{"a", "b"}, []any{"b", "a"}, map[string]any{}, []any{},
	}
	for _, a := range vals {
		for _, b := range vals {
			if Equal(a, b) && Hash(a) != Hash(b) {
				t.Errorf("%v and %v are equal, with different hashes", a, b)
			}
		}
	}
	s := NewSet(vals...)
	for _, v := range vals {
		if !s.Has(v) {
			t.Errorf("%v is not in the set", v)
		}
	}
	// 1, 1.0, 1e0 and 1.0 (float64) are one; -0 and 0 are one; the two
	// large integers differ (Equal compares them exactly); the two objects
	// are one.
	if want := len(vals) - 3 - 1 - 1; s.Len() != want {
		t.Errorf("%d distinct values, want %d", s.Len(), want)
	}
	if s.Has("b") || s.Has(map[string]any{"a": json.Number("2")}) {
		t.Error("a value not added is found")
	}
}

// TestSetIsLinear: 100,000 values are added and found, with the number of
// equality tests counted by the buckets they meet: about one each.
func TestSetIsLinear(t *testing.T) {
	s := NewSet()
	for i := range 100000 {
		if !s.Add(fmt.Sprint("v", i)) {
			t.Fatalf("v%d added twice", i)
		}
	}
	longest := 0
	for _, b := range s.buckets {
		longest = max(longest, len(b))
	}
	if longest > 2 {
		t.Errorf("a bucket of %d values", longest)
	}
}

// TestCheckerLongRequired: a schema whose 100,000 properties are all
// required is valid, and one name required twice, at the end, is found;
// the names were compared pair by pair.
func TestCheckerLongRequired(t *testing.T) {
	props := map[string]any{}
	var req []any
	for i := range 100000 {
		name := fmt.Sprint("p", i)
		props[name] = map[string]any{"type": "string"}
		req = append(req, name)
	}
	c := NewChecker()
	if probs := c.Problems(map[string]any{"type": "object", "properties": props, "required": req}, Draft2020); len(probs) != 0 {
		t.Errorf("problems: %v", probs)
	}
	dup := append(req[:len(req):len(req)], "p99999")
	if probs := c.Problems(map[string]any{"type": "object", "properties": props, "required": dup}, Draft2020); len(probs) != 1 {
		t.Errorf("a name required twice: %v", probs)
	}
}
