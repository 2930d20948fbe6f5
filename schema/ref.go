package schema

import (
	"net/url"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
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
	// RefInvalid is not a URI reference at all.
	RefInvalid
)

// ClassifyRef tells where a $ref points, given the root's $id ("" if none).
// It resolves the reference against the $id as JSON Schema does, so
// "other.json" under "$id": "https://example.com/tool.json" is remote, and
// "tool.json#/$defs/a" under the same $id is local. Embedded resources
// (subschemas with their own $id) are not considered: use a Resolver.
func ClassifyRef(ref, rootID string) RefKind {
	u, err := url.Parse(ref)
	if err != nil {
		return RefInvalid
	}
	base := rootBase(rootID)
	abs := base.ResolveReference(u)
	abs.Fragment, abs.RawFragment = "", ""
	switch {
	case abs.String() == base.String():
		return RefLocal
	case u.IsAbs():
		return RefRemote
	}
	return RefRelative
}

// Resolve finds the target of a local $ref in root, as a reference written
// at the root. It understands JSON Pointer fragments ("#/$defs/x"),
// plain-name anchors ("#name", declared by $anchor, $dynamicAnchor, or a
// fragment-only $id in older drafts), the root's own $id and the $ids of
// embedded resources.
func Resolve(root any, ref string) (target any, ok bool) {
	r := NewResolver(root).Resolve("", ref)
	return r.Target, r.Found
}

// Get returns the value at a JSON Pointer inside v.
func Get(v any, ptr string) (any, bool) { return pointerGet(v, ptr) }

// Resolver resolves references inside one schema document. It knows the
// base URI in effect at every subschema (the root's, or that of the nearest
// enclosing $id), the resources the document embeds and the anchors each
// declares. It never fetches anything.
type Resolver struct {
	root    any
	dialect string
	// bases maps a subschema's pointer to its base URI.
	bases map[string]*url.URL
	// resources maps a resource URI (no fragment) to its root's pointer.
	resources map[string]string
	// anchors maps resource URI + "#" + anchor name to the declaring
	// subschema's pointer.
	anchors map[string]string
}

// Ref is where a reference leads.
type Ref struct {
	Kind RefKind
	// URI is the reference resolved against its base, when it leaves the
	// document (Kind RefRemote or RefRelative); the reference as written
	// when the document has no absolute base URI.
	URI string
	// Network reports that the reference resolves to a URI with a host:
	// reaching it would mean a network request.
	Network bool
	// Pointer locates the target in the document when Found.
	Pointer string
	// Target is the referenced value when Found (a schema or, for a broken
	// reference, whatever the pointer reached).
	Target any
	Found  bool
	// Anchor is the plain-name fragment when the reference names one.
	Anchor string
}

// NewResolver indexes root for resolving references.
func NewResolver(root any) *Resolver {
	r := &Resolver{
		root:      root,
		bases:     map[string]*url.URL{},
		resources: map[string]string{},
		anchors:   map[string]string{},
	}
	r.dialect, _ = Dialect(root)
	origin := rootBase("")
	// The document is reachable under its retrieval URI as well as its $id.
	r.resources[origin.String()] = ""
	idKey := "$id"
	if r.dialect == Draft4 {
		idKey = "id"
	}
	if !declares(root, idKey, 0) {
		// No identifier, anchor or embedded dialect anywhere (most
		// documents): the walk below would record the root's base alone,
		// and walking a schema was most of the cost of a resolver, which
		// several rules build for every tool.
		r.bases[""] = origin
		return r
	}
	// The base in effect below a node is its parent's unless it declares
	// $id; only nodes under some $id are recorded, so a document without
	// one (most) costs no entry per subschema.
	scoped := map[*Node]*url.URL{}
	var rootBase *url.URL
	Walk(root, "", func(n *Node) bool {
		s := n.Value
		base := origin
		if b, ok := scoped[n.Parent]; ok && n.Parent != nil {
			base = b
		}
		if id := r.idOf(s); id != "" {
			if u, err := url.Parse(id); err == nil {
				abs := base.ResolveReference(u)
				frag := abs.Fragment
				abs.Fragment, abs.RawFragment = "", ""
				if !strings.HasPrefix(id, "#") {
					base = abs
					r.resources[base.String()] = n.Pointer()
				}
				// Before 2019-09 an anchor was declared as a fragment of
				// $id ("#name"); accepting it in every dialect keeps a
				// misplaced legacy anchor a validity problem, not an
				// unresolvable reference.
				if frag != "" && !strings.HasPrefix(frag, "/") {
					r.anchors[base.String()+"#"+frag] = n.Pointer()
				}
			}
		}
		for _, k := range []string{"$anchor", "$dynamicAnchor"} {
			if a, ok := s[k].(string); ok && a != "" {
				r.anchors[base.String()+"#"+a] = n.Pointer()
			}
		}
		if base != origin {
			scoped[n] = base
		}
		// Subschemas under the root's base are left out (Resolve falls
		// back to it): most documents have no other, and a map entry per
		// subschema cost more than the rest of indexing.
		if n.Parent == nil {
			rootBase = base
			r.bases[""] = base
		} else if base != rootBase {
			r.bases[n.Pointer()] = base
		}
		return true
	})
	return r
}

// idOf returns the identifier a subschema declares ("id" in draft-04).
// Before 2019-09 keywords beside $ref are ignored, $id included.
func (r *Resolver) idOf(s map[string]any) string {
	key := "$id"
	if r.dialect == Draft4 {
		key = "id"
	}
	if RefSiblingsIgnored(r.dialect) {
		if _, hasRef := s["$ref"]; hasRef {
			return ""
		}
	}
	id, _ := s[key].(string)
	return id
}

// Scoped reports whether some subschema has a base URI of its own (an
// "$id" below the root): only then does Resolve need to know where a
// reference is written.
func (r *Resolver) Scoped() bool { return len(r.bases) > 1 }

// Resolve resolves ref as written in the subschema at pointer from (""
// for the root).
func (r *Resolver) Resolve(from, ref string) Ref {
	u, err := url.Parse(ref)
	if err != nil {
		return Ref{Kind: RefInvalid}
	}
	base, ok := r.bases[from]
	if !ok {
		base = r.bases[""]
		if base == nil {
			base = rootBase("")
		}
	}
	abs := base.ResolveReference(u)
	frag := abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	doc := abs.String()
	resPtr, ok := r.resources[doc]
	if !ok {
		kind := RefRelative
		if u.IsAbs() {
			kind = RefRemote
		}
		uri := abs.String()
		if abs.Scheme == internalScheme {
			// No absolute base to resolve against: the reference is all
			// there is to say.
			uri = ref
		}
		return Ref{Kind: kind, URI: uri, Network: abs.Host != ""}
	}
	out := Ref{Kind: RefLocal}
	switch {
	case frag == "":
		out.Pointer = resPtr
	case strings.HasPrefix(frag, "/"):
		out.Pointer = resPtr + frag
	default:
		out.Anchor = frag
		p, ok := r.anchors[doc+"#"+frag]
		if !ok {
			return out
		}
		out.Pointer = p
	}
	out.Target, out.Found = pointerGet(r.root, out.Pointer)
	return out
}

// rootBase is the base URI of a document: its $id resolved against the
// internal retrieval URI.
func rootBase(id string) *url.URL {
	base, _ := url.Parse(resourceURL)
	if id != "" {
		if u, err := url.Parse(id); err == nil {
			base = base.ResolveReference(u)
		}
	}
	base.Fragment, base.RawFragment = "", ""
	return base
}

func pointerGet(v any, ptr string) (any, bool) {
	for _, tok := range pointer.Split(ptr) {
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
				if r < '0' || r > '9' || i > len(x) {
					return nil, false
				}
				i = i*10 + int(r-'0')
			}
			if tok == "" || i >= len(x) || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
