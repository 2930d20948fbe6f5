// Package pointer spells and reads JSON Pointers (RFC 6901), the addresses
// every other package uses for a place in a tool: rules report at them,
// edits target them, the manifest locates them in the source. It is a leaf:
// it imports nothing of mcplint, so the schema knowledge (schema, normalize)
// and the loader (manifest) share it without depending on each other.
package pointer

import (
	"iter"
	"strings"
)

// Escape escapes one reference token: "~" becomes "~0" and "/" "~1".
func Escape(tok string) string {
	// Two byte searches first: walks escape every key they pass.
	if strings.IndexByte(tok, '~') < 0 && strings.IndexByte(tok, '/') < 0 {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// Unescape reads one escaped reference token.
func Unescape(tok string) string {
	if strings.IndexByte(tok, '~') < 0 {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// Append returns p extended by one unescaped token.
func Append(p, tok string) string { return p + "/" + Escape(tok) }

// Join spells the pointer of unescaped tokens ("" for none: the whole
// document).
func Join(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}

// Split splits a pointer into unescaped tokens; "" (the whole document) has
// none.
func Split(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = Unescape(s)
	}
	return parts
}

// Tokens yields the reference tokens of p in order, still escaped, each
// with whether it is the last, without the slice Split makes: the walks that
// place findings and check edits go down a pointer per finding.
func Tokens(p string) iter.Seq2[string, bool] {
	return func(yield func(tok string, last bool) bool) {
		for rest := p; rest != ""; {
			rest = rest[1:]
			tok := rest
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				tok, rest = rest[:i], rest[i:]
			} else {
				rest = ""
			}
			if !yield(tok, rest == "") {
				return
			}
		}
	}
}

// Parent splits p into the pointer of its parent and its last token,
// unescaped. The whole document ("") has no parent: both are "".
func Parent(p string) (parent, last string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", ""
	}
	return p[:i], Unescape(p[i+1:])
}

// Within reports whether p is anc or lies below it.
func Within(p, anc string) bool {
	return p == anc || strings.HasPrefix(p, anc+"/")
}
