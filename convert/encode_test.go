package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/guard"
)

// TestEncodeAsEncodingJSON: documents are written as encoding/json writes
// them indented by two spaces without HTML escapes, then guard.JSON, whether a string takes
// the plain path or the encoder, and whether a list is written on one
// goroutine or on several (a list of parallelItems items or more), and
// however deep a value lies (indentation is cut from a fixed run of spaces
// up to a depth, and made beyond it).
func TestEncodeAsEncodingJSON(t *testing.T) {
	deep := func(depth, i int) any {
		var v any = []any{i, i%3 == 0}
		for range depth {
			v = map[string]any{"k": v}
		}
		return v
	}
	strs := []string{"", "plain text", `a "quote"`, `back\slash`, "new\nline", "tab\t", "<a&b>", "\u2028\u2029", "é ü", "\x7f", "\xff\xfe", "\x00", "emoji 🙂"}
	for _, n := range []int{1, 3, parallelItems - 1, parallelItems, 3*parallelItems + 5} {
		items := make([]any, n)
		for i := range items {
			items[i] = map[string]any{
				// Keys no JSON Schema keyword order applies to.
				"a": fmt.Sprintf("tool_%d", i),
				"b": strs[i%len(strs)],
				"c": float64(i) / 4,
				"d": i%2 == 0,
				"e": []any{strs[(i+1)%len(strs)], nil, map[string]any{}},
				"f": []any{},
				"g": i,
				"h": deep(60+i%10, i),
			}
		}
		doc := map[string]any{"x": items}
		got, err := encode(doc)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(guard.JSON(want.Bytes())), string(got)); diff != "" {
			t.Fatalf("%d items (-encoding/json +encode):\n%s", n, diff)
		}
	}
}

// TestEncodeRefusesBadNumbers: a library caller may put any text in a
// json.Number; written as it is, it could make the document anything.
func TestEncodeRefusesBadNumbers(t *testing.T) {
	for _, n := range []string{"1, \"x\": 2", "NaN", "0x10", ""} {
		if out, err := encode(map[string]any{"minimum": json.Number(n)}); err == nil {
			t.Errorf("json.Number(%q) written as %s", n, out)
		}
	}
	if _, err := encode(map[string]any{"minimum": json.Number("-1.5e3")}); err != nil {
		t.Error(err)
	}
}
