package lint

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOptionValue(t *testing.T) {
	r := &Rule{ID: "r", Options: map[string]any{
		"max":    128,
		"ratio":  0.5,
		"strict": false,
		"form":   "oneOf",
		"names":  []string{"a"},
		"any":    nil,
		"list":   []any{1, "x"},
		"map":    map[string]int{"a": 1},
		"count":  uint8(3),
	}}
	for _, c := range []struct {
		name string
		in   any
		want any
		err  string
	}{
		{"max", 64.0, 64, ""},
		{"max", json.Number("7"), 7, ""},
		{"max", 2.5, nil, "takes a value like its default 128, not 2.5"},
		{"max", "64", nil, `not "64"`},
		{"max", 1e300, nil, "not 1e+300"},
		{"count", 255.0, uint8(255), ""},
		{"count", 256.0, nil, "not 256"},
		{"count", -1.0, nil, "not -1"},
		{"ratio", 2.0, 2.0, ""},
		{"strict", true, true, ""},
		{"strict", "true", nil, `not "true"`},
		{"form", "anyOf", "anyOf", ""},
		{"form", nil, nil, "not null"},
		{"names", []any{"x", "y"}, []string{"x", "y"}, ""},
		{"names", []any{"x", 1.0}, nil, `not ["x",1]`},
		{"names", "x", nil, `not "x"`},
		{"list", []any{2.0, nil}, []any{2.0, nil}, ""},
		{"map", map[string]any{"b": 2.0}, map[string]int{"b": 2}, ""},
		{"map", map[string]any{"b": "2"}, nil, "not"},
		{"any", map[string]any{"k": "v"}, map[string]any{"k": "v"}, ""},
		{"nope", 1.0, nil, `rule r has no option "nope" (options: any, count, form, list, map, max, names, ratio, strict)`},
	} {
		got, err := OptionValue(r, c.name, c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s=%v: error %v, want %q", c.name, c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s=%v: %v", c.name, c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s=%v (-want +got):\n%s", c.name, c.in, diff)
		}
	}
	if _, err := OptionValue(&Rule{ID: "bare"}, "x", 1.0); err == nil || err.Error() != "rule bare has no options" {
		t.Errorf("rule without options: %v", err)
	}
}
