package schema

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/internal/testenv"
)

func TestRefCycles(t *testing.T) {
	tests := []struct {
		name, schema string
		want         [][]string
	}{
		{"none", `{"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}`, nil},
		{"self", `{"$defs": {"a": {"$ref": "#/$defs/a"}}}`, [][]string{{"/$defs/a"}}},
		{"two, entered from a property", `{"properties": {"p": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}`,
			[][]string{{"/$defs/a", "/$defs/b"}}},
		{"the root", `{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#"}}}`, [][]string{{"", "/$defs/a"}}},
		{"two cycles and a chain into one", `{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}, "c": {"$ref": "#/$defs/c"}, "d": {"$ref": "#/$defs/b"}}}`,
			[][]string{{"/$defs/a", "/$defs/b"}, {"/$defs/c"}}},
		{"through an anchor", `{"$defs": {"a": {"$anchor": "A", "$ref": "#/$defs/b"}, "b": {"$ref": "#A"}}}`,
			[][]string{{"/$defs/a", "/$defs/b"}}},
		{"a reference to a non-schema ends the chain", `{"$defs": {"a": {"$ref": "#/required"}}, "required": ["a"]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testenv.JSON(t, tt.schema)
			got := RefCycles(root, NewResolver(root))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("cycles (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLongCycle: a cycle of any length is found, once.
func TestLongCycle(t *testing.T) {
	for _, n := range []int{1001, 5000} {
		root := benchgen.RefRing(n, true)
		cycles := RefCycles(root, NewResolver(root))
		if len(cycles) != 1 || len(cycles[0]) != n || cycles[0][0] != "/$defs/d0" {
			t.Errorf("a cycle of %d references: found %d cycles (first of length %d)", n, len(cycles), func() int {
				if len(cycles) > 0 {
					return len(cycles[0])
				}
				return 0
			}())
		}
	}
}

// BenchmarkRefChain follows chains of references of growing length: the
// time per reference must stay flat (linear in the schema).
func BenchmarkRefChain(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		root := benchgen.RefRing(n, false)
		raw, _ := json.Marshal(root)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				RefCycles(root, NewResolver(root))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/ref")
		})
	}
}
