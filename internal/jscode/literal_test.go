package jscode

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text: a-b_c.d/e (f) [g] {h} ~!@#$%^*+=|;:',?", `"plain text: a-b_c.d/e (f) [g] {h} ~!@#$%^*+=|;:',?"`},
		{`"); require("child_process"); //`, `"\"); require(\"child_process\"); //"`},
		{`\`, `"\\"`},
		{"a\nb\tc\rd", `"a\nb\tc\u000dd"`},
		{"\u2028\u2029\u0085\u202e\ufeff\x00\x1b", `"\u2028\u2029\u0085\u202e\ufeff\u0000\u001b"`},
		{"</script><!--&", `"\u003c/script\u003e\u003c!--\u0026"`},
		{"`${x}`", `"\u0060${x}\u0060"`},
		{"é😀", `"\u00e9\ud83d\ude00"`},
		{"a\xffb", `"a\ufffdb"`},
		{"x ##[error]y ##VSO[a.b]c ### #", `"x #\u0023[error]y #\u0023VSO[a.b]c #\u0023# #"`},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// checkStringLiteral checks that lit, String(s), is printable ASCII, that
// a JavaScript lexer reads it as one string token, and that it holds s.
func checkStringLiteral(t *testing.T, s, lit string) {
	t.Helper()
	for i := 0; i < len(lit); i++ {
		if lit[i] < 0x20 || lit[i] >= 0x7f {
			t.Fatalf("String(%q) = %s: byte %#x", s, lit, lit[i])
		}
	}
	if strings.Contains(lit, "##") {
		t.Fatalf("String(%q) = %s: a runner's command marker may start there", s, lit)
	}
	l := js.NewLexer(parse.NewInputString("x=" + lit + ";"))
	l.Next()
	l.Next()
	if tt, text := l.Next(); tt != js.StringToken || string(text) != lit {
		t.Fatalf("String(%q) = %s: the lexer reads %v %q", s, lit, tt, text)
	}
	// The escapes String uses are JSON's too.
	var back string
	if err := json.Unmarshal([]byte(lit), &back); err != nil || back != string([]rune(s)) {
		t.Fatalf("String(%q) = %s holds %q (%v)", s, lit, back, err)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\\", "\u2028", "</script", "😀", "\xff", "`${a}`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkStringLiteral(t, s, String(s))
		if c := Comment(s); strings.ContainsAny(c, "\n\r") || strings.Contains(c, "##") || !utf8.ValidString(c) {
			t.Fatalf("Comment(%q) = %q", s, c)
		}
	})
}

func TestNumber(t *testing.T) {
	for _, n := range []string{"0", "-0", "12", "-1.5", "1e400", "2.5E-3", "9007199254740993", "1.5e-07", "-0.0", "0e0", "10E+2"} {
		if got, ok := Number(n); !ok || got != n {
			t.Errorf("Number(%q) = %q, %v", n, got, ok)
		}
	}
	for _, n := range []string{"", "01", "+1", ".5", "1.", "0x10", "1_000", "NaN", "Infinity", "1);alert(1", "1\n",
		"-", "1e", "1e+", "00", "-01", "0.", "--1", "1.2.3", "1e2e3", " 1", "1 "} {
		if got, ok := Number(n); ok {
			t.Errorf("Number(%q) = %q, want refused", n, got)
		}
	}
}

func TestKeyAndValue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"query", "query"}, {"$a_1", "$a_1"}, {"1a", `"1a"`}, {"a-b", `"a-b"`}, {"", `""`},
		{"__proto__", `["__proto__"]`}, {"constructor", "constructor"}, {"é", `"\u00e9"`},
	} {
		if got := Key(c.in); got != c.want {
			t.Errorf("Key(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	v := map[string]any{"__proto__": map[string]any{"polluted": true}, "b": []any{json.Number("1"), json.Number("1);x("), nil, "</script>"}, "a\n": 1.5}
	want := `{["__proto__"]:{"polluted":true},"a\n":1.5,"b":[1,null,null,"\u003c/script\u003e"]}`
	if got := Value(v); got != want {
		t.Errorf("Value = %s, want %s", got, want)
	}
}
