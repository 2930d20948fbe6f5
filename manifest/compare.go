package manifest

import "bytes"

// Unchanged compares m with an earlier version of the same source, old,
// for a caller that keeps what it learned from old's tools: ok is false
// unless both are JSON with as many tools, under the same pointers, with
// the same bytes between and around them and the same edit style; then
// same[i] reports whether tool i's bytes are unchanged too, and moved[i]
// is how many bytes later it starts in m. A tool with unchanged bytes in
// an unchanged setting decodes to the same value and renders edits the
// same way. YAML is never compared: an alias may stand for another tool's
// bytes.
func (m *Manifest) Unchanged(old *Manifest) (same []bool, moved []int, ok bool) {
	if m.Format != JSON || old.Format != JSON || m.Shape != old.Shape || len(m.Tools) != len(old.Tools) ||
		len(m.Docs) != len(old.Docs) || m.style() != old.style() {
		return nil, nil, false
	}
	same, moved = make([]bool, len(m.Tools)), make([]int, len(m.Tools))
	end, oldEnd := 0, 0
	for i, t := range m.Tools {
		o := old.Tools[i]
		if t.start < end || o.start < oldEnd || t.Pointer != o.Pointer || t.Doc != o.Doc ||
			!bytes.Equal(m.Src[end:t.start], old.Src[oldEnd:o.start]) {
			return nil, nil, false
		}
		same[i] = bytes.Equal(m.Src[t.start:t.end], old.Src[o.start:o.end])
		moved[i] = t.start - o.start
		end, oldEnd = t.end, o.end
	}
	if !bytes.Equal(m.Src[end:], old.Src[oldEnd:]) {
		return nil, nil, false
	}
	return same, moved, true
}
