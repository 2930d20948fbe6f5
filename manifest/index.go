package manifest

import (
	"bytes"
	"strconv"
	"strings"
)

// node is one value of a tool in the source.
type node struct {
	start, end int      // the value's bytes, absolute offsets
	keyStart   int      // where the member's key starts; -1 for array elements and the root
	kind       byte     // '{', '[' or 's' for a scalar
	children   []string // pointers of members or elements, in source order
	indent     string   // leading whitespace of the line the value (or its key) starts on
}

// index maps pointers inside one tool (as the source spells them, relative to
// the tool object) to their nodes.
type index struct {
	nodes map[string]*node
}

// index builds the tool's pointer index on first use. Only tools that need a
// position or an edit pay for it.
func (t *Tool) index() *index {
	t.idxOnce.Do(func() {
		if t.M.Format == YAML {
			t.idx = t.yamlIndex()
		} else {
			t.idx = buildJSONIndex(t.M.Src, t.start, t.end)
		}
	})
	return t.idx
}

func lineIndent(src []byte, off int) string {
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	i := ls
	for i < off && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

type frame struct {
	ptr   string
	n     *node
	count int
}

func buildJSONIndex(src []byte, start, end int) *index {
	idx := &index{nodes: map[string]*node{}}
	dec := newDecoder(src[start:end])
	var stack []frame
	key, keyStart := "", -1
	for {
		off := start + skipSpace(src[start:end], int(dec.InputOffset()))
		tok, err := dec.ReadToken()
		if err != nil {
			break // the loader already validated the bytes
		}
		k := tok.Kind()
		if k == '}' || k == ']' {
			top := stack[len(stack)-1]
			top.n.end = start + int(dec.InputOffset())
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				break
			}
			continue
		}
		var ptr string
		ks := -1
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.n.kind == '{' {
				if keyStart < 0 {
					key, keyStart = tok.String(), off
					continue
				}
				ptr = top.ptr + "/" + EscapePointerToken(key)
				ks = keyStart
				keyStart = -1
			} else {
				ptr = top.ptr + "/" + strconv.Itoa(top.count)
			}
			top.count++
			top.n.children = append(top.n.children, ptr)
		}
		n := &node{start: off, keyStart: ks, kind: 's'}
		at := off
		if ks >= 0 {
			at = ks
		}
		n.indent = lineIndent(src, at)
		idx.nodes[ptr] = n
		switch k {
		case '{', '[':
			n.kind = byte(k)
			stack = append(stack, frame{ptr: ptr, n: n})
		default:
			n.end = start + int(dec.InputOffset())
			if len(stack) == 0 {
				return idx
			}
		}
	}
	return idx
}

// lookup finds the node of a source pointer, or its deepest existing ancestor
// (found is false then).
func (ix *index) lookup(ptr string) (n *node, at string, found bool) {
	for p := ptr; ; {
		if n, ok := ix.nodes[p]; ok {
			return n, p, p == ptr
		}
		if p == "" {
			return nil, "", false
		}
		p = p[:lastSlash(p)]
	}
}

func lastSlash(p string) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return i
		}
	}
	return 0
}

// Locate gives the position of the value at a tool-relative pointer: the
// member's key when the value is an object member, the value otherwise. A
// pointer that does not exist (a missing keyword) is placed at its deepest
// existing ancestor.
func (t *Tool) Locate(rel string) Position {
	if t.M.Format == JSON {
		keyStart, start, _, _ := t.scanJSON(t.sourcePointer(rel))
		if keyStart >= 0 {
			return t.M.Position(keyStart)
		}
		return t.M.Position(start)
	}
	n, _, _ := t.index().lookup(t.sourcePointer(rel))
	if n == nil {
		return t.M.Position(t.start)
	}
	if n.keyStart >= 0 {
		return t.M.Position(n.keyStart)
	}
	return t.M.Position(n.start)
}

// Span returns the byte span of the value at a tool-relative pointer, and
// whether it exists.
func (t *Tool) Span(rel string) (start, end int, ok bool) {
	if t.M.Format == JSON {
		_, start, end, ok = t.scanJSON(t.sourcePointer(rel))
		if !ok {
			return 0, 0, false
		}
		return start, end, true
	}
	n, _, found := t.index().lookup(t.sourcePointer(rel))
	if !found {
		return 0, 0, false
	}
	return n.start, n.end, true
}

// scanJSON finds the value at a source pointer by reading the tool's bytes
// along the pointer's path, skipping every other value. A diagnostic needs
// one position; building the tool's whole index for it (which edits need)
// would cost far more time and memory, as most tools with a finding are never
// edited. When the pointer does not exist, the deepest existing value on its
// path is returned with found false. keyStart is -1 when the value is not an
// object member.
func (t *Tool) scanJSON(ptr string) (keyStart, start, end int, found bool) {
	return scanSpan(t.M.Src, t.start, t.end, ptr)
}

// scanSpan is scanJSON on the value spanning src[base:limit].
func scanSpan(all []byte, base, limit int, ptr string) (keyStart, start, end int, found bool) {
	src := all[base:limit]
	dec := newDecoder(src)
	keyStart, start = -1, base
	for rest := ptr; rest != ""; {
		// The next reference token, unescaped only when it must be.
		rest = rest[1:]
		tok := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			tok, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		if strings.IndexByte(tok, '~') >= 0 {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		matched := false
		switch dec.PeekKind() {
		case '{':
			if _, err := dec.ReadToken(); err != nil {
				return keyStart, start, 0, false
			}
			for dec.PeekKind() == '"' {
				ks := skipSpace(src, int(dec.InputOffset()))
				name, err := dec.ReadValue()
				if err != nil {
					return keyStart, start, 0, false
				}
				if nameIs(name, tok) {
					keyStart, start = base+ks, base+skipSpace(src, int(dec.InputOffset()))
					matched = true
					break
				}
				if err := dec.SkipValue(); err != nil {
					return keyStart, start, 0, false
				}
			}
		case '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || strconv.Itoa(i) != tok {
				return keyStart, start, 0, false
			}
			if _, err := dec.ReadToken(); err != nil {
				return keyStart, start, 0, false
			}
			for j := 0; dec.PeekKind() != ']' && dec.PeekKind() != 0; j++ {
				if j == i {
					keyStart, start = -1, base+skipSpace(src, int(dec.InputOffset()))
					matched = true
					break
				}
				if err := dec.SkipValue(); err != nil {
					return keyStart, start, 0, false
				}
			}
		}
		if !matched {
			return keyStart, start, 0, false
		}
	}
	v, err := dec.ReadValue()
	if err != nil {
		return keyStart, start, 0, false
	}
	return keyStart, start, start + len(v), true
}

// nameIs reports whether the raw member name spells s.
func nameIs(raw []byte, s string) bool {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == s
	}
	return rawString(raw) == s
}
