package redact

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzMask: whatever surrounds a secret, spelled with any mix of escapes,
// the masked text holds it neither as it is nor once decoded, and masking
// never fails on any text.
func FuzzMask(f *testing.F) {
	const secret = "sk/a&b c-Zebra42x"
	r := New(secret)
	f.Add("key ", ".", uint64(0))
	f.Add(`"\`, `…\u00`, uint64(0x5555))
	f.Add("…", "%", uint64(0xffff_ffff))
	f.Add(`&#x`, `;`, uint64(0x1234_5678))
	f.Fuzz(func(t *testing.T, before, after string, how uint64) {
		var b strings.Builder
		for i := range len(secret) {
			c := secret[i]
			switch (how >> (2 * (i % 32))) & 3 {
			case 0:
				b.WriteByte(c)
			case 1:
				fmt.Fprintf(&b, `\u%04x`, c)
			case 2:
				fmt.Fprintf(&b, "%%%02X", c)
			case 3:
				fmt.Fprintf(&b, "&#%d;", c)
			}
		}
		out := r.String(before + b.String() + after)
		if strings.Contains(out, secret) {
			t.Fatalf("%q: the secret is left in %q", before+b.String()+after, out)
		}
		if d, _ := unescape(out); strings.Contains(d, secret) {
			t.Fatalf("%q: the secret is left, spelled, in %q", before+b.String()+after, out)
		}
		_ = r.String(before + after)
	})
}

// FuzzJSON: a JSON document (or JSON Lines) stays one once masked, with no
// secret of digits left, wherever the document puts it.
func FuzzJSON(f *testing.F) {
	const secret = "73190465"
	r := New(secret)
	f.Add(`{"a": 73190465, "b": [1.73190465e5, "x73190465"]}`)
	f.Add("{\"n\": -731904650}\n[73190465]\n")
	f.Add(`"\u0037\u00333190465"`)
	f.Fuzz(func(t *testing.T, doc string) {
		if !validStream([]byte(doc)) {
			return
		}
		out := r.JSON([]byte(doc))
		if !validStream(out) {
			t.Fatalf("%q: masked as %q, no longer JSON", doc, out)
		}
		if strings.Contains(string(out), secret) {
			t.Fatalf("%q: the secret is left in %q", doc, out)
		}
	})
}
