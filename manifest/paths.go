package manifest

import (
	"strconv"

	"github.com/goccy/go-yaml/token"
)

// ToolPathBytes bounds the bytes of the JSON pointers of all the values of
// one tool, as long as the rules may spell them, together with
// toolPathRatio: each value's pointer holds every key above it, so one long
// key above many values stands for its length times their number. A 1 MB
// key above ten thousand empty schemas, a 1.1 MB source, made rules that
// name each value hold ten gigabytes of pointers. A real tool's pointers
// are a few times its source: a tool of 700,000 properties, each with a
// type and a description (32 MB), has 77 MB.
const ToolPathBytes = 128 << 20

// toolPathRatio is how many times its own source a large tool's pointers
// may total, past ToolPathBytes.
const toolPathRatio = 8

// toolPathLimit is the bound of the pointers of a tool of n bytes.
func toolPathLimit(n int64) int64 { return max(ToolPathBytes, toolPathRatio*n) }

// pathError is the error of a tool at off whose pointers pass
// ToolPathBytes.
func (m *Manifest) pathError(off int, limit int64) error {
	return m.errorAt(off, "the values of this tool sit under keys so long that their JSON pointers total more than %s (a long key above many values, each pointer repeating it); no real tool comes near: shorten the keys", SizeText(limit))
}

// checkToolPaths refuses, as the source is read, a JSON tool whose values'
// pointers pass its bound (toolPathLimit). The sum of a tool of n bytes is under 2n²
// (a value's pointer is at most twice the bytes above it, and there are
// fewer values than bytes), so only the few large tools are scanned.
func (m *Manifest) checkToolPaths() error {
	for _, t := range m.Tools {
		n := int64(t.end - t.start)
		limit := toolPathLimit(n)
		// 2n² <= limit, written so that it cannot overflow: 2*n*n wraps
		// negative for a tool of 3 GB (which a raised --max-file-size
		// lets in), and so skipped the scan of the very largest tools.
		if n > 0 && 2*n <= limit/n {
			continue
		}
		if _, at, over := jsonPathBytes(m.Src[t.start:t.end], limit); over {
			return m.pathError(t.start+at, limit)
		}
	}
	return nil
}

// jsonPathBytes adds up the lengths of the JSON pointers of every value
// of the valid JSON value src, relative to it, as spelled in src (an
// escaped key counts its escapes: the sum is never under the pointers'
// own). Past limit it stops and reports the offset of the value that
// passed it.
func jsonPathBytes(src []byte, limit int64) (sum int64, at int, over bool) {
	type frame struct {
		ptr   int64 // the length of the container's pointer
		obj   bool
		index int
	}
	var (
		stack  []frame
		key    int64 // the length of the key of an object's next value
		isKey  bool  // the next string in the object is a key
		valued = func() int64 {
			if len(stack) == 0 {
				return 0
			}
			f := &stack[len(stack)-1]
			if f.obj {
				return f.ptr + 1 + key
			}
			return f.ptr + 1 + int64(len(strconv.Itoa(f.index)))
		}
	)
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case ',':
			if len(stack) == 0 {
				continue // not in valid JSON, which src is
			}
			if f := &stack[len(stack)-1]; f.obj {
				isKey = true
			} else {
				f.index++
			}
			continue
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			if isKey {
				key, isKey = int64(j-i-1), false
				i = j
				continue
			}
			if sum += valued(); sum > limit {
				return sum, i, true
			}
			i = j
			continue
		}
		p := valued()
		if sum += p; sum > limit {
			return sum, i, true
		}
		switch src[i] {
		case '{':
			stack = append(stack, frame{ptr: p, obj: true})
			isKey = true
		case '[':
			stack = append(stack, frame{ptr: p})
		default: // a number or a literal
			for i+1 < len(src) && !delimiter(src[i+1]) {
				i++
			}
		}
	}
	return sum, 0, false
}

func delimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// valuePathBytes is jsonPathBytes for a decoded value (a YAML tool's):
// whether the pointers of v's values, under a pointer of ptr bytes, pass
// what is left of the limit, which it spends.
func valuePathBytes(v any, ptr int64, left *int64) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := ptr + 1 + int64(len(k))
			if *left -= p; *left < 0 || valuePathBytes(e, p, left) {
				return true
			}
		}
	case []any:
		for i, e := range x {
			p := ptr + 1 + int64(len(strconv.Itoa(i)))
			if *left -= p; *left < 0 || valuePathBytes(e, p, left) {
				return true
			}
		}
	}
	return false
}

// yamlPathBytes bounds, before a YAML source is parsed, the bytes of the
// paths the YAML parser spells for its nodes: it builds each one as a
// string from its parent's ("$.tools[0].inputSchema..."), so a long key
// above many values costs it their product in time and memory before any
// tool is checked (half a minute for a 1 MB key above 10,000 values).
// The paths are reckoned from the tokens, as checkDepth reckons nesting:
// each key and entry adds its length to the path of the container it is
// in. The bound is generous, as the reckoning is approximate: real YAML
// comes nowhere near (a 3.4 MB source of 46,000 tiny tools spells 5.6 MB
// of paths), and it grows with a source larger than the default
// --max-yaml-size allows.
const yamlPathBytes = 256 << 20

// yamlPathRatio is how many times the source the paths may total, past
// yamlPathBytes.
const yamlPathRatio = 64

func (y *yamlDoc) checkPaths(tokens token.Tokens) error {
	type level struct {
		col   int
		seq   bool
		flow  bool
		base  int64 // the length of the container's path
		child int64 // the length of its last child's path
	}
	var (
		stack []level
		sum   int64
		limit = max(yamlPathBytes, yamlPathRatio*int64(len(y.m.Src)-y.base))
	)
	top := func() *level {
		if len(stack) == 0 {
			return nil
		}
		return &stack[len(stack)-1]
	}
	childBase := func() int64 {
		if t := top(); t != nil {
			return t.child
		}
		return 1 // "$"
	}
	// enter finds or opens the block level at col, as checkDepth does.
	enter := func(col int, seq bool) *level {
		for t := top(); t != nil && !t.flow && (t.col > col || t.col == col && t.seq && !seq); t = top() {
			stack = stack[:len(stack)-1]
		}
		if t := top(); t != nil && !t.flow && t.col == col && t.seq == seq {
			return t
		}
		stack = append(stack, level{col: col, seq: seq, base: childBase()})
		return top()
	}
	flow := 0
	add := func(l *level, n int64, tk *token.Token) error {
		l.child = l.base + n
		if sum += l.child; sum > limit {
			return y.m.errorAt(y.off(tk), "the values of this YAML source sit under keys so long that their paths total more than %s (a long key above many values, each path repeating it); no real tool list comes near: shorten the keys", SizeText(limit))
		}
		return nil
	}
	for i, tk := range tokens {
		var err error
		switch tk.Type {
		case token.DocumentHeaderType, token.DocumentEndType:
			stack, flow = stack[:0], 0
		case token.SequenceStartType, token.MappingStartType:
			if t := top(); t != nil && t.flow && t.seq {
				err = add(t, 3, tk) // an entry of a flow sequence
			}
			flow++
			stack = append(stack, level{flow: true, seq: tk.Type == token.SequenceStartType, base: childBase()})
		case token.SequenceEndType, token.MappingEndType:
			if flow > 0 {
				flow--
				for t := top(); t != nil; t = top() {
					stack = stack[:len(stack)-1]
					if t.flow {
						break
					}
				}
			}
		case token.SequenceEntryType:
			if flow == 0 {
				err = add(enter(tk.Position.Column, true), 3, tk)
			}
		case token.MappingValueType:
			if i == 0 {
				break
			}
			key := i - 1
			for key > 0 && tokens[key].Type == token.CommentType {
				key--
			}
			k := tokens[key]
			if flow == 0 {
				err = add(enter(k.Position.Column, false), 1+int64(len(k.Value)), tk)
			} else if t := top(); t != nil {
				err = add(t, 1+int64(len(k.Value)), tk)
			}
		default:
			if t := top(); t != nil && t.flow && t.seq && flow > 0 && tk.Type != token.CollectEntryType && tk.Type != token.CommentType {
				err = add(t, 3, tk) // a scalar entry of a flow sequence
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}
