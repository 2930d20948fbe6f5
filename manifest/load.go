package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/elide"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// ReadFile loads a manifest from a file, or from standard input when path is
// "-", under DefaultLimits.
func ReadFile(path string) (*Manifest, error) {
	return DefaultLimits.ReadFile(path)
}

// Load recognises the shape and syntax of src and locates its tools. Name is
// used in messages; a name ending in .yaml or .yml is read as YAML, one ending
// in .json, .jsonl or .ndjson as JSON, and any other source as JSON when it
// starts with '{' or '[' and as YAML otherwise. DefaultLimits apply.
func Load(name string, src []byte) (*Manifest, error) {
	return DefaultLimits.Load(name, src)
}

func load(name string, src []byte, limits Limits) (*Manifest, error) {
	m := &Manifest{Path: name, Src: src, limits: limits}
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
		return nil, m.errorAt(base+validPrefix(body), "invalid UTF-8: manifests must be UTF-8 text")
	}
	ext := strings.ToLower(filepath.Ext(name))
	first := bytes.TrimLeft(body, " \t\r\n")
	isJSON := ext == ".json" || ext == ".jsonl" || ext == ".ndjson"
	if ext == ".yaml" || ext == ".yml" || (!isJSON && first[0] != '{' && first[0] != '[') {
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
		// A decoder that has read tokens before ReadValue can misreport a
		// syntax error inside the value (offset, message and pointer); a
		// fresh decoder reading whole values reports it exactly. Only the
		// failing path pays for the second scan.
		body := 0
		if bytes.HasPrefix(m.Src, bom) {
			body = len(bom)
		}
		var exact *jsontext.SyntacticError
		if errors.As(firstSyntaxError(m.Src[body:]), &exact) {
			se, base = exact, body
		}
		msg := strings.TrimPrefix(se.Err.Error(), "jsontext: ")
		ptr := se.JSONPointer
		switch {
		case errors.Is(se.Err, jsontext.ErrDuplicateName):
			msg = duplicateKey(JSON, ptr.LastToken())
			ptr = ptr.Parent()
		case strings.Contains(msg, "exceeded max depth"):
			msg = fmt.Sprintf("nesting deeper than %d levels", DepthCeiling)
		}
		if p := string(ptr); p != "" {
			msg += " (at " + truncatePointer(p) + ")"
		}
		return m.errorAt(base+int(se.ByteOffset), "invalid JSON: %s", msg)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return m.errorAt(len(m.Src), "invalid JSON: unexpected end of file")
	}
	return &Error{Path: m.Path, Msg: "invalid JSON: " + err.Error()}
}

// newDecoder reads b in place: given a bytes.Buffer, jsontext parses its
// bytes without copying them, where any other reader is copied into the
// decoder's own buffer (the whole value, for ReadValue). The capacity is cut
// so that nothing could ever write past b into the source.
func newDecoder(b []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewBuffer(b[:len(b):len(b)]))
}

// rereader reads again bytes the loader has validated: it skips the checks
// for duplicate names and invalid UTF-8, which the loader made and which
// cost decoding a tool a good part of its time. Readers are reused (a
// decoder keeps buffers of its own); give it back with release.
func rereader(b []byte) *reader {
	r := readers.Get().(*reader)
	r.buf = *bytes.NewBuffer(b[:len(b):len(b)])
	if r.Decoder == nil {
		r.Decoder = jsontext.NewDecoder(&r.buf, trusted...)
	} else {
		r.Reset(&r.buf, trusted...)
	}
	return r
}

var trusted = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// reader is a decoder with the buffer it reads in place.
type reader struct {
	*jsontext.Decoder
	buf bytes.Buffer
}

var readers = sync.Pool{New: func() any { return new(reader) }}

func (r *reader) release() {
	r.buf = bytes.Buffer{}
	r.Reset(&r.buf, trusted...)
	readers.Put(r)
}

// firstSyntaxError reads every top-level value of src and returns the first
// error.
func firstSyntaxError(src []byte) error {
	dec := newDecoder(src)
	for {
		if _, err := dec.ReadValue(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// oneLine compacts a JSON value quoted in a message and bounds its length.
func oneLine(raw []byte) string {
	v := jsontext.Value(bytes.Clone(raw))
	if v.Compact() != nil {
		return "(unreadable)"
	}
	const max = 200
	if len(v) > max {
		return string(elide.Head(v, max)) + "…"
	}
	return string(v)
}

// truncatePointer keeps the pointer of an error readable when the error is
// thousands of levels deep.
func truncatePointer(p string) string {
	const max = 80
	if len(p) <= max {
		return p
	}
	return elide.Head(p, max/2) + "…" + elide.Tail(p, max/2)
}

// member is a top-level member of a document object.
type member struct {
	start, end int // value span, absolute
	kind       jsontext.Kind
	str        string // the value when it is a string
	ref        any    // the YAML node of the value (YAML sources only)
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
	dec := newDecoder(body)
	if prereading {
		m.pre = &prereads{objects: map[int]map[string]member{}, lists: map[int]*entryList{}}
		defer func() { m.pre = nil }()
	}
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
			var list member
			if list, err = m.prereadList(dec, base, start); err != nil {
				return err
			}
			err = m.readList(jsonShapes{m}, doc, list, "", ShapeArray)
		case '{':
			err = m.loadObjectDoc(dec, base, doc, start)
		default:
			var raw jsontext.Value
			raw, err = dec.ReadValue()
			if err == nil {
				err = m.notManifest(start, raw.Kind())
			} else {
				err = m.jsonError(base, err)
			}
		}
		if err != nil {
			return err
		}
	}
	if err := m.finishStream(JSON, "newline-delimited "); err != nil {
		return err
	}
	if err := m.checkToolDepths(); err != nil {
		return err
	}
	return m.checkToolPaths()
}

// aKind is kindName with its article, for messages.
func aKind(k jsontext.Kind) string {
	if k == '[' || k == '{' {
		return "an " + kindName(k)
	}
	return "a " + kindName(k)
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

// readMembers reads one object (the decoder is before its '{') and returns
// the members that tell a document's shape or a tool's (shapeKeys), skipping
// over their values and over the other members: a large manifest holds one
// such map per tool while it loads.
func (m *Manifest) readMembers(dec *jsontext.Decoder, base int) (map[string]member, error) {
	mem := map[string]member{}
	return mem, m.readMembersInto(mem, dec, base, false)
}

// readMembersInto is readMembers into mem. With record, it is the
// validating pass over a document: it reads a "tools" array entry by entry
// and a "result" object member by member, and keeps what it read in m.pre
// for locating the tools (see prereads).
func (m *Manifest) readMembersInto(mem map[string]member, dec *jsontext.Decoder, base int, record bool) error {
	body := m.Src[base:]
	if _, err := dec.ReadToken(); err != nil {
		return m.jsonError(base, err)
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil {
			return m.jsonError(base, err)
		}
		key := rawString(name)
		vstart := base + skipSpace(body, int(dec.InputOffset()))
		if !shapeKeys[key] {
			if err := dec.SkipValue(); err != nil {
				return m.jsonError(base, err)
			}
			continue
		}
		if record && m.pre != nil && (key == "tools" && dec.PeekKind() == '[' || key == "result" && dec.PeekKind() == '{') {
			var mb member
			if key == "tools" {
				mb, err = m.prereadList(dec, base, vstart)
			} else {
				mb, err = m.prereadObject(dec, base, vstart)
			}
			if err != nil {
				return err
			}
			mem[key] = mb
			continue
		}
		raw, err := dec.ReadValue()
		if err != nil {
			return m.jsonError(base, err)
		}
		mb := member{start: vstart, end: vstart + len(raw), kind: raw.Kind()}
		if mb.kind == '"' && (key == "name" || key == "type" || key == "id" || key == "$schema") {
			mb.str = rawString(raw)
		}
		mem[key] = mb
	}
	if _, err := dec.ReadToken(); err != nil {
		return m.jsonError(base, err)
	}
	return nil
}

// shapeKeys are the members shape recognition (objectShape) and tools
// (newTool) look at.
var shapeKeys = map[string]bool{
	"tools": true, "result": true, "jsonrpc": true, "id": true, "error": true,
	"name": true, "inputSchema": true, "schema": true,
	// Other consumers' formats (foreign.go).
	"type": true, "function": true, "input_schema": true, geminiDecls: true, geminiDeclsSnake: true,
	"parameters": true, "parametersJsonSchema": true, "parameters_json_schema": true,
	// The rest of a server's surface (surface.go).
	"prompts": true, "resources": true, "resourceTemplates": true,
	"protocolVersion": true, "supportedVersions": true, "capabilities": true, "serverInfo": true,
	// A registry server.json, refused (registry.go).
	"$schema": true, "version": true, "packages": true, "remotes": true,
}

func (m *Manifest) loadObjectDoc(dec *jsontext.Decoder, base, doc, start int) error {
	mem := map[string]member{}
	if err := m.readMembersInto(mem, dec, base, true); err != nil {
		return err
	}
	return m.objectShape(jsonShapes{m}, doc, member{start: start, end: base + int(dec.InputOffset()), kind: '{'}, mem)
}

func (m *Manifest) setShape(doc int, s Shape, err error) error {
	if err != nil {
		return err
	}
	if doc == 0 {
		m.Shape = s
	} else if m.Shape != s && !(isPage(m.Shape) && isPage(s)) {
		return m.errorAt(m.Docs[doc], "document %d is %s but document 1 is %s; a stream holds only tools/list results or JSON-RPC responses", doc+1, aShape(s), aShape(m.Shape))
	}
	return nil
}

func aShape(s Shape) string {
	if strings.IndexByte("aeiouAEIOU", s[0]) >= 0 {
		return "an " + string(s)
	}
	return "a " + string(s)
}

func isPage(s Shape) bool { return s == ShapeJSONRPC || s == ShapeListResult }

// collectTools walks the tools array spanning src[start:end] and reads each
// entry into the list l.
func (m *Manifest) collectTools(l *toolList, start, end int, ptr string) error {
	pl := m.pre.list(start)
	if pl == nil {
		// Other arrays (Gemini's declarations, a list within a tool) were
		// validated when the document's members were read: read again,
		// they need not be checked again.
		r := rereader(m.Src[start:end])
		defer r.release()
		var err error
		if pl, err = m.readEntries(r.Decoder, start); err != nil {
			return err
		}
	}
	return pl.collect(m, l, ptr)
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
