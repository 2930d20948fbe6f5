// Package redact keeps secrets out of everything mcplint prints or saves.
// A Redactor is told the values that must never be shown (header values,
// HTTP Basic credentials both encoded and decoded, the user information
// and query values of a server URL, values expanded from the
// environment, --env values) and replaces every occurrence of them with
// Mask, in the forms they take in each output: as written, escaped in
// JSON, in a Go-quoted string, in XML, in a URL, in a GitHub workflow
// command, and as package guard shows it. A server spells what it echoes
// as it likes, so the text is also decoded (JSON and Go escapes of any
// character, URL percent-encoding and "+" for a space, XML character
// references; two layers deep) and what decodes to a secret is masked in
// the original (spelling.go). A cut, which mcplint marks with "…", may
// split a secret: the pieces of a secret beside a "…" are masked too, so
// that a cut leaves fewer than CutPiece bytes of one. Redactor.String is
// the one function every output path goes through, directly or through a
// Writer; a nil Redactor leaves text as it is.
//
// Values shorter than MinLength are not treated as secrets: masking "1" or
// "true" everywhere would wreck line numbers and words without protecting
// anything a secret of that length could.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpfit/mcplint/guard"
)

// Mask replaces a secret.
const Mask = "***"

// MinLength is the length (in bytes) below which a value is not masked.
const MinLength = 6

// Redactor replaces secrets. Its methods are safe for concurrent use.
type Redactor struct {
	mu       sync.RWMutex
	values   map[string]bool // every form of every secret
	replacer *strings.Replacer
	// plain are the secrets as they are, sought in the decoded text.
	plain []plainSecret
}

// New returns a Redactor for the given secret values.
func New(values ...string) *Redactor {
	r := &Redactor{}
	r.Add(values...)
	return r
}

// Add adds secret values.
func (r *Redactor) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.values == nil {
		r.values = map[string]bool{}
	}
	added := false
	for _, v := range values {
		for _, part := range pieces(v) {
			if len(part) < MinLength {
				continue
			}
			for _, f := range forms(part) {
				if len(f) >= MinLength && !r.values[f] {
					r.values[f], added = true, true
				}
			}
			if !slices.ContainsFunc(r.plain, func(p plainSecret) bool { return p.s == part }) {
				r.plain = append(r.plain, newPlainSecret(part))
			}
		}
	}
	if !added {
		return
	}
	// The longest forms first: the replacer tries its patterns in order at
	// each position, and a secret that contains another must win.
	all := slices.SortedFunc(func(yield func(string) bool) {
		for v := range r.values {
			if !yield(v) {
				return
			}
		}
	}, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(all))
	for _, v := range all {
		pairs = append(pairs, v, Mask)
	}
	r.replacer = strings.NewReplacer(pairs...)
}

// AddHeader adds every value of h.
func (r *Redactor) AddHeader(h http.Header) {
	for _, vs := range h {
		r.Add(vs...)
		for _, v := range vs {
			// "Bearer TOKEN": the token alone is what servers echo.
			if scheme, rest, ok := strings.Cut(v, " "); ok {
				rest = strings.TrimSpace(rest)
				r.Add(rest)
				if strings.EqualFold(scheme, "Basic") {
					r.addBasic(rest)
				}
			}
		}
	}
}

// addBasic adds the credentials of HTTP Basic authentication (RFC 7617)
// in their decoded spelling too: "user:password", and the password.
func (r *Redactor) addBasic(token string) {
	b, err := base64.StdEncoding.DecodeString(token)
	if err != nil {
		return
	}
	decoded := string(b)
	r.Add(decoded)
	if _, pass, ok := strings.Cut(decoded, ":"); ok {
		r.Add(pass)
	}
}

// AddURL adds the user information and the query values of a URL.
func (r *Redactor) AddURL(raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if u.User != nil {
		r.Add(u.User.Username())
		p, _ := u.User.Password()
		r.Add(p)
		// The HTTP client sends the user information as Basic
		// credentials, which a server may echo as it received them.
		r.Add(base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + p)))
	}
	for _, vs := range u.Query() {
		r.Add(vs...)
	}
}

// String returns s with every secret replaced by Mask: in every form Add
// lists, in any spelling of escapes that decodes to it (spelling.go), and
// the pieces of one that a cut ("…") left beside the cut (CutPiece).
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	rep, plain := r.replacer, r.plain
	r.mu.RUnlock()
	if rep == nil {
		return s
	}
	if spans := spelledSpans(s, plain, decodeLayers); len(spans) > 0 {
		s = maskSpans(s, spans)
	}
	return rep.Replace(s)
}

// Bytes is String for bytes. It returns b itself when nothing is masked.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || r.empty() {
		return b
	}
	s := r.String(string(b))
	if len(s) == len(b) && s == string(b) {
		return b
	}
	return []byte(s)
}

func (r *Redactor) empty() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.replacer == nil
}

// Error returns err with its message redacted, or err itself when the
// message holds no secret.
func (r *Redactor) Error(err error) error {
	if err == nil || r == nil {
		return err
	}
	msg := err.Error()
	if red := r.String(msg); red != msg {
		return &redacted{msg: red, err: err}
	}
	return err
}

// redacted is an error whose message was redacted; errors.As still reaches
// the original.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// URL returns raw as it may be shown: the user information and every query
// value replaced by Mask, the keys kept. Text that does not parse as a URL
// is returned masked whole.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Mask
	}
	if u.User != nil {
		u.User = url.User(Mask)
	}
	if u.RawQuery != "" {
		var parts []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, hasValue := strings.Cut(kv, "=")
			if hasValue {
				k += "=" + Mask
			}
			parts = append(parts, k)
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	u.Fragment, u.RawFragment = "", ""
	s := u.String()
	// url.URL escapes the mask in the user part; show it as written.
	return strings.Replace(s, url.PathEscape(Mask)+"@", Mask+"@", 1)
}

// pieces is a value and, when it spans several lines, each of its lines:
// a text report can break a value at its line breaks.
func pieces(v string) []string {
	out := []string{v}
	if strings.ContainsAny(v, "\r\n") {
		for _, line := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' }) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// forms are the spellings of v in the outputs: as is, escaped in JSON (with
// and without HTML escaping), Go-quoted (%q in messages), escaped in XML
// (JUnit, Checkstyle, SARIF viewers), escaped in URLs, and escaped as
// GitHub workflow command data and properties.
func forms(v string) []string {
	out := []string{v}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	out = append(out, unquote(strings.TrimSuffix(b.String(), "\n")))
	if j, err := json.Marshal(v); err == nil {
		out = append(out, unquote(string(j)))
	}
	out = append(out, unquote(strconv.Quote(v)), unquote(strconv.QuoteToASCII(v)))
	b.Reset()
	_ = xml.EscapeText(&b, []byte(v))
	out = append(out, b.String())
	out = append(out, url.QueryEscape(v), url.PathEscape(v))
	out = append(out, githubData.Replace(v), githubProperty.Replace(v))
	// As the output guard shows a value: its control characters escaped
	// (before the redacting writer sees them), and in workflow commands.
	out = append(out, guard.Text(v), guard.Log(v), guard.WorkflowData(v), guard.WorkflowProperty(v))
	return out
}

func unquote(s string) string {
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

// The escaping of GitHub workflow commands (report/github.go).
var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
