package schema

import (
	"net/url"
	"strings"

	"github.com/mcplint/mcplint/manifest"
)

// RefKind classifies a $ref.
type RefKind int

const (
	// RefLocal points inside the same document: a JSON Pointer fragment or
	// an anchor, possibly behind the document's own $id.
	RefLocal RefKind = iota
	// RefRemote names another document by absolute URI.
	RefRemote
	// RefRelative names another document by a relative reference.
	RefRelative
)

// ClassifyRef tells where a $ref points, given the root's $id ("" if none).
func ClassifyRef(ref, rootID string) RefKind {
	if strings.HasPrefix(ref, "#") {
		return RefLocal
	}
	base, frag, _ := strings.Cut(ref, "#")
	_ = frag
	if rootID != "" && strings.TrimSuffix(base, "/") == strings.TrimSuffix(strings.SplitN(rootID, "#", 2)[0], "/") {
		return RefLocal
	}
	if u, err := url.Parse(ref); err == nil && u.IsAbs() {
		return RefRemote
	}
	return RefRelative
}

// Resolve finds the target of a local $ref in root. It understands JSON
// Pointer fragments ("#/$defs/x"), plain-name anchors ("#name", declared by
// $anchor, or by a fragment-only $id in older drafts) and the root's own $id.
// Embedded resources with their own $id are searched for anchors but their
// base URIs are not otherwise tracked.
func Resolve(root any, ref string) (target any, ok bool) {
	rootID := ""
	if s, isObj := root.(map[string]any); isObj {
		rootID, _ = s["$id"].(string)
	}
	if ClassifyRef(ref, rootID) != RefLocal {
		return nil, false
	}
	_, frag, _ := strings.Cut(ref, "#")
	if frag == "" {
		return root, true
	}
	if strings.HasPrefix(frag, "/") {
		if f, err := url.PathUnescape(frag); err == nil {
			frag = f
		}
		return pointerGet(root, frag)
	}
	var found any
	Walk(root, "", func(s map[string]any, _ string, _ int) bool {
		if found != nil {
			return false
		}
		if a, _ := s["$anchor"].(string); a == frag {
			found = s
		} else if id, _ := s["$id"].(string); id == "#"+frag {
			found = s
		}
		return found == nil
	})
	return found, found != nil
}

func pointerGet(v any, ptr string) (any, bool) {
	for _, tok := range manifest.SplitPointer(ptr) {
		switch x := v.(type) {
		case map[string]any:
			c, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = c
		case []any:
			i := 0
			for _, r := range tok {
				if r < '0' || r > '9' {
					return nil, false
				}
				i = i*10 + int(r-'0')
			}
			if tok == "" || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// Get returns the value at a JSON Pointer inside v.
func Get(v any, ptr string) (any, bool) { return pointerGet(v, ptr) }
