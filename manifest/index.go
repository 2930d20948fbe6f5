package manifest

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
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
	dec := jsontext.NewDecoder(bytes.NewReader(src[start:end]))
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
	n, _, found := t.index().lookup(t.sourcePointer(rel))
	if !found {
		return 0, 0, false
	}
	return n.start, n.end, true
}
