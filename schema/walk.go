// Package schema knows the shape of JSON Schema documents as tools carry
// them: which keywords hold subschemas (one walker visits them all, for every
// rule and every transform), which dialect a schema declares, how local
// references resolve, and when two values are equal as JSON. It reads
// decoded JSON values (map[string]any and friends) and never fetches
// anything.
package schema

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/mcpfit/mcplint/pointer"
)

// Keywords whose value is one subschema.
var singleKeywords = []string{
	"additionalProperties", "additionalItems", "contains", "not", "if", "then", "else",
	"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items",
}

// Keywords whose value maps names to subschemas.
var mapKeywords = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}

// Keywords whose value is a list of subschemas.
var listKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}

// MaxDepth is the deepest a walk goes: the deepest nesting the loader can
// be told to accept (manifest.DepthCeiling), so only values built by
// transforms could reach it; a walk stops there rather than exhaust the
// stack.
const MaxDepth = 10000

// Node is a subschema met on a walk: its value and how it was reached. Its
// pointer is built only when asked for, so a walk spells no pointer per
// subschema (and none whose total length grows with the square of the
// nesting).
type Node struct {
	// Value is the subschema. Walks visit object schemas only: boolean
	// schemas have nothing to inspect.
	Value map[string]any
	// Parent is the schema holding this one; nil at the root of the walk.
	Parent *Node
	// Keyword is the member of Parent holding this schema ("properties",
	// "items", "anyOf", ...); "" at the root.
	Keyword string
	// Name is the member name under a keyword that maps names to schemas
	// ("properties", "$defs", ...); "" otherwise.
	Name string
	// Index is the position under a keyword that lists schemas ("anyOf",
	// "prefixItems", "items" as a list); -1 otherwise.
	Index int
	// Depth is 0 at the root, 1 for its subschemas, and so on.
	Depth int

	ptr    string // built on first use; at the root, the walk's base
	hasPtr bool
	end    int // the index, in the walk's order, just past the node's descendants
	size   int // subschemas from this node down, objects or not (see Tree.Counted)
}

// Pointer is where the subschema is: the walk's base pointer followed by the
// keywords, names and indices that lead to it.
func (n *Node) Pointer() string {
	if n.hasPtr {
		return n.ptr
	}
	// Built from the nearest ancestor that knows its pointer, storing none
	// of the others: a deep node costs its own length, not the sum of its
	// ancestors'.
	var steps []*Node
	a := n
	for ; !a.hasPtr; a = a.Parent {
		steps = append(steps, a)
	}
	b := []byte(a.ptr)
	for i := len(steps) - 1; i >= 0; i-- {
		b = steps[i].appendStep(b)
	}
	n.ptr, n.hasPtr = string(b), true
	return n.ptr
}

// appendStep appends the tokens that lead from the parent to n.
func (n *Node) appendStep(b []byte) []byte {
	b = append(b, '/')
	b = append(b, pointer.Escape(n.Keyword)...)
	switch {
	case n.Index >= 0:
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(n.Index), 10)
	case mapSet[n.Keyword]:
		b = append(b, '/')
		b = append(b, pointer.Escape(n.Name)...)
	}
	return b
}

// Tree holds the subschemas of one schema in the order Walk visits them, so
// that several read-only walks of it (one per rule) share the work of
// finding them: following keywords, sorting member names.
type Tree struct {
	nodes   []Node
	parents []int    // parent indices while the nodes slice may still move
	keys    []string // scratch for sorting member names

	// Found for Counted and ChildrenOf on their first call for this tree.
	refsFound bool
	refs      []bool          // whether a reference is at or below each node
	indexed   bool            // index is built (a lookup of the root needs none)
	index     map[uintptr]int // a node's index by the identity of its value (see Identity)
}

// Reset makes t the tree of root at pointer base, reusing t's storage:
// nodes of the previous tree must no longer be used.
func (t *Tree) Reset(root any, base string) {
	t.nodes, t.parents = t.nodes[:0], t.parents[:0]
	t.refsFound, t.indexed = false, false
	s, ok := root.(map[string]any)
	if !ok {
		return
	}
	t.nodes = append(t.nodes, Node{Value: s, Index: -1, ptr: base, hasPtr: true})
	t.parents = append(t.parents, -1)
	t.add(0)
	// The slice no longer grows: parents can be pointed at.
	for i, p := range t.parents {
		if p >= 0 {
			t.nodes[i].Parent = &t.nodes[p]
		}
	}
}

// add appends the descendants of node i in walk order.
func (t *Tree) add(i int) {
	size := 1
	if depth := t.nodes[i].Depth; depth < MaxDepth {
		eachChild(t.nodes[i].Value, false, &t.keys, func(c any, kw, name string, idx int) {
			m, ok := c.(map[string]any)
			if !ok {
				size++ // a boolean schema, or a value that is no schema
				return
			}
			j := len(t.nodes)
			t.nodes = append(t.nodes, Node{Value: m, Keyword: kw, Name: name, Index: idx, Depth: depth + 1})
			t.parents = append(t.parents, i)
			t.add(j)
			size += t.nodes[j].size
		})
	}
	t.nodes[i].end = len(t.nodes)
	t.nodes[i].size = size
}

// Counted returns, for v one of the tree's subschemas, the number of
// subschemas from v down, v included and those that are not objects
// (boolean schemas) counted too, as EachChild finds them without following
// references, and whether none of them holds a reference ("$ref",
// "$dynamicRef" or "$recursiveRef" as a string); ok is false for any other
// value. A count of a schema with its references expanded can take the
// size of every part without references as it is, instead of walking it
// again.
func (t *Tree) Counted(v map[string]any) (size int, refFree, ok bool) {
	i, ok := t.find(v)
	if !ok {
		return 0, false, false
	}
	if !t.refsFound {
		t.findRefs()
	}
	return t.nodes[i].size, !t.refs[i], true
}

// ChildrenOf calls fn for each direct subschema of v that is an object, v
// being one of the tree's subschemas, and returns the number of its other
// direct subschemas (boolean ones), as EachChild finds them, and whether v
// is one of the tree's: a count that follows references (see Counted)
// goes down the tree's nodes instead of finding each one's children again.
func (t *Tree) ChildrenOf(v map[string]any, fn func(child map[string]any)) (others int, ok bool) {
	i, ok := t.find(v)
	if !ok {
		return 0, false
	}
	others = t.nodes[i].size - 1
	for j := i + 1; j < t.nodes[i].end; j = t.nodes[j].end {
		fn(t.nodes[j].Value)
		others -= t.nodes[j].size
	}
	return others, true
}

// find returns the index of v's node. The root, asked for first and, in
// a schema without references, alone, is found without the index by
// identity, which is built on the first lookup of another node.
func (t *Tree) find(v map[string]any) (int, bool) {
	if len(t.nodes) == 0 {
		return 0, false
	}
	id := Identity(v)
	if Identity(t.nodes[0].Value) == id {
		return 0, true
	}
	if !t.indexed {
		t.indexed = true
		if t.index == nil {
			t.index = make(map[uintptr]int, len(t.nodes))
		} else {
			clear(t.index)
		}
		// From the end, so that an object held in several places (a YAML
		// alias) is found at its first.
		for i := len(t.nodes) - 1; i >= 0; i-- {
			t.index[Identity(t.nodes[i].Value)] = i
		}
	}
	i, ok := t.index[id]
	return i, ok
}

// findRefs marks each node with a reference at or below it.
func (t *Tree) findRefs() {
	t.refsFound = true
	t.refs = slices.Grow(t.refs[:0], len(t.nodes))[:len(t.nodes)]
	clear(t.refs)
	// Children come after their parent: one pass from the end carries
	// each node's references up to its parent.
	for i := len(t.nodes) - 1; i >= 0; i-- {
		if !t.refs[i] {
			for _, kw := range RefKeywords {
				if _, isString := t.nodes[i].Value[kw].(string); isString {
					t.refs[i] = true
					break
				}
			}
		}
		if p := t.parents[i]; t.refs[i] && p >= 0 {
			t.refs[p] = true
		}
	}
}

// RefKeywords are the keywords that refer to another schema.
var RefKeywords = []string{"$ref", "$dynamicRef", "$recursiveRef"}

// Identity tells decoded objects apart: the same map, wherever it is held
// (a YAML alias can hold one in several places), has the same identity
// while it is reachable, and two maps never share one.
func Identity(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }

// Len is the number of subschemas in the tree.
func (t *Tree) Len() int { return len(t.nodes) }

// Walk visits the tree's subschemas, parents before children; returning
// false skips the subschemas below a node.
func (t *Tree) Walk(fn func(n *Node) bool) {
	for i := 0; i < len(t.nodes); {
		n := &t.nodes[i]
		if fn(n) {
			i++
		} else {
			i = n.end
		}
	}
}

// Walk visits root (at pointer base) and every object subschema below it,
// parents before children, the members of a keyword that maps names to
// schemas in KeywordOrder (see SortedKeys) so that what depends on the
// order stays the same from one run to the next. Returning false skips the
// subschemas below a node. A node's subschemas are found after fn returns,
// so a transform may rewrite the node it is given and have the walk go on
// into the result.
func Walk(root any, base string, fn func(n *Node) bool) {
	s, ok := root.(map[string]any)
	if !ok {
		return
	}
	var keys []string
	walk(&Node{Value: s, Index: -1, ptr: base, hasPtr: true}, fn, &keys)
}

func walk(n *Node, fn func(n *Node) bool, keys *[]string) {
	if !fn(n) || n.Depth >= MaxDepth {
		return
	}
	eachChild(n.Value, true, keys, func(c any, kw, name string, idx int) {
		walk(&Node{Value: c.(map[string]any), Parent: n, Keyword: kw, Name: name, Index: idx, Depth: n.Depth + 1}, fn, keys)
	})
}

// Children calls fn for each direct subschema of s, objects or not, with
// its pointer, in the order Walk visits them.
func Children(s map[string]any, ptr string, fn func(child any, ptr string)) {
	EachChild(s, func(c any, kw, name string, idx int) {
		n := Node{Keyword: kw, Name: name, Index: idx}
		fn(c, string(n.appendStep([]byte(ptr))))
	})
}

// EachChild is Children without the pointers: fn gets each direct
// subschema with the keyword that holds it and its name or index there, as
// a Node has them.
func EachChild(s map[string]any, fn func(child any, keyword, name string, index int)) {
	var keys []string
	eachChild(s, false, &keys, fn)
}

// CloneShell copies s deeply but for its direct subschemas (as EachChild
// finds them), which stay shared with s in copied containers: for a
// transform that replaces each of them by a transformed copy, where a
// deep copy at every level copied the schema once per level of nesting.
func CloneShell(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch x := v.(type) {
		case map[string]any:
			if singleSet[k] {
				out[k] = x
				continue
			}
			if mapSet[k] {
				m := make(map[string]any, len(x))
				for name, e := range x {
					if _, isList := e.([]any); isList && k == "dependencies" {
						e = Clone(e) // a list of names, not a subschema
					}
					m[name] = e
				}
				out[k] = m
				continue
			}
		case []any:
			if listSet[k] {
				out[k] = slices.Clone(x)
				continue
			}
		}
		out[k] = Clone(v)
	}
	return out
}

// keywordAt numbers the keywords that hold subschemas in the order children
// visits them: singleKeywords, then mapKeywords, then listKeywords ("items"
// appears in both the first and the last).
var keywordAt = func() map[string][]int {
	m := map[string][]int{}
	for i, k := range slices.Concat(singleKeywords, mapKeywords, listKeywords) {
		m[k] = append(m[k], i)
	}
	return m
}()

// eachChild calls fn for each direct subschema of s with the keyword that
// holds it and its name or index there; objectsOnly skips the children that
// are not objects. It looks up only the keywords s has: most schemas have a
// few members, and the keywords are many. keys is scratch space for sorting
// names.
func eachChild(s map[string]any, objectsOnly bool, keys *[]string, fn func(c any, kw, name string, idx int)) {
	var present uint64 // bit i: keyword i of keywordAt
	if len(s) < len(keywordAt) {
		for k := range s {
			for _, i := range keywordAt[k] {
				present |= 1 << i
			}
		}
	} else {
		present = ^uint64(0)
	}
	if present == 0 {
		return
	}
	for i, k := range singleKeywords {
		if present&(1<<i) == 0 {
			continue
		}
		if c, ok := s[k]; ok {
			if _, isList := c.([]any); !isList && (!objectsOnly || isObject(c)) {
				fn(c, k, "", -1)
			}
		}
	}
	bit := len(singleKeywords)
	for i, k := range mapKeywords {
		if present&(1<<(bit+i)) == 0 {
			continue
		}
		m, ok := s[k].(map[string]any)
		if !ok {
			continue
		}
		// The names are sorted into scratch space that fn, walking on,
		// shares: each level keeps its part of it (a larger array left
		// behind still holds the outer levels' names).
		start := len(*keys)
		if cap(*keys)-start < len(m) {
			grown := make([]string, start, 2*(start+len(m)))
			copy(grown, *keys)
			*keys = grown
		}
		names := SortedKeysInto((*keys)[start:start], m)
		*keys = (*keys)[:start+len(names)]
		for _, name := range names {
			c := m[name]
			if k == "dependencies" {
				if _, isList := c.([]any); isList {
					continue
				}
			}
			if objectsOnly && !isObject(c) {
				continue
			}
			fn(c, k, name, -1)
		}
		*keys = (*keys)[:start]
	}
	bit += len(mapKeywords)
	for i, k := range listKeywords {
		if present&(1<<(bit+i)) == 0 {
			continue
		}
		if l, ok := s[k].([]any); ok {
			for j, c := range l {
				if objectsOnly && !isObject(c) {
					continue
				}
				fn(c, k, "", j)
			}
		}
	}
}

func isObject(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}
