package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpfit/mcplint/pointer"
)

// A Document is a JSON or YAML file that is not a tool list: mcplint's
// configuration, lock and baseline files, and the MCP client
// configurations that check --discover reads. It is read under the same
// Limits as a manifest, by the same code: a file nobody reviewed is as
// hostile in one role as in the other, and a few lines of YAML anchors
// stand for gigabytes whatever the file is for. Size is the file's own
// bound (a configuration is far smaller than a tool list); the YAML and
// nesting bounds are the manifest's.
type Document struct {
	Path   string
	Format Format
	m      *Manifest
	start  int      // where the value starts in the source
	end    int      // and ends
	yaml   ast.Node // the YAML document's value; nil for JSON
	json   []byte
}

// ReadDocument reads the file at path as a Document under l; Size bounds
// it before it is read (a regular file) or as it is read (anything
// else). With formats, only those are accepted.
func (l Limits) ReadDocument(path string, formats ...Format) (*Document, error) {
	l = l.withDefaults()
	src, err := readFile(path, "is a directory, not a file", l.Size, fileTooLarge)
	if err != nil {
		return nil, err
	}
	return l.ParseDocument(path, src, formats...)
}

// ParseDocument reads src, named name in messages, as a Document. The
// format is chosen as Load chooses it: by the name's extension, then by
// the first character ('{' or '[' is JSON). With formats, only those are
// accepted. A stream of several YAML documents, or of several JSON
// values, is refused: a Document is one value. An empty source is null.
// Errors are *Error, with the position and, for a limit, its Limit.
func (l Limits) ParseDocument(name string, src []byte, formats ...Format) (*Document, error) {
	l = l.withDefaults()
	m := &Manifest{Path: name, Src: src, limits: l}
	if int64(len(src)) > l.Size {
		return nil, fileTooLarge(name, l.Size)
	}
	base := 0
	if bytes.HasPrefix(src, bom) {
		base = len(bom)
	}
	body := src[base:]
	if !utf8.Valid(body) {
		return nil, m.errorAt(base+validPrefix(body), "invalid UTF-8: the file must be UTF-8 text")
	}
	ext := strings.ToLower(filepath.Ext(name))
	first := bytes.TrimLeft(body, " \t\r\n")
	format := JSON
	switch {
	case ext == ".json":
	case ext == ".yaml" || ext == ".yml", len(first) > 0 && first[0] != '{' && first[0] != '[':
		format = YAML
	}
	if len(formats) > 0 && !slices.Contains(formats, format) {
		format = formats[0]
	}
	m.Format = format
	d := &Document{Path: name, Format: format, m: m}
	var err error
	if format == YAML {
		err = d.parseYAML(base)
	} else {
		err = d.parseJSON(base)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

func fileTooLarge(name string, limit int64) error {
	return &Error{Path: name, Limit: LimitSize, Msg: fmt.Sprintf("the file is larger than the limit of %s", SizeText(limit))}
}

// validPrefix is how many bytes of b are valid UTF-8.
func validPrefix(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			break
		}
		n += size
		b = b[size:]
	}
	return n
}

// parseJSON validates the one JSON value of the source: its syntax and
// names (a duplicate is refused, as in a manifest), nothing after it, and
// its nesting.
func (d *Document) parseJSON(base int) error {
	m := d.m
	body := m.Src[base:]
	if len(bytes.TrimSpace(body)) == 0 {
		d.start, d.end, d.json = base, base, []byte("null")
		return nil
	}
	dec := newDecoder(body)
	if err := dec.SkipValue(); err != nil {
		return m.jsonError(base, err)
	}
	d.start = base + skipSpace(body, 0)
	d.end = base + int(dec.InputOffset())
	// A value after it, or anything else (the rest of a merge conflict):
	// either way not the one value a file holds.
	if rest := bytes.TrimLeft(m.Src[d.end:], " \t\r\n"); len(rest) > 0 {
		return m.errorAt(len(m.Src)-len(rest), "data after the JSON value; the file holds one value")
	}
	// +yamlToolNesting: as for YAML, the bound is on what a tool may nest,
	// and a file holds tools a few levels down (a lock's definitions).
	if limit := m.depthLimit() + yamlToolNesting; nestedDeeper(m.Src[d.start:d.end], limit) {
		dd := decoder{src: m.Src[:d.end], off: d.start, max: limit}
		_, _ = dd.value(0)
		return m.limitError(dd.off, LimitDepth, "nesting deeper than %d levels", m.depthLimit())
	}
	d.json = m.Src[d.start:d.end]
	return nil
}

// parseYAML reads the one YAML document of the source under the YAML
// limits, and decodes it to JSON.
func (d *Document) parseYAML(base int) error {
	m := d.m
	y := newYAMLDoc(m, base)
	m.yaml = y
	var bodies []ast.Node
	err := y.parse(func(body ast.Node) error {
		if len(bodies) > 0 {
			return m.errorAt(y.member(body, y.base).start, "invalid YAML: a second document; the file holds one")
		}
		bodies = append(bodies, body)
		return nil
	})
	if err != nil {
		return err
	}
	if len(bodies) == 0 {
		d.start, d.end, d.json = base, base, []byte("null")
		return nil
	}
	d.yaml = bodies[0]
	v := y.member(d.yaml, base)
	d.start, d.end = v.start, v.end
	val, err := y.decode(d.yaml)
	if err != nil {
		return err
	}
	if d.json, err = json.Marshal(val); err != nil {
		return &Error{Path: m.Path, Msg: fmt.Sprintf("not representable as JSON: %v", err)}
	}
	return nil
}

// JSON is the document's value as JSON text: the source's own bytes for
// JSON, and for YAML its value with aliases expanded and merge keys
// applied. It is "null" for an empty file.
func (d *Document) JSON() []byte { return d.json }

// Src is the file's bytes.
func (d *Document) Src() []byte { return d.m.Src }

// Locate gives the position of the value at the JSON Pointer ptr: the
// member's key when the value is an object member, the value otherwise.
// A pointer that does not exist is placed at its deepest existing
// ancestor.
func (d *Document) Locate(ptr string) Position {
	if d.yaml != nil {
		return d.m.Position(d.locateYAML(ptr))
	}
	if d.end == d.start {
		return d.m.Position(d.start)
	}
	p := d.m.placeJSON(d.start, d.end, []string{ptr}, make([]Place, 1))[0]
	return d.m.Position(p.Offset())
}

// locateYAML follows ptr down the YAML document: through aliases to what
// they name, and not into what merge keys bring in.
func (d *Document) locateYAML(ptr string) int {
	y := d.m.yaml
	n := d.yaml
	at := y.member(n, y.base).start
	for tok := range pointer.Tokens(ptr) {
		tok = pointer.Unescape(tok)
		_, c := unwrap(y.resolve(n))
		var next ast.Node
		switch c := c.(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			for _, mv := range pairs(c) {
				if isMergeKey(mv.Key) {
					continue
				}
				if k, err := y.key(mv.Key); err == nil && k == tok {
					next, at = mv.Value, y.off(mv.Key.GetToken())
					break
				}
			}
		case *ast.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c.Values) {
				next = c.Values[i]
				at = y.member(next, at).start
			}
		}
		if next == nil {
			return at
		}
		n = next
	}
	return at
}
