package normalize

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// Draft2020 rewrites a schema that declares draft-04, draft-06, draft-07 or
// 2019-09 as JSON Schema 2020-12 with the same meaning, for consumers that
// read every schema as 2020-12 whatever its "$schema" says (the Anthropic
// API), or that know no other dialect (the validator Claude Code and Claude
// Desktop check structured results with).
//
// "$schema" is removed rather than set to 2020-12: 2020-12 is MCP's default
// dialect (protocol 2025-11-25 and later) and what a reader that ignores
// "$schema" assumes, while a declared 2020-12 URI is itself refused by
// clients whose validator is a draft-07 Ajv (the TypeScript SDK's 1.x
// client: "no schema with key or ref"), and Gemini refuses the keyword.
//
// The rewrites, each exact:
//
//   - "items": [...] becomes "prefixItems", and "additionalItems" beside it
//     becomes "items"; an "additionalItems" without an "items" array, which
//     the old dialects ignore, is removed.
//   - "dependencies" is split: name lists go to "dependentRequired" (united
//     with a list already there), schemas to "dependentSchemas".
//   - draft-04's "id" becomes "$id"; an "$id" (or "id") with a fragment
//     ("#node", "other.json#node") becomes "$anchor" (and "$id" for the
//     part before "#"). An anchor name 2020-12 does not allow ("a:b") is
//     renamed, with every reference to it.
//   - draft-04's boolean "exclusiveMinimum"/"exclusiveMaximum" become the
//     numeric bound ("minimum": 0, "exclusiveMinimum": true becomes
//     "exclusiveMinimum": 0); false is removed.
//   - In draft-07 and older, keywords beside "$ref" are ignored, and in
//     2020-12 they apply: those that would change what validates are
//     removed. Annotations (title, description, default, examples, ...),
//     definitions and unknown keywords stay: they do not change what
//     validates, and a model reads the description. At the root, where MCP
//     wants "type": "object", the referenced definition is inlined instead
//     (InlineRootRef) when it can be. (Ajv, from version 7, applies such
//     keywords in every dialect; against that reading the rewrite only
//     ever accepts more.)
//   - 2019-09's "$recursiveAnchor": true at a resource's root becomes a
//     "$dynamicAnchor", and "$recursiveRef": "#" a "$dynamicRef" to it (or a
//     plain "$ref": "#" in a resource without the anchor, where the two
//     mean the same). Outside 2019-09, both keywords mean nothing and are
//     removed.
//   - A "$ref" whose target moved ("#/properties/a/items/0" into a tuple)
//     is rewritten to point at the same schema.
//
// What cannot be kept exactly is a Loss: a keyword the declared dialect
// does not know, which its validators ignore and 2020-12 applies ("if" in
// draft-06, "prefixItems" in draft-07), is kept and reported (except a
// "prefixItems" beside a tuple, which gives way to it); so are a
// "$recursiveRef" other than "#", a "$ref" into something the rewrite
// removed, "dependencies" and "dependentSchemas" naming the same property,
// and a subschema that declares a dialect of its own.
//
// A schema that declares 2020-12, or declares nothing, is returned
// unchanged (as a copy); one whose "$schema" names an unknown dialect too,
// with a Loss.
func Draft2020(s any) (any, []Loss) {
	return Draft2020From(s, "")
}

// Draft2020From is Draft2020 for a schema that declares no "$schema" but was
// written for dialect assumed (schema.Draft7, say): MCP named no default
// dialect before protocol 2025-11-25, and the TypeScript SDK read such
// schemas as draft-07. An empty assumed means 2020-12.
func Draft2020From(s any, assumed string) (any, []Loss) {
	m, ok := s.(map[string]any)
	if !ok {
		return schema.Clone(s), nil
	}
	d, declared := schema.Dialect(m)
	if declared == "" && assumed != "" {
		d = assumed
	}
	switch d {
	case schema.Draft2020:
		return schema.Clone(m), nil
	case schema.UnknownDraft:
		return schema.Clone(m), []Loss{{Pointer: "/$schema", Keyword: "$schema", What: fmt.Sprintf("%q names a dialect mcplint does not know; the schema was not rewritten", declared)}}
	}
	old := schema.Clone(m).(map[string]any)
	if declared == "" {
		// The resolver reads the dialect from the document.
		old["$schema"] = dialectURIs[d]
	}
	if in, ok := inlineRootRefSiblings(old, d); ok {
		old = in
	}
	u := &upgrade{
		from:     d,
		resolver: schema.NewResolver(old),
		moved:    map[string]string{},
	}
	u.nameAnchors(old)
	out := u.node(old, "", "", false).(map[string]any)
	delete(out, "$schema")
	u.retarget(out)
	return out, u.losses
}

// dialectURIs are the canonical "$schema" of each dialect.
var dialectURIs = map[string]string{
	schema.Draft4:    "http://json-schema.org/draft-04/schema#",
	schema.Draft6:    "http://json-schema.org/draft-06/schema#",
	schema.Draft7:    "http://json-schema.org/draft-07/schema#",
	schema.Draft2019: "https://json-schema.org/draft/2019-09/schema",
}

// dialectOrder ranks the dialects, oldest first.
var dialectOrder = map[string]int{schema.Draft4: 4, schema.Draft6: 6, schema.Draft7: 7, schema.Draft2019: 2019, schema.Draft2020: 2020}

// introduced are the keywords that change what validates in 2020-12, with
// the dialect that introduced them: in an older one they are unknown, so
// ignored.
var introduced = map[string]string{
	"$id": schema.Draft6, "const": schema.Draft6, "contains": schema.Draft6, "propertyNames": schema.Draft6,
	"if": schema.Draft7, "then": schema.Draft7, "else": schema.Draft7,
	"$anchor": schema.Draft2019, "dependentSchemas": schema.Draft2019, "dependentRequired": schema.Draft2019,
	"unevaluatedItems": schema.Draft2019, "unevaluatedProperties": schema.Draft2019,
	"maxContains": schema.Draft2019, "minContains": schema.Draft2019,
	"prefixItems": schema.Draft2020, "$dynamicRef": schema.Draft2020, "$dynamicAnchor": schema.Draft2020,
}

// refSiblingDropped are the keywords that, beside "$ref" in draft-07 and
// older, were ignored and would apply in 2020-12: every keyword that
// changes what validates ("format" included, which validators often
// assert), and the identifiers.
var refSiblingDropped = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`$id id $anchor $dynamicAnchor $dynamicRef $recursiveRef $recursiveAnchor
		prefixItems items additionalItems contains additionalProperties properties patternProperties
		dependentSchemas dependencies propertyNames if then else allOf anyOf oneOf not
		unevaluatedItems unevaluatedProperties type const enum multipleOf maximum exclusiveMaximum
		minimum exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems
		maxContains minContains maxProperties minProperties required dependentRequired format`) {
		m[k] = true
	}
	return m
}()

// anchorName is the form 2020-12 gives "$anchor" and "$dynamicAnchor".
var anchorName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`) })

// upgrade is one rewrite: the old document's references, where each of its
// subschemas went, and the references to check once all have moved.
type upgrade struct {
	from     string
	resolver *schema.Resolver
	// anchors maps an old anchor name to its 2020-12 name, where they differ.
	anchors map[string]string
	// dynamic is the "$dynamicAnchor" that stands for "$recursiveAnchor".
	dynamic string
	// moved maps the pointer of each old subschema to its new one.
	moved  map[string]string
	refs   []movedRef
	losses []Loss
}

// movedRef is a reference keyword of the new document, with where it was
// written in the old one.
type movedRef struct {
	node           map[string]any
	oldPtr, newPtr string
	oldKw, newKw   string
	oldRef         string
}

func (u *upgrade) lose(ptr, kw, format string, args ...any) {
	u.losses = append(u.losses, Loss{Pointer: ptr, Keyword: kw, What: fmt.Sprintf(format, args...)})
}

// inlineRootRefSiblings removes, in a dialect that ignores them, the
// keywords beside a root "$ref" that would start to apply, and inlines the
// definition so that the root keeps being the object schema MCP wants
// (its "type" among them). ok is false when nothing was beside the "$ref"
// or the definition cannot be inlined; the node rewrite then removes them.
func inlineRootRefSiblings(m map[string]any, d string) (map[string]any, bool) {
	if _, ok := m["$ref"]; !ok || !schema.RefSiblingsIgnored(d) {
		return nil, false
	}
	stripped := map[string]any{}
	for k, v := range m {
		if k == "$ref" || !refSiblingDropped[k] {
			stripped[k] = v
		}
	}
	if len(stripped) == len(m) {
		return nil, false
	}
	in, err := InlineRootRef(stripped)
	if err != nil {
		return nil, false
	}
	out, ok := in.(map[string]any)
	return out, ok
}

// nameAnchors finds the anchor names 2020-12 refuses and gives each a new
// one, and chooses the name of the dynamic anchor, none of them taken.
func (u *upgrade) nameAnchors(root map[string]any) {
	taken := map[string]bool{}
	var bad []string
	isBad := map[string]bool{}
	schema.Walk(root, "", func(n *schema.Node) bool {
		s := n.Value
		for _, name := range u.declaredAnchors(s) {
			if anchorName().MatchString(name) {
				taken[name] = true
			} else if !isBad[name] {
				isBad[name] = true
				bad = append(bad, name)
			}
		}
		return true
	})
	fresh := func(base string) string {
		name := base
		for i := 2; taken[name]; i++ {
			name = fmt.Sprintf("%s%d", base, i)
		}
		taken[name] = true
		return name
	}
	slices.Sort(bad)
	u.anchors = map[string]string{}
	for _, name := range bad {
		b := []byte(name)
		for i, c := range b {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.')) {
				b[i] = '_'
			}
		}
		u.anchors[name] = fresh(string(b))
	}
	u.dynamic = fresh("meta")
}

// declaredAnchors are the plain names a subschema declares as anchors.
func (u *upgrade) declaredAnchors(s map[string]any) []string {
	var out []string
	for _, k := range []string{"$anchor", "$dynamicAnchor", u.idKeyword()} {
		v, _ := s[k].(string)
		if k != "$anchor" && k != "$dynamicAnchor" {
			_, v, _ = strings.Cut(v, "#")
		}
		if v != "" && !strings.HasPrefix(v, "/") {
			out = append(out, v)
		}
	}
	return out
}

func (u *upgrade) idKeyword() string {
	if u.from == schema.Draft4 {
		return "id"
	}
	return "$id"
}

// member is a direct subschema of a node: its path below the node
// (keyword, then name or index) and its pointer.
type member struct {
	path []string
	v    any
	ptr  string
}

// node rewrites the subschema v found at oldPtr, to be placed at newPtr.
// recursive says whether the enclosing 2019-09 resource's root has
// "$recursiveAnchor": true.
func (u *upgrade) node(v any, oldPtr, newPtr string, recursive bool) any {
	u.moved[oldPtr] = newPtr
	m, ok := v.(map[string]any)
	if !ok {
		return schema.Clone(v)
	}
	if id, ok := m["$id"].(string); u.from == schema.Draft2019 && (oldPtr == "" || ok && !strings.HasPrefix(id, "#")) {
		recursive = m["$recursiveAnchor"] == true
	}
	_, hasRef := m["$ref"]
	ignored := schema.RefSiblingsIgnored(u.from) && hasRef
	_, tuple := m["items"].([]any)
	keep := func(k string) bool {
		// A "prefixItems" the old dialect does not know gives way to the
		// tuple it does: 2020-12 has room for one.
		return (!ignored || k == "$ref" || !refSiblingDropped[k]) && !(tuple && k == "prefixItems")
	}

	out := map[string]any{}
	var kids []member
	holds := map[string]bool{}
	schema.Children(m, oldPtr, func(c any, cptr string) {
		path := pointer.Split(cptr[len(oldPtr):])
		holds[path[0]] = true
		kids = append(kids, member{path, c, cptr})
	})
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !keep(k) {
			continue
		}
		if since, ok := introduced[k]; ok && dialectOrder[since] > dialectOrder[u.from] {
			u.lose(oldPtr+"/"+pointer.Escape(k), k, "a keyword %s does not know, which its validators ignore, applies in 2020-12", u.from)
		}
		if !holds[k] || k == "dependencies" {
			u.keyword(m, out, k, oldPtr, newPtr, recursive)
		}
	}
	for _, c := range kids {
		if !keep(c.path[0]) {
			continue
		}
		path, ok := u.place(m, c.path, oldPtr)
		if !ok {
			continue
		}
		np := newPtr
		for _, t := range path {
			np += "/" + pointer.Escape(t)
		}
		put(out, m, c.path, path, u.node(c.v, c.ptr, np, recursive))
	}
	return out
}

// keyword copies member k of the old node m into out, rewritten, for every
// member that holds no subschema (and the name lists of "dependencies").
func (u *upgrade) keyword(m, out map[string]any, k, oldPtr, newPtr string, recursive bool) {
	v := m[k]
	at := oldPtr + "/" + pointer.Escape(k)
	switch k {
	case "$schema":
		if oldPtr == "" {
			return
		}
		if d, _ := schema.Dialect(m); d == u.from {
			return
		}
		u.lose(at, k, "this subschema declares its own dialect, %s; it was rewritten as %s like the rest", schema.Compact(v), u.from)
	case "id", "$id":
		if k == u.idKeyword() {
			u.identifier(out, v, at, k)
			return
		}
	case "$anchor", "$dynamicAnchor":
		if name, ok := v.(string); ok && u.anchors[name] != "" {
			v = u.anchors[name]
		}
	case "$ref", "$dynamicRef":
		if ref, ok := v.(string); ok {
			v = u.renameAnchorIn(ref)
			u.refs = append(u.refs, movedRef{node: out, oldPtr: oldPtr, newPtr: newPtr, oldKw: k, newKw: k, oldRef: ref})
		}
	case "$recursiveAnchor":
		if u.from == schema.Draft2019 && v == true && (oldPtr == "" || isResource(m)) {
			if _, taken := m["$dynamicAnchor"]; taken {
				u.lose(at, k, "the resource also has a \"$dynamicAnchor\"; \"$recursiveAnchor\" was removed, so \"$recursiveRef\"s to it no longer extend")
				return
			}
			out["$dynamicAnchor"] = u.dynamic
		}
		return
	case "$recursiveRef":
		if u.from == schema.Draft2019 {
			u.recursiveRef(m, out, v, at, oldPtr, newPtr, recursive)
		}
		return
	case "exclusiveMinimum", "exclusiveMaximum":
		if b, ok := v.(bool); ok && u.from == schema.Draft4 {
			bound := strings.ToLower(strings.TrimPrefix(k, "exclusive"))
			if n, has := m[bound]; has && b {
				out[k] = schema.Clone(n)
			}
			return
		}
	case "minimum", "maximum":
		if b, _ := m["exclusive"+strings.ToUpper(k[:1])+k[1:]].(bool); b && u.from == schema.Draft4 {
			return // exclusiveMinimum/Maximum carry it
		}
	case "items":
		if _, ok := v.([]any); ok {
			return // an empty tuple constrains no position: "additionalItems" covers every item
		}
	case "additionalItems":
		return // its schema, if any, is a child; without an "items" array it is ignored
	case "dependencies":
		u.dependencyLists(m, out, v)
		return
	case "dependentRequired":
		if _, done := out[k]; done {
			return // united with the name lists of "dependencies"
		}
	}
	if _, done := out[k]; !done {
		out[k] = schema.Clone(v)
	}
}

// identifier rewrites an "$id" (draft-04: "id") with a fragment: the part
// before "#" stays the identifier, a plain-name fragment becomes "$anchor".
func (u *upgrade) identifier(out map[string]any, v any, at, k string) {
	id, ok := v.(string)
	if !ok {
		out["$id"] = schema.Clone(v)
		return
	}
	base, frag, hasFrag := strings.Cut(id, "#")
	if base != "" || !hasFrag {
		out["$id"] = base
	}
	switch {
	case frag == "":
	case strings.HasPrefix(frag, "/"):
		u.lose(at, k, "%q identifies the schema by a JSON Pointer fragment, which 2020-12 does not allow; the fragment was removed", id)
	default:
		if n := u.anchors[frag]; n != "" {
			frag = n
		}
		if a, ok := out["$anchor"]; ok && a != frag {
			u.lose(at, k, "the subschema has both %q and \"$anchor\": %s; the anchor of %q was kept", id, schema.Compact(a), k)
		}
		out["$anchor"] = frag
	}
}

// recursiveRef rewrites a 2019-09 "$recursiveRef".
func (u *upgrade) recursiveRef(m, out map[string]any, v any, at, oldPtr, newPtr string, recursive bool) {
	ref, _ := v.(string)
	_, hasRef := m["$ref"]
	switch {
	case ref == "#" && recursive:
		out["$dynamicRef"] = "#" + u.dynamic
		u.refs = append(u.refs, movedRef{node: out, oldPtr: oldPtr, newPtr: newPtr, oldKw: "$recursiveRef", newKw: "$dynamicRef", oldRef: ref})
	case ref == "#" && !hasRef:
		out["$ref"] = "#"
		u.refs = append(u.refs, movedRef{node: out, oldPtr: oldPtr, newPtr: newPtr, oldKw: "$recursiveRef", newKw: "$ref", oldRef: ref})
	case ref == "#":
		u.lose(at, "$recursiveRef", "\"$recursiveRef\" beside \"$ref\" has no 2020-12 form here; it was removed, so the resource's root no longer applies at this place")
	default:
		u.lose(at, "$recursiveRef", "%s means nothing in 2019-09 (only \"#\" does); it was removed", schema.Compact(v))
	}
}

// dependencyLists moves the name lists of "dependencies" to
// "dependentRequired"; its schemas are children, placed by place.
func (u *upgrade) dependencyLists(m, out map[string]any, v any) {
	deps, ok := v.(map[string]any)
	if !ok {
		out["dependencies"] = schema.Clone(v)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(deps)) {
		l, ok := deps[name].([]any)
		if !ok {
			continue
		}
		req, _ := out["dependentRequired"].(map[string]any)
		if req == nil {
			req = map[string]any{}
			if have, ok := m["dependentRequired"].(map[string]any); ok {
				req = schema.Clone(have).(map[string]any)
			}
			out["dependentRequired"] = req
		}
		req[name] = uniteNames(req[name], l)
	}
}

// uniteNames joins two name lists, keeping the order of first appearance.
func uniteNames(a, b any) any {
	l, _ := schema.Clone(a).([]any)
	seen := schema.NewSet(l...)
	for _, x := range b.([]any) {
		if seen.Add(x) {
			l = append(l, x)
		}
	}
	return l
}

// place says where the child at path (keyword, then name or index) of the
// old node m goes in the new one; ok is false for a child that is removed.
func (u *upgrade) place(m map[string]any, path []string, oldPtr string) ([]string, bool) {
	_, itemsList := m["items"].([]any)
	switch path[0] {
	case "items":
		if len(path) == 2 {
			return []string{"prefixItems", path[1]}, true
		}
	case "additionalItems":
		return []string{"items"}, itemsList
	case "dependencies":
		if have, ok := m["dependentSchemas"].(map[string]any); ok {
			if _, clash := have[path[1]]; clash {
				u.lose(oldPtr+"/dependencies/"+pointer.Escape(path[1]), "dependencies", "\"dependencies\" and \"dependentSchemas\" both name %q; it was left under \"dependencies\", which 2020-12 no longer defines", path[1])
				return path, true
			}
		}
		return []string{"dependentSchemas", path[1]}, true
	}
	return path, true
}

// put stores a rewritten child at path in out; old is the node it came from
// and oldPath its place there, which size a list.
func put(out, old map[string]any, oldPath, path []string, v any) {
	if len(path) == 1 {
		out[path[0]] = v
		return
	}
	if l, ok := old[oldPath[0]].([]any); ok {
		dst, _ := out[path[0]].([]any)
		if dst == nil {
			dst = make([]any, len(l))
			out[path[0]] = dst
		}
		i, _ := strconv.Atoi(path[1])
		dst[i] = v
		return
	}
	dst, _ := out[path[0]].(map[string]any)
	if dst == nil {
		dst = map[string]any{}
		out[path[0]] = dst
	}
	dst[path[1]] = v
}

func isResource(m map[string]any) bool {
	id, ok := m["$id"].(string)
	return ok && !strings.HasPrefix(id, "#")
}

// renameAnchorIn gives a reference the new name of the anchor it names.
func (u *upgrade) renameAnchorIn(ref string) string {
	base, frag, ok := strings.Cut(ref, "#")
	if n := u.anchors[frag]; ok && n != "" {
		return base + "#" + n
	}
	return ref
}

// retarget checks that every reference of the new document leads to the
// same schema as before, rewriting JSON Pointer fragments whose target
// moved; a reference that cannot is a Loss.
func (u *upgrade) retarget(root map[string]any) {
	r := schema.NewResolver(root)
	for _, ref := range u.refs {
		was := u.resolver.Resolve(ref.oldPtr, ref.oldRef)
		if was.Kind != schema.RefLocal || !was.Found {
			continue // it did not resolve before either
		}
		at := ref.oldPtr + "/" + pointer.Escape(ref.oldKw)
		want, ok := u.moved[was.Pointer]
		if !ok {
			u.lose(at, ref.oldKw, "%q points at %s, which the rewrite removed (the old dialect ignored it beside \"$ref\")", ref.oldRef, pointerLabel(was.Pointer))
			continue
		}
		cur, _ := ref.node[ref.newKw].(string)
		if now := r.Resolve(ref.newPtr, cur); now.Found && now.Pointer == want {
			continue
		}
		if fixed, ok := repoint(ref.oldRef, was.Pointer, want, u.moved); ok {
			if now := r.Resolve(ref.newPtr, fixed); now.Found && now.Pointer == want {
				ref.node[ref.newKw] = fixed
				continue
			}
		}
		u.lose(at, ref.oldKw, "%q no longer leads to the schema it pointed at (%s)", ref.oldRef, pointerLabel(was.Pointer))
	}
}

// repoint rewrites the JSON Pointer fragment of ref, which led to oldTarget,
// to lead to newTarget: the fragment is relative to the resource it names,
// whose root moved too.
func repoint(ref, oldTarget, newTarget string, moved map[string]string) (string, bool) {
	p, err := url.Parse(ref)
	if err != nil || !strings.HasPrefix(p.Fragment, "/") && p.Fragment != "" {
		return "", false
	}
	oldRes, ok := strings.CutSuffix(oldTarget, p.Fragment)
	if !ok {
		return "", false
	}
	newRes, ok := moved[oldRes]
	if !ok || !strings.HasPrefix(newTarget, newRes) {
		return "", false
	}
	p.Fragment, p.RawFragment = newTarget[len(newRes):], ""
	return p.String(), true
}

func pointerLabel(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}
