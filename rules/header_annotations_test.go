package rules

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestHeaderAnnotations: the check rule x-mcp-header-valid reports, as
// mcplint proxy reads it: each annotation with its header name, property
// path and problems, a repeat (ignoring case) judged against the first.
func TestHeaderAnnotations(t *testing.T) {
	var input any
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"a":{"type":"string","x-mcp-header":"Zone"},
		"b":{"type":"string","x-mcp-header":"zone"},
		"o":{"type":"object","properties":{"c":{"type":"integer","x-mcp-header":"Count"}}},
		"d":{"type":"string","x-mcp-header":"Bad Name\r\n"},
		"l":{"type":"array","items":{"type":"string","x-mcp-header":"Item"}}}}`), &input); err != nil {
		t.Fatal(err)
	}
	got := map[string]HeaderAnnotation{}
	for _, a := range HeaderAnnotations(input) {
		got[a.Pointer] = a
	}
	for _, c := range []struct {
		at, name, path, problem string
	}{
		{"/properties/a", "Zone", "a", ""},
		{"/properties/b", "zone", "b", `repeats "Zone"`},
		{"/properties/o/properties/c", "Count", "o c", ""},
		{"/properties/d", "Bad Name\r\n", "d", "CR (U+000D), LF (U+000A)"},
		{"/properties/l/items", "Item", "l", "not statically reachable"},
	} {
		a, ok := got[c.at]
		if !ok {
			t.Errorf("no annotation at %s", c.at)
			continue
		}
		problems := strings.Join(a.Problems, "; ")
		if a.Name() != c.name || c.problem == "" && problems != "" || !strings.Contains(problems, c.problem) {
			t.Errorf("%s: name %q, problems %q; want %q, %q", c.at, a.Name(), problems, c.name, c.problem)
		}
		if c.problem == "" && !slices.Equal(a.Path(), strings.Fields(c.path)) {
			t.Errorf("%s: path %q, want %q", c.at, a.Path(), c.path)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d annotations, want 5", len(got))
	}
}
