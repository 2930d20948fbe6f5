package manifest

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// prereads keeps what the validating pass over a JSON document read of the
// values that hold the tools: the entries of a "tools" array (or of a
// document that is an array) and the members of a JSON-RPC "result". Shape
// recognition then locates the tools from them, where it read those bytes
// again, once per level: the second pass over the tools was a fifth of the
// time of loading a tool list, and the bytes of a JSON-RPC response were
// read three times (two fifths of its loading). Each is found by the offset
// where its value starts, and taken once.
type prereads struct {
	objects map[int]map[string]member
	lists   map[int]*entryList
}

// prereading is off only in tests, which compare what loading finds
// with and without prereads.
var prereading = true

// entryList is an array read entry by entry: each entry's span and kind,
// and for an object its members of shapeKeys. Both are kept in blocks that
// are never copied: a list of ten thousand tools grown by append allocated
// five times what it kept (a large slice grows by a quarter).
type entryList struct {
	entries blocks[listEntry]
	members blocks[keyedMember]
}

type listEntry struct {
	start, end int
	kind       jsontext.Kind
	members    []keyedMember
}

// blocks is an append-only list in blocks of blockLen.
type blocks[T any] struct{ all [][]T }

const blockLen = 1024

// add appends vs, kept together, and returns them as they are kept.
func (b *blocks[T]) add(vs ...T) []T {
	last := len(b.all) - 1
	if last < 0 || cap(b.all[last])-len(b.all[last]) < len(vs) {
		b.all = append(b.all, make([]T, 0, max(blockLen, len(vs))))
		last++
	}
	from := len(b.all[last])
	b.all[last] = append(b.all[last], vs...)
	return b.all[last][from:len(b.all[last]):len(b.all[last])]
}

type keyedMember struct {
	key string
	member
}

// object takes the members read of the object starting at off, or nil.
func (p *prereads) object(off int) map[string]member {
	if p == nil {
		return nil
	}
	mem := p.objects[off]
	delete(p.objects, off)
	return mem
}

// list takes the entries read of the array starting at off, or nil.
func (p *prereads) list(off int) *entryList {
	if p == nil {
		return nil
	}
	l := p.lists[off]
	delete(p.lists, off)
	return l
}

// prereadObject reads the object at start, which the decoder is before,
// member by member as readMembersInto does, and keeps its members.
func (m *Manifest) prereadObject(dec *jsontext.Decoder, base, start int) (member, error) {
	mem := map[string]member{}
	if err := m.readMembersInto(mem, dec, base, true); err != nil {
		return member{}, err
	}
	m.pre.objects[start] = mem
	return member{start: start, end: base + int(dec.InputOffset()), kind: '{'}, nil
}

// prereadList reads the array at start, which the decoder is before, as
// readEntries does, and keeps what it read for collectTools.
func (m *Manifest) prereadList(dec *jsontext.Decoder, base, start int) (member, error) {
	l, err := m.readEntries(dec, base)
	if err != nil {
		return member{}, err
	}
	if m.pre != nil {
		m.pre.lists[start] = l
	}
	return member{start: start, end: base + int(dec.InputOffset()), kind: '['}, nil
}

// readEntries reads the array the decoder is before, entry by entry, into
// each entry's span and kind and, for an object, its members of shapeKeys.
// Base is the offset in Src where the decoder's input starts.
func (m *Manifest) readEntries(dec *jsontext.Decoder, base int) (*entryList, error) {
	body := m.Src[base:]
	if _, err := dec.ReadToken(); err != nil {
		return nil, m.jsonError(base, err)
	}
	l := &entryList{}
	mem := map[string]member{}
	var kept []keyedMember
	for dec.PeekKind() != ']' {
		estart := base + skipSpace(body, int(dec.InputOffset()))
		if dec.PeekKind() != '{' {
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, m.jsonError(base, err)
			}
			l.entries.add(listEntry{start: estart, end: estart + len(raw), kind: raw.Kind()})
			continue
		}
		clear(mem)
		if err := m.readMembersInto(mem, dec, base, false); err != nil {
			return nil, err
		}
		kept = kept[:0]
		for k, v := range mem {
			kept = append(kept, keyedMember{k, v})
		}
		l.entries.add(listEntry{start: estart, end: base + int(dec.InputOffset()), kind: '{', members: l.members.add(kept...)})
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, m.jsonError(base, err)
	}
	return l, nil
}

// collect reads the entries into the list l as tools at ptr.
func (pl *entryList) collect(m *Manifest, l *toolList, ptr string) error {
	mem := map[string]member{}
	i := 0
	for _, block := range pl.entries.all {
		for _, e := range block {
			if e.kind != '{' {
				return m.errorAt(e.start, "tool %d is %s, not an object", i, aKind(e.kind))
			}
			// One map serves every tool: nothing keeps it.
			clear(mem)
			for _, km := range e.members {
				mem[km.key] = km.member
			}
			if err := l.entry(ptr+"/"+strconv.Itoa(i), member{start: e.start, end: e.end, kind: '{'}, mem, slot{dash: -1}); err != nil {
				return err
			}
			i++
		}
	}
	return nil
}
