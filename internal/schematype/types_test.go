package schematype

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNames(t *testing.T) {
	for _, c := range []struct {
		name string
		s    map[string]any
		want []string
	}{
		{"none", map[string]any{}, nil},
		{"string", map[string]any{"type": "integer"}, []string{"integer"}},
		{"list", map[string]any{"type": []any{"integer", "null"}}, []string{"integer", "null"}},
		{"list skips non-strings", map[string]any{"type": []any{"string", 3.0, nil}}, []string{"string"}},
		{"other kind", map[string]any{"type": 4.0}, nil},
	} {
		if got := Names(c.s); !cmp.Equal(got, c.want) {
			t.Errorf("%s: Names(%v) = %q, want %q", c.name, c.s, got, c.want)
		}
	}
}
