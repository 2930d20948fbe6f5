package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSON: a secret of digits that a number holds leaves the document
// JSON, with the number a masked string and every other value in place.
func TestJSON(t *testing.T) {
	r := New("73190465", "sk-live-abcdef")
	for _, tt := range []struct{ in, want string }{
		// Masking the text keeps it JSON: the text, as it was laid out.
		{`{"a": "key sk-live-abcdef", "n": 5}`, `{"a": "key ***", "n": 5}`},
		{`{"a": "73190465"}`, `{"a": "***"}`},
		// A number holds it: each value masked alone, order kept.
		{`{"z": 73190465, "a": [1, 731904650.5, {"k73190465": true}], "s": "x sk-live-abcdef", "n": null}`,
			`{"z":"***","a":[1,"***",{"k***":true}],"s":"x ***","n":null}`},
		{`[-73190465e3]`, `["***"]`},
		// Escapes that spell the secret by accident: the string is masked whole.
		{`{"a": 73190465, "b": "\u00073190465"}`, `{"a":"***","b":"***"}`},
		// JSON Lines, as a saved listing is: a line a document.
		{"{\"id\": 1, \"n\": 73190465}\n{\"id\": 2}\n", "{\"id\":1,\"n\":\"***\"}\n{\"id\":2}\n"},
		// No JSON to begin with: masked as text.
		{`{"a": 73190465`, `{"a": ***`},
	} {
		got := string(r.JSON([]byte(tt.in)))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("JSON(%s) (-want +got):\n%s", tt.in, d)
		}
		if validStream([]byte(tt.in)) && !validStream([]byte(got)) {
			t.Errorf("JSON(%s) = %s, no longer JSON", tt.in, got)
		}
		if strings.Contains(got, "73190465") || strings.Contains(got, "abcdef") {
			t.Errorf("JSON(%s) = %s shows a secret", tt.in, got)
		}
	}
	var nilR *Redactor
	if got := string(nilR.JSON([]byte(`{"a": 73190465}`))); got != `{"a": 73190465}` {
		t.Errorf("a nil Redactor changed the document: %s", got)
	}
}

// BenchmarkJSONNumberSecret: a listing of many strings whose number holds
// a secret is written again value by value in time linear in its size
// (with the whole output copied once a value, 400 KB took 2.4 s and 4 GB).
func BenchmarkJSONNumberSecret(b *testing.B) {
	r := New("73190465")
	var sb strings.Builder
	sb.WriteString(`{"n":73190465,"a":[`)
	for i := range 20000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"some string value"`)
	}
	sb.WriteString("]}")
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		r.JSON(src)
	}
}
