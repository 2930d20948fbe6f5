package jscode

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// regexpTokens are the pieces randomPatterns strings together: the
// grammar's delimiters and escapes, whole and cut short, so that most
// patterns are invalid in some way and many are valid.
var regexpTokens = []string{
	"a", "Z", "0", "9", "é", "😀", "/", "\n", "\u2028", " ", "-", ",", "=", "!", "<", ">", "_", "$", "^", ".", "|",
	"*", "+", "?", "{", "}", "{2}", "{1,3}", "{3,1}", "{2,}", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "(?<m>", "(?i:",
	"[", "]", "[^", "\\", "\\\\", "\\/", "\\d", "\\w", "\\s", "\\b", "\\B", "\\-", "\\_", "\\.", "\\n", "\\0", "\\1", "\\2", "\\8",
	"\\c", "\\cA", "\\x4", "\\x41", "\\u", "\\u00e9", "\\u{1F600}", "\\u{110000}", "\\uD83D", "\\uDE00", "\\k", "\\k<n>", "\\k<x>",
	"\\p{L}", "\\P{Lu}", "\\p{Script=Latin}", "\\p{sc=Latn}", "\\p{Foo}", "\\p", "\\p{", "\\]", "\\[", "\\{", "\\}",
}

// randomPatterns strings together n patterns from regexpTokens, the same
// ones every run.
func randomPatterns(n int) []string {
	rng := rand.New(rand.NewPCG(27, 3))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := 1 + rng.IntN(8); k > 0; k-- {
			b.WriteString(regexpTokens[rng.IntN(len(regexpTokens))])
		}
		out[i] = b.String()
	}
	return out
}

// conservative are the reasons the parser refuses patterns an engine may
// compile (see the package doc).
var conservative = []string{"unsupported group", "is not an ASCII identifier", "duplicate group name",
	"unknown Unicode property", "quantifier count too large", "back-reference number too large", "nested deeper", "capturing groups"}

// TestRegexpOracle asks Node.js's engine about a corpus of patterns: every
// pattern the parser accepts must compile in Unicode mode, its literal must
// parse as JavaScript and denote the same pattern; every pattern it
// refuses must be one the engine refuses too, unless the refusal is one of
// the conservative ones. Every \p{...} name the parser knows must compile.
func TestRegexpOracle(t *testing.T) {
	testenv.Oracles(t)
	patterns := append([]string{}, regexpCorpus...)
	patterns = append(patterns, randomPatterns(4000)...)
	for _, n := range PropertyNames() {
		patterns = append(patterns, `\p{`+n+`}`)
	}
	type testCase struct {
		Pattern string  `json:"pattern"`
		Literal *string `json:"literal"`
	}
	var in struct {
		Cases []testCase `json:"cases"`
	}
	errs := make([]error, len(patterns))
	for i, p := range patterns {
		c := testCase{Pattern: p}
		if lit, err := Regexp(p); err == nil {
			c.Literal = &lit
		} else {
			errs[i] = err
		}
		in.Cases = append(in.Cases, c)
	}
	stdin, _ := json.Marshal(in)
	var out struct {
		Results []struct {
			Valid    bool   `json:"valid"`
			Error    string `json:"error"`
			Parses   bool   `json:"parses"`
			Flags    string `json:"flags"`
			Same     bool   `json:"same"`
			Source   string `json:"source"`
			Expected string `json:"expected"`
		} `json:"results"`
	}
	if err := json.Unmarshal(testenv.Node(t, "regexp-check.mjs", stdin), &out); err != nil {
		t.Fatal(err)
	}
	accepted, refused, spared := 0, 0, 0
	for i, r := range out.Results {
		p, c := patterns[i], in.Cases[i]
		switch {
		case c.Literal != nil:
			accepted++
			if !r.Valid || !r.Parses || r.Flags != "u" || !r.Same {
				t.Errorf("%q: wrote %s, but the engine says valid=%v parses=%v flags=%q source %q, expected %q (%s)",
					p, *c.Literal, r.Valid, r.Parses, r.Flags, r.Source, r.Expected, r.Error)
			}
		case r.Valid:
			spared++
			ok := false
			for _, reason := range conservative {
				ok = ok || strings.Contains(errs[i].Error(), reason)
			}
			if !ok {
				t.Errorf("%q: refused (%v), but the engine compiles it in Unicode mode", p, errs[i])
			}
		default:
			refused++
		}
	}
	t.Logf("%d patterns: %d written as literals, %d refused as the engine refuses them, %d refused conservatively", len(patterns), accepted, refused, spared)
}
