package guard

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Log returns s as a Writer of text would write it, as one finished stream:
// what Text leaves of a value, with the runner command markers escaped as
// if s began a line.
func Log(s string) string {
	var b bytes.Buffer
	w := NewWriter(&b, false)
	w.scan([]byte(Text(s)), true)
	b.Write(w.out)
	return b.String()
}

// The Actions toolkit's escapes (packages/core/src/command.ts).
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// WorkflowData returns s as the data of a GitHub workflow command
// (::error ...::DATA): the terminal and CI layers (Log), then the toolkit's
// escapeData. The runner reads it back as Log(s).
func WorkflowData(s string) string { return dataEscaper.Replace(Log(s)) }

// WorkflowProperty returns s as the value of a property of a GitHub
// workflow command (file=VALUE): the terminal and CI layers, then the
// toolkit's escapeProperty. The runner reads it back as Log(s).
func WorkflowProperty(s string) string { return propertyEscaper.Replace(Log(s)) }

// Code returns s as a Markdown code span fit for a table cell: s through
// the terminal layer, between backtick fences longer than any run of
// backticks in it, padded with a space when it starts or ends with a
// backtick or a space (CommonMark strips one such pair), "|" escaped as
// GFM tables ask even inside code spans. The empty string stays empty: an
// empty code span does not exist.
func Code(s string) string {
	s = Text(s)
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if strings.Trim(s, " ") != "" && (s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' || s[len(s)-1] == ' ') {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// sarifEscaper escapes the characters SARIF 2.1.0 §3.11.6 says a plain
// text message escapes, so that no embedded link is read in it.
var sarifEscaper = strings.NewReplacer("[", `\[`, "]", `\]`)

// SARIFText returns s as the text of a SARIF message (message.text): the
// terminal layer, and "[" and "]" escaped with a backslash.
func SARIFText(s string) string { return sarifEscaper.Replace(Text(s)) }

// JSON returns the JSON document doc as NewJSONWriter writes it: the same
// values, with every character the terminal layer escapes and every
// runner command marker spelled as a JSON escape. It is the layer of the
// JSON documents mcplint generates besides its reports (a lock file, a
// baseline, a saved listing, a converted tool list), which hold a
// stranger's strings and are printed, diffed and reviewed in terminals, CI
// logs and pull requests. A document with nothing to escape, nearly every
// one, is returned as it is.
func JSON(doc []byte) []byte {
	if inert(doc) {
		return doc
	}
	var b bytes.Buffer
	b.Grow(len(doc) + len(doc)/16)
	w := NewJSONWriter(&b)
	// A piece at a time, so that the Writer's own buffer stays small
	// beside the document and its copy.
	for len(doc) > 0 {
		n := min(len(doc), 1<<16)
		w.Write(doc[:n]) // a bytes.Buffer does not fail
		doc = doc[n:]
	}
	w.Flush()
	return b.Bytes()
}

// inert reports whether a Writer would write doc as it is: no character
// the terminal layer escapes (but line feeds and tabs), no command marker,
// no line starting with "::".
func inert(doc []byte) bool {
	lineStart := true
	for i := 0; i < len(doc); {
		c := doc[i]
		switch {
		case c == '\n':
			lineStart = true
		case c == ' ' || c == '\t':
		case c == ':' && lineStart && i+1 < len(doc) && doc[i+1] == ':':
			return false
		case c == '#':
			if full, _ := marker(doc[i:]); full {
				return false
			}
			lineStart = false
		case plain(c):
			lineStart = false
		case c < utf8.RuneSelf:
			return false
		default:
			r, size := utf8.DecodeRune(doc[i:])
			if r == utf8.RuneError && size <= 1 || Unsafe(r) || unicode.IsSpace(r) && lineStart {
				return false
			}
			lineStart = false
			i += size
			continue
		}
		i++
	}
	return true
}
