package redact

import (
	"fmt"
	"strings"
	"testing"
)

// TestEverySpelling: a secret is masked however a server spells it: JSON
// escapes of any character (\/, \u0026, \u00XX, surrogate pairs), URL
// encoding of any byte in either case and "+" for a space, XML character
// references, Go escapes, and one escaping inside another (JSON in JSON),
// mixed with the plain characters.
func TestEverySpelling(t *testing.T) {
	const (
		tok    = "tok/en&Value-123"
		phrase = "pass phrase 99"
		emoji  = "key\U0001F600abc123"
	)
	r := New(tok, phrase, emoji)
	for _, text := range []string{
		`"tok\/en&Value-123"`,
		`"tok/en\u0026Value-123"`,
		`"\u0074ok/en&Va\u006Cue-123"`,
		`"\u0074\u006f\u006b\u002f\u0065\u006e\u0026\u0056\u0061\u006c\u0075\u0065\u002d\u0031\u0032\u0033"`,
		`tok%2Fen%26Value-123`,
		`tok%2fen%26Value%2D123`,
		`%74%6F%6B%2F%65%6E%26%56%61%6C%75%65%2D%31%32%33`,
		`tok/en&#x26;Value-123`,
		`tok/en&#38;Value-123`,
		`tok/en&amp;Value-123`,
		`\x74ok/en&Value-123`,
		`"tok\\/en\\u0026Value-123"`,
		`{"d": "{\"k\": \"tok\\\/en\\u0026Value-123\"}"}`,
		`q=pass+phrase+99`,
		`q=pass%20phrase+99`,
		`pass\u0020phrase 99`,
		`"key\ud83d\ude00abc123"`,
		`key%F0%9F%98%80abc123`,
	} {
		got := r.String("before " + text + " after")
		if !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") || !strings.Contains(got, Mask) {
			t.Errorf("%s: masked to %q", text, got)
		}
		for _, piece := range []string{"Value", "phrase", "abc123"} {
			if strings.Contains(got, piece) {
				t.Errorf("%s: %q is left in %q", text, piece, got)
			}
		}
	}
}

// TestNoFalseMask: escapes, percent signs and cut marks that spell no
// secret are left as they are.
func TestNoFalseMask(t *testing.T) {
	r := New("tok/en&Value-123")
	for _, text := range []string{
		`a\u0026b \/ %2F &amp; \x41 … tok… …en&Value`,
		`"tok\/en&Value-124"`,
		`tok%2Fen%26Value-12`,
		`toke…`,
		strings.Repeat("…", 1000),
	} {
		if got := r.String(text); got != text {
			t.Errorf("%q masked to %q", text, got)
		}
	}
}

// TestCutLeavesNoPiece: a secret cut by a shortened text ("…" marks every
// cut mcplint makes) leaves fewer than CutPiece of its bytes on either
// side of the cut, in every spelling.
func TestCutLeavesNoPiece(t *testing.T) {
	const s = "sk-live-Zq81pW33xY"
	r := New(s)
	for k := 1; k < len(s); k++ {
		for _, text := range []string{
			"error: key " + s[:k] + "…",
			"…" + s[k:] + " was refused",
			`"key \u0073` + s[1:k] + "…",
		} {
			got := r.String(text)
			for i := 0; i+CutPiece <= len(s); i++ {
				if strings.Contains(got, s[i:i+CutPiece]) {
					t.Errorf("%q became %q: %q of the secret is left", text, got, s[i:i+CutPiece])
					break
				}
			}
		}
	}
	// A cut inside an escape sequence leaves the rest of it beside the
	// mark.
	spelled := `\u0073\u006b\u002d` + s[3:]
	for k := 1; k < 18; k++ {
		for _, text := range []string{"…" + spelled[k:], `x "` + spelled[:len(spelled)-k] + "…"} {
			got := r.String(text)
			for i := 3; i+CutPiece <= len(s); i++ {
				if strings.Contains(got, s[i:i+CutPiece]) {
					t.Errorf("%q became %q: %q of the secret is left", text, got, s[i:i+CutPiece])
					break
				}
			}
		}
	}
	// A piece not next to the cut is no piece of a cut secret.
	if got := r.String("sk-live-Zq…"); got != Mask+"…" {
		t.Errorf("got %q", got)
	}
	if got := r.String("… Zq81pW33xY"); got != "… Zq81pW33xY" {
		t.Errorf("a word after the cut and a space: %q", got)
	}
}

// BenchmarkCutMarks: text made of cut marks and runs of a secret's first
// byte costs a pass per pattern at each mark, not a search per length.
func BenchmarkCutMarks(b *testing.B) {
	r := New("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab")
	text := strings.Repeat(strings.Repeat("a", 40)+"…", 10000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.String(text)
	}
}

// BenchmarkStringJSON: a listing of escaped JSON, as --save masks it.
func BenchmarkStringJSON(b *testing.B) {
	r := New("tok-0123456789", "Bearer abc.def.ghi")
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, `{"name":"t%d","description":"Line one\nline \"two\" \u00e9 50%% off …","inputSchema":{"type":"object"}},`, i)
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.String(text)
	}
}
