package lint

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	ids := []string{"tool-name-valid", "input-schema-root-object", "openai-strict-required"}
	for _, tt := range []struct{ name, want string }{
		{"tool-name-vaild", "tool-name-valid"},
		{"openai-strict-requird", "openai-strict-required"},
		{"toolnamevalid", "tool-name-valid"},
		{"zzz", ""},
		{strings.Repeat("tool-name-valid", 1000), ""},
		{"", ""},
	} {
		if got := Closest(tt.name, ids); got != tt.want {
			t.Errorf("Closest(%.40q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// BenchmarkClosestLongName: a name far longer than any candidate (a
// stranger's config can hold one) costs no edit-distance table.
func BenchmarkClosestLongName(b *testing.B) {
	name := strings.Repeat("x", 1<<20)
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = strings.Repeat("r", 40)
	}
	for b.Loop() {
		Closest(name, ids)
	}
}
