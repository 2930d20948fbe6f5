package manifest

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcpfit/mcplint/pointer"
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
			t.idx = t.M.buildJSONIndex(t.start, t.end)
		}
	})
	return t.idx
}

// Forget lets go of the tool's index, which edits build and which holds a
// node for every value of the tool: the next edit builds it again. A run
// that builds the edits of every tool's fixes would otherwise keep an index
// of the whole manifest. It must not run while another method of the tool
// does.
func (t *Tool) Forget() {
	if t.M.Format == JSON {
		t.idxOnce, t.idx = sync.Once{}, nil
	}
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

func (m *Manifest) buildJSONIndex(start, end int) *index {
	src := m.Src
	idx := &index{nodes: map[string]*node{}}
	r := rereader(src[start:end])
	defer r.release()
	dec := r.Decoder
	var stack []frame
	key, keyStart := "", -1
	// The start of the line of the last place indented, found reading
	// forward: looking back from each value to its line's start took time
	// quadratic in the length of a minified line. Where the tool's own
	// line starts comes from the line index: looking back for it from each
	// tool of a minified manifest took time quadratic in the tools.
	lineStart, scanned := start-(m.Position(start).Column-1), start
	indent := func(at int) string {
		if at < scanned {
			return lineIndent(src, at)
		}
		if i := bytes.LastIndexByte(src[scanned:at], '\n'); i >= 0 {
			lineStart = scanned + i + 1
		}
		scanned = at
		i := lineStart
		for i < at && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		return string(src[lineStart:i])
	}
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
				ptr = top.ptr + "/" + pointer.Escape(key)
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
		n.indent = indent(at)
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
		p, _ = pointer.Parent(p)
	}
}

// Place is where the value at a tool-relative pointer is in the source.
type Place struct {
	// Key is where the member's key starts when the value is an object
	// member, and -1 otherwise.
	Key int
	// Start and End delimit the value's bytes. For a pointer that does not
	// exist (a missing keyword), Found is false, Key and Start are those of
	// its deepest existing ancestor, and End is 0.
	Start, End int
	Found      bool
}

// Offset is where a finding at the place is shown: the member's key, or
// the value when it is not a member.
func (p Place) Offset() int {
	if p.Key >= 0 {
		return p.Key
	}
	return p.Start
}

// Locate gives the position of the value at a tool-relative pointer: the
// member's key when the value is an object member, the value otherwise. A
// pointer that does not exist (a missing keyword) is placed at its deepest
// existing ancestor.
func (t *Tool) Locate(rel string) Position {
	return t.M.Position(t.Places([]string{rel})[0].Offset())
}

// Span returns the byte span of the value at a tool-relative pointer, and
// whether it exists.
func (t *Tool) Span(rel string) (start, end int, ok bool) {
	p := t.Places([]string{rel})[0]
	if !p.Found {
		return 0, 0, false
	}
	return p.Start, p.End, true
}

// Places locates many tool-relative pointers at once. A JSON tool is read
// once, along the paths of the pointers only, skipping every other value:
// the findings of a tool need a few places, and building the tool's whole
// index for them (which edits need) would cost far more time and memory.
func (t *Tool) Places(rels []string) []Place {
	out := make([]Place, len(rels))
	if t.M.Format == YAML {
		ix := t.index()
		for i, rel := range rels {
			n, _, found := ix.lookup(t.sourcePointer(rel))
			switch {
			case n == nil:
				out[i] = Place{Key: -1, Start: t.start}
			case found:
				out[i] = Place{Key: n.keyStart, Start: n.start, End: n.end, Found: true}
			default:
				out[i] = Place{Key: n.keyStart, Start: n.start}
			}
		}
		return out
	}
	srcs := make([]string, len(rels))
	for i, rel := range rels {
		srcs[i] = t.sourcePointer(rel)
	}
	return t.M.placeJSON(t.start, t.end, srcs, out)
}

// placeJSON places pointers relative to the JSON value spanning
// Src[start:end] (as the loader found it) into out, reading the value once
// along their paths.
func (m *Manifest) placeJSON(start, end int, ptrs []string, out []Place) []Place {
	if len(ptrs) == 0 {
		return out
	}
	root := &placeTrie{}
	for i, ptr := range ptrs {
		n := root
		for tok := range pointer.Tokens(ptr) {
			n = n.child(pointer.Unescape(tok))
		}
		n.want = append(n.want, i)
	}
	// The value itself is where the loader found it: reading it to its end
	// again, for a finding about a whole tool or the span convert reads its
	// member order from, took a twentieth of preparing a conversion.
	for _, i := range root.want {
		out[i] = Place{Key: -1, Start: start, End: end, Found: true}
	}
	pending := len(ptrs) - len(root.want)
	root.want = nil
	if pending == 0 {
		return out
	}
	s := &placeScan{src: m.Src[start:end], base: start, out: out, pending: pending}
	r := rereader(s.src)
	defer r.release()
	s.dec = r.Decoder
	s.visit(root, -1, start)
	return out
}

// placeTrie holds the pointers Places looks for, token by token. A tool's
// findings name a few places, so children are a list, and a map only past
// a few (a schema with thousands of reported definitions).
type placeTrie struct {
	children []placeChild
	byTok    map[string]*placeTrie // the children, once there are many
	want     []int                 // the indices of the pointers ending here
}

// placeListMax is the most children looked up in their list.
const placeListMax = 8

type placeChild struct {
	tok  string
	node *placeTrie
}

func (n *placeTrie) child(tok string) *placeTrie {
	if c := n.lookup(tok); c != nil {
		return c
	}
	c := &placeTrie{}
	n.children = append(n.children, placeChild{tok, c})
	switch {
	case n.byTok != nil:
		n.byTok[tok] = c
	case len(n.children) > placeListMax:
		n.byTok = make(map[string]*placeTrie, 2*len(n.children))
		for _, e := range n.children {
			n.byTok[e.tok] = e.node
		}
	}
	return c
}

func (n *placeTrie) lookup(tok string) *placeTrie {
	if n.byTok != nil {
		return n.byTok[tok]
	}
	for _, c := range n.children {
		if c.tok == tok {
			return c.node
		}
	}
	return nil
}

// lookupRaw is lookup for a raw JSON member name, unquoted only when it
// has escapes.
func (n *placeTrie) lookupRaw(raw []byte) *placeTrie {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') >= 0 {
		return n.lookup(rawString(raw))
	}
	if n.byTok != nil {
		return n.byTok[string(body)] // looked up without a copy
	}
	for _, c := range n.children {
		if c.tok == string(body) { // compared without a copy
			return c.node
		}
	}
	return nil
}

type placeScan struct {
	dec     *jsontext.Decoder
	src     []byte
	base    int // offset of src in the manifest's source
	out     []Place
	pending int // pointers not yet placed
}

// place places the pointers of n and below it at p, for those that lead
// nowhere.
func (s *placeScan) place(n *placeTrie, p Place) {
	for _, i := range n.want {
		s.out[i] = p
		s.pending--
	}
	n.want = nil
	for _, c := range n.children {
		s.place(c.node, p)
	}
	n.children, n.byTok = nil, nil
}

// visit reads the value the decoder is at, which starts at start (its key
// at key, -1 for none), and places the pointers of n and below it.
// Pointers below it that lead nowhere are placed at it, not found. It
// reports whether every pointer is placed: the scan then stops where it
// is, since the rest of the tool has nothing to tell.
func (s *placeScan) visit(n *placeTrie, key, start int) (done bool) {
	here := Place{Key: key, Start: start}
	fail := func() bool {
		s.place(n, here)
		return true
	}
	switch k := s.dec.PeekKind(); {
	case len(n.children) == 0 || (k != '{' && k != '['):
		if err := s.dec.SkipValue(); err != nil {
			return fail()
		}
	case k == '{':
		if _, err := s.dec.ReadToken(); err != nil {
			return fail()
		}
		for s.dec.PeekKind() == '"' {
			ks := s.base + skipSpace(s.src, int(s.dec.InputOffset()))
			name, err := s.dec.ReadValue()
			if err != nil {
				return fail()
			}
			c := n.lookupRaw(name)
			if c == nil {
				if err := s.dec.SkipValue(); err != nil {
					return fail()
				}
				continue
			}
			if s.visit(c, ks, s.base+skipSpace(s.src, int(s.dec.InputOffset()))) {
				return true
			}
		}
		if _, err := s.dec.ReadToken(); err != nil {
			return fail()
		}
	default:
		if _, err := s.dec.ReadToken(); err != nil {
			return fail()
		}
		for j := 0; s.dec.PeekKind() != ']' && s.dec.PeekKind() != 0; j++ {
			c := n.lookup(strconv.Itoa(j))
			if c == nil {
				if err := s.dec.SkipValue(); err != nil {
					return fail()
				}
				continue
			}
			if s.visit(c, -1, s.base+skipSpace(s.src, int(s.dec.InputOffset()))) {
				return true
			}
		}
		if _, err := s.dec.ReadToken(); err != nil {
			return fail()
		}
	}
	end := s.base + int(s.dec.InputOffset())
	for _, i := range n.want {
		s.out[i] = Place{Key: key, Start: start, End: end, Found: true}
		s.pending--
	}
	n.want = nil
	// What was not met does not exist: its deepest existing ancestor is
	// this value.
	for _, c := range n.children {
		s.place(c.node, here)
	}
	n.children, n.byTok = nil, nil
	return s.pending == 0
}
