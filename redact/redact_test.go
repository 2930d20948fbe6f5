package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

const secret = `s3cr3t"<&>%:,é`

func TestStringEveryForm(t *testing.T) {
	r := New(secret)
	var x bytes.Buffer
	_ = xml.EscapeText(&x, []byte(secret))
	j, _ := json.Marshal(secret)
	for _, text := range []string{
		"token " + secret + " end",
		"json " + string(j),
		fmt.Sprintf("quoted %q", secret),
		fmt.Sprintf("ascii %+q", secret),
		"xml " + x.String(),
		"github " + githubProperty.Replace(secret),
		"url ?k=" + strings.ReplaceAll(secret, "%", "%25"),
	} {
		got := r.String(text)
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("%q: the secret is left in %q", text, got)
		}
		if !strings.Contains(got, Mask) {
			t.Errorf("%q: no mask in %q", text, got)
		}
	}
}

func TestShortValuesAndNil(t *testing.T) {
	r := New("1", "true", "")
	if got := r.String("line 1: true"); got != "line 1: true" {
		t.Errorf("short values were masked: %q", got)
	}
	var none *Redactor
	if got := none.String("abc"); got != "abc" {
		t.Errorf("nil redactor changed text: %q", got)
	}
	if got := none.Bytes([]byte("abc")); string(got) != "abc" {
		t.Errorf("nil redactor changed bytes: %q", got)
	}
}

func TestLongestFirst(t *testing.T) {
	r := New("abcdef", "abcdefghij")
	if got := r.String("xabcdefghijx"); got != "x***x" {
		t.Errorf("got %q, want the longer secret masked whole", got)
	}
}

func TestHeaderAndURL(t *testing.T) {
	r := New()
	r.AddHeader(http.Header{"Authorization": {"Bearer tok-123456"}, "X-Api-Key": {"key-abcdef"}})
	r.AddURL("https://alice:hunter22@example.com/mcp?api_key=qwerty-9&v=2")
	for _, s := range []string{"tok-123456", "key-abcdef", "hunter22", "qwerty-9"} {
		if got := r.String("echo " + s); got != "echo ***" {
			t.Errorf("%s: got %q", s, got)
		}
	}
	if got := URL("https://alice:hunter22@example.com/mcp?api_key=qwerty-9&v=2&flag#frag"); got != "https://***@example.com/mcp?api_key=***&v=***&flag" {
		t.Errorf("URL = %q", got)
	}
	if got := URL("http://example.com/mcp"); got != "http://example.com/mcp" {
		t.Errorf("URL without secrets = %q", got)
	}
}

// TestBasicCredentials: HTTP Basic credentials are a secret in two
// spellings, base64 on the wire and "user:password" decoded, and a server
// echoing what it received may use either: a --header "Authorization:
// Basic ..." value, and a URL's user information, which the HTTP client
// sends as one.
func TestBasicCredentials(t *testing.T) {
	r := New()
	r.AddHeader(http.Header{"Authorization": {"basic " + base64.StdEncoding.EncodeToString([]byte("bob:pa55word-x"))}})
	r.AddURL("https://alice:hunter22@example.com/mcp")
	for _, s := range []string{
		"bob:pa55word-x", "pa55word-x",
		"Basic " + base64.StdEncoding.EncodeToString([]byte("alice:hunter22")),
		"alice:hunter22",
	} {
		if got := r.String("got " + s + " here"); strings.Contains(got, "pa55") || strings.Contains(got, "hunter") ||
			strings.Contains(got, base64.StdEncoding.EncodeToString([]byte("alice:hunter22"))) {
			t.Errorf("%q: got %q", s, got)
		}
	}
}

func TestMultiline(t *testing.T) {
	r := New("first-line\nsecond-line")
	if got := r.String("a first-line b\nc second-line d"); strings.Contains(got, "line") {
		t.Errorf("a line of a multi-line secret is left: %q", got)
	}
}

func TestError(t *testing.T) {
	base := errors.New("denied for tok-123456")
	err := New("tok-123456").Error(base)
	if err.Error() != "denied for ***" || !errors.Is(err, base) {
		t.Errorf("Error = %v (unwraps to the original: %v)", err, errors.Is(err, base))
	}
	if clean := errors.New("fine"); New("tok-123456").Error(clean) != clean {
		t.Errorf("an error without secrets was wrapped")
	}
}

// TestWriterSplitWrites: a secret written in pieces, across calls, is still
// masked, and Flush writes what no line break ended.
func TestWriterSplitWrites(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(New("tok-123456"), &out)
	for _, p := range []string{"a tok-1", "23456 b\nc to", "k-123456\rd tok-12", "3456"} {
		if _, err := w.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(out.String(), "d ") {
		t.Errorf("an unfinished line was written before Flush: %q", out.String())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "a *** b\nc ***\rd ***"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestGuardedForms: a secret holding characters the output guard escapes
// is masked in its escaped spelling too, which is what the outputs hold.
func TestGuardedForms(t *testing.T) {
	// Go's quoting spells BEL \a and the quote \"; the guard \x07 and ".
	r := New("tok\"\a\ufe0f-123456")
	for _, s := range []string{`x tok"\x07\ufe0f-123456 y`, `::error::tok"\x07\ufe0f-123456`} {
		if got := r.String(s); strings.Contains(got, "123456") {
			t.Errorf("%q: left %q", s, got)
		}
	}
}
