package jscode

import (
	"errors"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

func TestRegexpWritten(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{``, `/(?:)/u`},
		{`^[a-z0-9_-]{1,64}$`, `/^[a-z0-9_-]{1,64}$/u`},
		{`a/b`, `/a\/b/u`},
		{`[/]`, `/[\/]/u`},
		{`\/`, `/\//u`},
		{"a\nb\r\u2028\u2029", `/a\u{A}b\u{D}\u{2028}\u{2029}/u`},
		{"[\n-\r]", `/[\u{A}-\u{D}]/u`},
		{`é+😀`, `/\u{E9}+\u{1F600}/u`},
		{"\u202e\t", `/\u{202E}\u{9}/u`},
		{`\\`, `/\\/u`},
		{`\\\/`, `/\\\//u`},
		{`(?=x)abc`, `/(?=x)abc/u`},
		{`(?<=\$)\d+(?<!0)`, `/(?<=\$)\d+(?<!0)/u`},
		{`(?<year>\d{4})-\k<year>`, `/(?<year>\d{4})-\k<year>/u`},
		{`\k<n>(?<n>a)`, `/\k<n>(?<n>a)/u`},
		{`(a)(b)\2\1`, `/(a)(b)\2\1/u`},
		{`\p{L}\P{Lu}\p{Script=Latin}\p{sc=Greek}\p{scx=Han}\p{gc=Nd}\p{ASCII_Hex_Digit}`, `/\p{L}\P{Lu}\p{Script=Latin}\p{sc=Greek}\p{scx=Han}\p{gc=Nd}\p{ASCII_Hex_Digit}/u`},
		{`[\p{L}\d\-_.]`, `/[\p{L}\d\-_.]/u`},
		{`[\b]\cJ\0\x41\u0041\u{1F600}\uD83D\uDE00\uD800`, `/[\b]\cJ\0\x41\u0041\u{1F600}\uD83D\uDE00\uD800/u`},
		{`a{0}b{2,}c{3,5}?d*?e+?f??`, `/a{0}b{2,}c{3,5}?d*?e+?f??/u`},
		{`[^\]\\[]`, `/[^\]\\[]/u`},
		{`[--a]`, `/[--a]/u`},
		{`[a-]`, `/[a-]/u`},
		{`[-]`, `/[-]/u`},
		{`[]`, `/[]/u`},
		{`[^]`, `/[^]/u`},
		{`a|b||`, `/a|b||/u`},
		{`()`, `/()/u`},
		{`(?:)`, `/(?:)/u`},
		{`\^\$\.\*\+\?\(\)\[\]\{\}\|`, `/\^\$\.\*\+\?\(\)\[\]\{\}\|/u`},
		{`^#[0-9a-f]{6}$|##[a]|###vso[#]`, `/^#[0-9a-f]{6}$|#\u{23}[a]|#\u{23}#vso[#]/u`},
	} {
		got, err := Regexp(c.pattern)
		if err != nil || got != c.want {
			t.Errorf("Regexp(%q) = %s, %v; want %s", c.pattern, got, err, c.want)
		}
	}
}

// TestRegexpRefused lists patterns that are not valid in Unicode mode
// (ECMA-262 refuses them: V8 throws a SyntaxError), and the few valid ones
// the parser refuses on purpose.
func TestRegexpRefused(t *testing.T) {
	for _, p := range []string{
		// The known break: an unchecked trailing backslash would have
		// escaped the literal's closing slash.
		`(?=x)abc\`, `\`, `[\`, `a\\\`,
		`(`, `)`, `(a`, `a)`, `[a`, `[`, `(?`, `(?<`, `(?<a`, `(?<a>`,
		`*`, `+a`, `?`, `a**`, `a{`, `a{1`, `a{1,`, `a{,2}`, `{`, `}`, `]`, `a{2,1}`,
		`^*`, `$+`, `\b*`, `\B{2}`, `(?=a)*`, `(?!a)+`, `(?<=a)?`, `(?<!a){1}`,
		`\_`, `\-`, `\a`, `\e`, `\ `, `\@`, `\8`, `\01`, `\c`, `\c1`, `\x`, `\x4`, `\u`, `\u12`, `\u{}`, `\u{110000}`, `\u{1`,
		`\k`, `\k<a>`, `\k<a`, `(a)\2`, `\1`,
		`[\B]`, `[\1]`, `[\k]`, `[\c_]`, `[\w-a]`, `[a-\d]`, `[z-a]`, `[\u{1F600}-a]`,
		`\p`, `\p{`, `\p{L`, `\p{Foo}`, `\p{Script=Foo}`, `\p{Latin}`, `\p{General_Category}`, `\pL`,
		`(?<a>x)(?<a>y)`, `(?<1a>x)`, `(?<a-b>x)`,
		// Valid in recent engines, refused on purpose.
		`(?i:a)`, `(?<é>x)`, `(?<\u0061>x)`, `\p{sc=Latn}`, `\p{sc=Kawi}`, `a{1234567890}`,
		strings.Repeat("(", MaxRegexpDepth+1) + strings.Repeat(")", MaxRegexpDepth+1),
		"a\xffb",
	} {
		got, err := Regexp(p)
		var re *RegexpError
		if !errors.As(err, &re) {
			t.Errorf("Regexp(%q) = %s, %v; want a *RegexpError", p, got, err)
			continue
		}
		if re.Offset < 0 || re.Offset > len(p) {
			t.Errorf("Regexp(%q): offset %d outside the pattern", p, re.Offset)
		}
	}
}

// checkRegexpLiteral checks what every literal Regexp writes must be: a
// body of printable ASCII in which every backslash starts a complete
// escape and no "/" is unescaped, that a JavaScript lexer reads as one
// regular expression token, and that reads back to itself.
func checkRegexpLiteral(t *testing.T, pattern, lit string) {
	t.Helper()
	if !strings.HasPrefix(lit, "/") || !strings.HasSuffix(lit, "/u") {
		t.Fatalf("Regexp(%q) = %s: not /.../u", pattern, lit)
	}
	body := lit[1 : len(lit)-2]
	if strings.Contains(body, "##") {
		t.Fatalf("Regexp(%q) = %s: a runner's command marker may start there", pattern, lit)
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c < 0x20 || c >= 0x7f:
			t.Fatalf("Regexp(%q) = %s: byte %#x in the body", pattern, lit, c)
		case c == '/':
			t.Fatalf("Regexp(%q) = %s: unescaped / in the body", pattern, lit)
		case c == '\\':
			if i+1 == len(body) {
				t.Fatalf("Regexp(%q) = %s: the body ends in a backslash", pattern, lit)
			}
			i++
		}
	}
	// After "=" a JavaScript lexer reads a regular expression: it must
	// end exactly where the literal does.
	l := js.NewLexer(parse.NewInputString("x=" + lit + ";"))
	l.Next()
	l.Next()
	tt, text := l.Next()
	if tt != js.DivToken && tt != js.DivEqToken {
		t.Fatalf("lexer: %v %q", tt, text)
	}
	tt, text = l.RegExp()
	if tt != js.RegExpToken || string(text) != lit {
		t.Fatalf("Regexp(%q) = %s: the lexer reads the literal %q (%v)", pattern, lit, text, tt)
	}
	if tt, text := l.Next(); tt != js.SemicolonToken {
		t.Fatalf("Regexp(%q) = %s: %v %q follows the literal", pattern, lit, tt, text)
	}
	again, err := Regexp(body)
	if err != nil || again != lit {
		t.Fatalf("Regexp(%q) = %s, but its body reads back as %s, %v", pattern, lit, again, err)
	}
}

func TestRegexpLiteralsInert(t *testing.T) {
	for _, p := range regexpCorpus {
		if lit, err := Regexp(p); err == nil {
			checkRegexpLiteral(t, p, lit)
		}
	}
}

// FuzzRegexp checks that every literal Regexp writes is inert (see
// checkRegexpLiteral), whatever the pattern.
func FuzzRegexp(f *testing.F) {
	for _, p := range regexpCorpus {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		lit, err := Regexp(p)
		if err != nil {
			var re *RegexpError
			if !errors.As(err, &re) {
				t.Fatalf("Regexp(%q): %v is not a *RegexpError", p, err)
			}
			return
		}
		checkRegexpLiteral(t, p, lit)
	})
}

// regexpCorpus holds patterns for the tests that judge every pattern alike.
var regexpCorpus = []string{
	``, `(?=x)abc\`, `(?=x)abc\/`, `a/b`, `[/]`, `[\/]`, "a\nb", "[\u2028]", `\\`, `\\\\/`, `*/`, `/*`,
	`^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`, `^\d{4}-\d{2}-\d{2}$`, `^(?!\s*$).+`,
	`(?<y>\d{4})-\k<y>`, `##[a]`, `[#][#][[]`, `\p{L}+`, `\p{Script=Cyrillic}`, `[\u{1F600}-\u{1F64F}]`, `\uD83D\uDE00`,
	`(?<=[$€])\d+(?:\.\d\d)?`, `a{2,5}?`, `[^\]]`, "é\u202e😀", `\_`, `[\w-.]`, `\cM`, `[\b]`,
	`"); alert(1); //`, `</script><script>`, "`${x}`", `\u2028`, `[--/]`, `(?:a|b)*c`,
}
