package schema

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
)

const walkDoc = `{
	"type": "object",
	"properties": {
		"a/b": {"type": "array", "items": {"type": "string"}},
		"c~d": {"anyOf": [{"type": "string"}, true, {"type": "null"}]},
		"type": {"properties": {"x": {"not": {}}}}
	},
	"prefixItems": [{"minimum": 1}],
	"dependencies": {"p": ["q"], "r": {"required": ["s"]}},
	"$defs": {"D": {"$ref": "#"}}
}`

// walkPointers are the pointers Walk gives, in its order; the names under
// "properties" follow KeywordOrder ("type" first), escaped.
var walkPointers = []string{
	"/s",
	"/s/properties/type",
	"/s/properties/type/properties/x",
	"/s/properties/type/properties/x/not",
	"/s/properties/a~1b",
	"/s/properties/a~1b/items",
	"/s/properties/c~0d",
	"/s/properties/c~0d/anyOf/0",
	"/s/properties/c~0d/anyOf/2",
	"/s/$defs/D",
	"/s/dependencies/r",
	"/s/prefixItems/0",
}

func TestWalkPointers(t *testing.T) {
	doc := testenv.JSON(t, walkDoc)
	var got []string
	Walk(doc, "/s", func(n *Node) bool {
		got = append(got, n.Pointer())
		if v, ok := Get(doc, strings.TrimPrefix(n.Pointer(), "/s")); !ok || !Equal(v, n.Value) {
			t.Errorf("%s: the node's value is not the value at its pointer", n.Pointer())
		}
		if n.Parent != nil && n.Depth != n.Parent.Depth+1 {
			t.Errorf("%s: depth %d under a parent at %d", n.Pointer(), n.Depth, n.Parent.Depth)
		}
		return true
	})
	if d := cmp.Diff(walkPointers, got); d != "" {
		t.Errorf("Walk pointers (-want +got):\n%s", d)
	}
}

// TestTree checks that a Tree visits what Walk visits, in the same order,
// with the same parents, that returning false skips a subtree, and that a
// reused tree forgets the previous schema.
func TestTree(t *testing.T) {
	doc := testenv.JSON(t, walkDoc)
	var tr Tree
	tr.Reset(testenv.JSON(t, `{"properties": {"old": {}}}`), "")
	tr.Reset(doc, "/s")
	var got []string
	tr.Walk(func(n *Node) bool {
		parent := ""
		if n.Parent != nil {
			parent = n.Parent.Pointer()
		}
		got = append(got, n.Pointer()+" <- "+parent)
		return true
	})
	var want []string
	Walk(doc, "/s", func(n *Node) bool {
		parent := ""
		if n.Parent != nil {
			parent = n.Parent.Pointer()
		}
		want = append(want, n.Pointer()+" <- "+parent)
		return true
	})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Tree.Walk (-Walk +Tree):\n%s", d)
	}
	if tr.Len() != len(walkPointers) {
		t.Errorf("Len = %d, want %d", tr.Len(), len(walkPointers))
	}
	var pruned []string
	tr.Walk(func(n *Node) bool {
		pruned = append(pruned, n.Pointer())
		return n.Keyword != "properties"
	})
	want = []string{"/s", "/s/properties/type", "/s/properties/a~1b", "/s/properties/c~0d", "/s/$defs/D", "/s/dependencies/r", "/s/prefixItems/0"}
	if d := cmp.Diff(want, pruned); d != "" {
		t.Errorf("pruned walk (-want +got):\n%s", d)
	}
}

// TestWalkDeep checks that a walk of a deeply nested schema stops at
// MaxDepth and that the pointer of its deepest node is right without
// spelling every ancestor's.
func TestWalkDeep(t *testing.T) {
	root := map[string]any{}
	cur := root
	for range MaxDepth + 5 {
		next := map[string]any{}
		cur["items"] = next
		cur = next
	}
	var deepest *Node
	var tr Tree
	tr.Reset(root, "")
	tr.Walk(func(n *Node) bool { deepest = n; return true })
	if deepest.Depth != MaxDepth {
		t.Fatalf("deepest node at depth %d, want %d", deepest.Depth, MaxDepth)
	}
	if want := strings.Repeat("/items", MaxDepth); deepest.Pointer() != want {
		t.Errorf("pointer of the deepest node is %d bytes, want %d", len(deepest.Pointer()), len(want))
	}
	if deepest.Parent.hasPtr {
		t.Errorf("asking for the deepest pointer spelled its parent's")
	}
}

func TestChildren(t *testing.T) {
	doc := testenv.JSON(t, `{"items": [{"type": "string"}, false], "properties": {"a/b": 1}, "not": true}`).(map[string]any)
	var got []string
	Children(doc, "/x", func(_ any, ptr string) { got = append(got, ptr) })
	want := []string{"/x/not", "/x/properties/a~1b", "/x/items/0", "/x/items/1"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Children (-want +got):\n%s", d)
	}
}

// TestTreeCounted checks the counts a tree keeps against a count of each
// subschema's own walk, on every schema of the corpus and on a YAML-like
// value that holds one object in two places: the size of a subschema is
// its children's (EachChild, objects or not) plus one, it is free of
// references when neither it nor any subschema below holds one, and
// ChildrenOf finds its children as EachChild does.
func TestTreeCounted(t *testing.T) {
	var size func(s map[string]any) int
	size = func(s map[string]any) int {
		n := 1
		EachChild(s, func(c any, _, _ string, _ int) {
			if m, ok := c.(map[string]any); ok {
				n += size(m)
			} else {
				n++
			}
		})
		return n
	}
	refFree := func(s map[string]any) bool {
		free := true
		Walk(s, "", func(n *Node) bool {
			for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
				if _, ok := n.Value[kw].(string); ok {
					free = false
				}
			}
			return free
		})
		return free
	}
	shared := map[string]any{"type": "string", "not": true}
	docs := append(corpus(t),
		map[string]any{"properties": map[string]any{"a": shared, "b": shared}, "items": false},
		map[string]any{"$defs": map[string]any{"d": map[string]any{"$ref": 7}}, "anyOf": []any{map[string]any{"$ref": "#/$defs/d"}}},
	)
	var tr Tree
	checked, withRefs := 0, 0
	for _, doc := range docs {
		tr.Reset(doc, "")
		tr.Walk(func(n *Node) bool {
			gotSize, gotFree, ok := tr.Counted(n.Value)
			if !ok {
				t.Fatalf("Counted does not know %s of %v", n.Pointer(), doc)
			}
			if want := size(n.Value); gotSize != want {
				t.Errorf("size of %s = %d, want %d (in %v)", n.Pointer(), gotSize, want, doc)
			}
			if want := refFree(n.Value); gotFree != want {
				t.Errorf("refFree of %s = %t, want %t (in %v)", n.Pointer(), gotFree, want, doc)
			}
			var wantChildren, gotChildren []uintptr
			wantOthers := 0
			EachChild(n.Value, func(c any, _, _ string, _ int) {
				if m, ok := c.(map[string]any); ok {
					wantChildren = append(wantChildren, Identity(m))
				} else {
					wantOthers++
				}
			})
			gotOthers, ok := tr.ChildrenOf(n.Value, func(c map[string]any) { gotChildren = append(gotChildren, Identity(c)) })
			if !ok || gotOthers != wantOthers || !slices.Equal(gotChildren, wantChildren) {
				t.Errorf("ChildrenOf %s = %d children, %d others, %t; want %d and %d", n.Pointer(), len(gotChildren), gotOthers, ok, len(wantChildren), wantOthers)
			}
			checked++
			if !gotFree {
				withRefs++
			}
			return true
		})
		if _, _, ok := tr.Counted(map[string]any{}); ok {
			t.Fatalf("Counted knows an object outside the tree")
		}
		if _, ok := tr.ChildrenOf(map[string]any{}, func(map[string]any) {}); ok {
			t.Fatalf("ChildrenOf knows an object outside the tree")
		}
	}
	if checked < 1000 || withRefs == 0 {
		t.Errorf("checked %d subschemas, %d with references: the corpus is too small", checked, withRefs)
	}
}
