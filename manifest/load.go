package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// ReadFile loads a manifest from a file, or from standard input when path is
// "-".
func ReadFile(path string) (*Manifest, error) {
	var r io.Reader
	name := path
	if path == "-" {
		r = os.Stdin
		name = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return nil, &Error{Path: path, Msg: "is a directory, not a manifest file"}
		}
		r = f
	}
	src, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(src) > MaxSize {
		return nil, &Error{Path: name, Msg: fmt.Sprintf("file is larger than %d MiB; split the tool list", MaxSize>>20)}
	}
	return Load(name, src)
}

// Load recognises the shape and syntax of src and locates its tools. Name is
// used in messages; a name ending in .yaml or .yml is read as YAML, any other
// source as JSON when it starts with '{' or '[' and as YAML otherwise.
func Load(name string, src []byte) (*Manifest, error) {
	m := &Manifest{Path: name, Src: src}
	body := src
	base := 0
	if bytes.HasPrefix(body, bom) {
		// Tolerated (editors on Windows write it) and kept: offsets stay
		// relative to the file, so fixes leave it in place.
		body, base = body[3:], 3
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, &Error{Path: name, Msg: "empty file: expected a tool manifest; " + acceptedShapes}
	}
	if !utf8.Valid(body) {
		off := base
		for rest := body; len(rest) > 0; {
			r, size := utf8.DecodeRune(rest)
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
			rest = rest[size:]
		}
		return nil, m.errorAt(off, "invalid UTF-8: manifests must be UTF-8 text")
	}
	ext := strings.ToLower(filepath.Ext(name))
	first := bytes.TrimLeft(body, " \t\r\n")
	if ext == ".yaml" || ext == ".yml" || (first[0] != '{' && first[0] != '[') {
		m.Format = YAML
		if err := m.loadYAML(base); err != nil {
			return nil, err
		}
		return m, nil
	}
	m.Format = JSON
	if err := m.loadJSON(base); err != nil {
		return nil, err
	}
	return m, nil
}

// jsonError turns a jsontext error into an Error at its place.
func (m *Manifest) jsonError(base int, err error) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		msg := se.Err.Error()
		msg = strings.TrimPrefix(msg, "jsontext: ")
		if strings.Contains(msg, "duplicate object member name") {
			msg = strings.Replace(msg, "duplicate object member name", "duplicate key", 1) +
				" (JSON parsers disagree on which value wins; keep one)"
		}
		if strings.Contains(msg, "exceeded max depth") {
			msg = fmt.Sprintf("nesting deeper than %d levels", MaxDepth)
		}
		if p := string(se.JSONPointer); p != "" {
			msg += " (at " + p + ")"
		}
		return m.errorAt(base+int(se.ByteOffset), "invalid JSON: %s", msg)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return m.errorAt(len(m.Src), "invalid JSON: unexpected end of file")
	}
	return &Error{Path: m.Path, Msg: "invalid JSON: " + err.Error()}
}

// member is a top-level member of a document object.
type member struct {
	start, end int // value span, absolute
	kind       jsontext.Kind
	str        string // the value when it is a string
}

func skipSpace(src []byte, off int) int {
	for off < len(src) {
		switch src[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (m *Manifest) loadJSON(base int) error {
	body := m.Src[base:]
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for {
		if dec.PeekKind() == 0 {
			// PeekKind reports 0 at EOF and on error; ReadToken tells which.
			if _, err := dec.ReadToken(); err == io.EOF {
				break
			} else if err != nil {
				return m.jsonError(base, err)
			}
		}
		start := base + skipSpace(body, int(dec.InputOffset()))
		doc := len(m.Docs)
		m.Docs = append(m.Docs, start)
		var err error
		switch dec.PeekKind() {
		case '[':
			var raw jsontext.Value
			raw, err = dec.ReadValue()
			if err != nil {
				return m.jsonError(base, err)
			}
			err = m.collectTools(doc, start, start+len(raw), "", ShapeArray)
		case '{':
			err = m.loadObjectDoc(dec, base, doc, start)
		default:
			var raw jsontext.Value
			raw, err = dec.ReadValue()
			if err == nil {
				err = m.errorAt(start, "a %s is not a tool manifest; %s", kindName(raw.Kind()), acceptedShapes)
			} else {
				err = m.jsonError(base, err)
			}
		}
		if err != nil {
			return err
		}
	}
	if len(m.Docs) > 1 {
		if m.Shape != ShapeJSONRPC && m.Shape != ShapeListResult {
			return m.errorAt(m.Docs[1], "several JSON documents: only newline-delimited tools/list results or JSON-RPC responses can be concatenated")
		}
		m.Shape = ShapeStream
	}
	return nil
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "value"
}

// readMembers reads one object (the decoder is before its '{') and returns its
// members, skipping over their values.
func (m *Manifest) readMembers(dec *jsontext.Decoder, base int) (map[string]member, error) {
	body := m.Src[base:]
	if _, err := dec.ReadToken(); err != nil {
		return nil, m.jsonError(base, err)
	}
	mem := map[string]member{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, m.jsonError(base, err)
		}
		key := tok.String()
		vstart := base + skipSpace(body, int(dec.InputOffset()))
		raw, err := dec.ReadValue()
		if err != nil {
			return nil, m.jsonError(base, err)
		}
		mb := member{start: vstart, end: vstart + len(raw), kind: raw.Kind()}
		if mb.kind == '"' {
			if s, err := jsontext.AppendUnquote(nil, raw); err == nil {
				mb.str = string(s)
			}
		}
		mem[key] = mb
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, m.jsonError(base, err)
	}
	return mem, nil
}

func (m *Manifest) loadObjectDoc(dec *jsontext.Decoder, base, doc, start int) error {
	mem, err := m.readMembers(dec, base)
	if err != nil {
		return err
	}
	if res, ok := mem["result"]; ok && (mem["jsonrpc"].kind != 0 || mem["id"].kind != 0) {
		if res.kind != '{' {
			return m.errorAt(res.start, "JSON-RPC result is a %s, not a tools/list result", kindName(res.kind))
		}
		sub := jsontext.NewDecoder(bytes.NewReader(m.Src[res.start:res.end]))
		rmem, err := m.readMembers(sub, res.start)
		if err != nil {
			return err
		}
		tools, ok := rmem["tools"]
		if !ok || tools.kind != '[' {
			return m.errorAt(res.start, "JSON-RPC result has no \"tools\" array: not a tools/list result")
		}
		return m.setShape(doc, ShapeJSONRPC, m.collectTools(doc, tools.start, tools.end, "/result/tools", ShapeJSONRPC))
	}
	if e, ok := mem["error"]; ok && mem["jsonrpc"].kind != 0 {
		return m.errorAt(e.start, "the document is a JSON-RPC error response, not a tool list: %s", m.Src[e.start:e.end])
	}
	if tools, ok := mem["tools"]; ok {
		if tools.kind != '[' {
			return m.errorAt(tools.start, "\"tools\" is a %s, not an array", kindName(tools.kind))
		}
		return m.setShape(doc, ShapeListResult, m.collectTools(doc, tools.start, tools.end, "/tools", ShapeListResult))
	}
	if _, ok := mem["name"]; ok {
		t := m.newTool(doc, "", start, base+int(dec.InputOffset()), mem)
		shape := ShapeTool
		if t.SchemaKey == "schema" {
			shape = ShapePluginContract
		}
		return m.setShape(doc, shape, nil)
	}
	return m.errorAt(start, "document of no known shape (an object without \"tools\", \"result\" or \"name\"); %s", acceptedShapes)
}

func (m *Manifest) setShape(doc int, s Shape, err error) error {
	if err != nil {
		return err
	}
	if doc == 0 {
		m.Shape = s
	} else if m.Shape != s && !(isPage(m.Shape) && isPage(s)) {
		return m.errorAt(m.Docs[doc], "document %d is a %s but document 1 is a %s", doc+1, s, m.Shape)
	}
	return nil
}

func isPage(s Shape) bool { return s == ShapeJSONRPC || s == ShapeListResult }

// collectTools walks the tools array spanning src[start:end] and locates each
// tool with its name.
func (m *Manifest) collectTools(doc, start, end int, ptr string, shape Shape) error {
	dec := jsontext.NewDecoder(bytes.NewReader(m.Src[start:end]))
	if _, err := dec.ReadToken(); err != nil {
		return m.jsonError(start, err)
	}
	for i := 0; dec.PeekKind() != ']'; i++ {
		tstart := start + skipSpace(m.Src[start:end], int(dec.InputOffset()))
		if dec.PeekKind() != '{' {
			raw, err := dec.ReadValue()
			if err != nil {
				return m.jsonError(start, err)
			}
			return m.errorAt(tstart, "tool %d is a %s, not an object", i, kindName(raw.Kind()))
		}
		mem, err := m.readMembers(dec, start)
		if err != nil {
			return err
		}
		m.newTool(doc, fmt.Sprintf("%s/%d", ptr, i), tstart, start+int(dec.InputOffset()), mem)
	}
	return nil
}

func (m *Manifest) newTool(doc int, ptr string, start, end int, mem map[string]member) *Tool {
	t := &Tool{M: m, Index: len(m.Tools), Doc: doc, Pointer: ptr, start: start, end: end, SchemaKey: "inputSchema"}
	if n, ok := mem["name"]; ok && n.kind == '"' {
		t.Name = n.str
	}
	if _, ok := mem["inputSchema"]; !ok {
		if s, ok := mem["schema"]; ok && s.kind == '{' {
			t.SchemaKey = "schema"
		}
	}
	m.Tools = append(m.Tools, t)
	return t
}
