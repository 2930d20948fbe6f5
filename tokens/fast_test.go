package tokens

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFastPathIsNext: the pieces nextASCII reads are the ones next reads,
// over the corpus and texts made to trip it.
func TestFastPathIsNext(t *testing.T) {
	texts := []string{
		`{"a":"B","cC":"dé","x'y":"z's","\"Hello":1, "/x\ny": "é", "{\"": "a\tb  c\r\nd"}`,
		"a\"Bc", "\"é", "x\"", "  a", " \"", "a/\nb", "},\n\"e", "a'", "a's", "'", "ab\u00e9c", "\"\u00e9",
	}
	paths, _ := filepath.Glob("../testdata/realworld/*/tools.json")
	if len(paths) == 0 {
		t.Fatal("no real-world tool lists under ../testdata/realworld")
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	// A fast path that never answered would agree with next vacuously.
	fast := 0
	for _, s := range texts {
		for i := 0; i < len(s); {
			want, wk := next(s, i)
			got, k, ok := nextASCII(s, i)
			if ok {
				fast++
				if got != want || k != wk {
					t.Fatalf("at %d of %.60q: nextASCII %+v to %d, next %+v to %d", i, s[i:], got, k, want, wk)
				}
			}
			i = wk
		}
	}
	if fast == 0 {
		t.Fatal("nextASCII read no piece: the comparison compared nothing")
	}
}
