package normalize

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// annotations are the keywords that never affect validation. Beside a root
// "$ref" in draft-07 they were ignored, and after inlining they apply, which
// changes what a reader sees but not what validates.
var annotations = map[string]bool{
	"title": true, "description": true, "$comment": true, "examples": true,
	"default": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// rootOnly are the keywords that belong to the document, not to the schema
// the root "$ref" names; they stay where they are.
var rootOnly = map[string]bool{"$schema": true, "$id": true, "id": true, "$comment": true}

// InlineRootRef replaces a root that is a "$ref" to one of the document's own
// definitions ("#/definitions/NAME" or "#/$defs/NAME") by that definition,
// as zod-to-json-schema (called with a name) and github.com/invopop/jsonschema
// emit it. The result validates exactly what the input validated:
//
//   - References into the inlined definition ("#/definitions/NAME/...")
//     are rewritten to point at the root ("#/..."), so recursive schemas keep
//     working; the definition itself is then dropped. Other definitions stay,
//     whether referenced or not.
//   - Keywords beside "$ref" that the dialect ignores (draft-07 and older)
//     give way to the definition's; annotations the definition lacks are kept.
//     A validation keyword that would start to apply is an error, as is, in
//     2019-09 and later, a keyword beside "$ref" that the definition sets to
//     another value: a merge would change what the schema accepts.
//   - A definition with its own "$id", "$dynamicAnchor" or "$recursiveAnchor"
//     changes how references resolve inside it and is not inlined.
//
// A root without "$ref" is returned unchanged (as a copy).
func InlineRootRef(s any) (any, error) {
	m, ok := s.(map[string]any)
	if !ok {
		return schema.Clone(s), nil
	}
	raw, ok := m["$ref"]
	if !ok {
		return schema.Clone(m), nil
	}
	ref, ok := raw.(string)
	if !ok {
		return nil, fmt.Errorf("root \"$ref\" is a %s, not a string", schema.Kind(raw))
	}
	container, name, ok := definitionRef(ref)
	if !ok {
		return nil, fmt.Errorf("root \"$ref\" %q does not name an entry of \"$defs\" or \"definitions\"", ref)
	}
	defs, _ := m[container].(map[string]any)
	target, ok := defs[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("root \"$ref\" %q points to no schema object", ref)
	}
	for _, k := range []string{"$id", "id", "$dynamicAnchor", "$recursiveAnchor"} {
		if _, ok := target[k]; ok {
			return nil, fmt.Errorf("%q has its own %q; inline it by hand", ref, k)
		}
	}
	d, _ := schema.Dialect(m)
	ignored := schema.RefSiblingsIgnored(d)

	out := map[string]any{}
	for k, v := range m {
		if k == "$ref" || k == container {
			continue
		}
		tv, inTarget := target[k]
		switch {
		case rootOnly[k] || k == "$defs" || k == "definitions":
			// The document's other container of definitions stays; the
			// definition's own, if any, are merged into it below.
		case inTarget && reflect.DeepEqual(v, tv):
		case inTarget && !ignored:
			return nil, fmt.Errorf("%q beside the root \"$ref\" differs from the %q of %s; merge them by hand", k, k, ref)
		case inTarget:
			continue // ignored beside $ref; the definition's value is taken below
		case ignored && !annotations[k]:
			return nil, fmt.Errorf("%q beside the root \"$ref\" is ignored in %s and would apply once inlined; remove or move it by hand", k, d)
		}
		out[k] = schema.Clone(v)
	}
	rest := map[string]any{}
	for n, v := range defs {
		if n != name {
			rest[n] = schema.Clone(v)
		}
	}
	for k, v := range target {
		if k == "$schema" {
			if rv, ok := m["$schema"]; ok && !reflect.DeepEqual(rv, v) {
				return nil, fmt.Errorf("%s declares another \"$schema\" than the document", ref)
			}
			continue
		}
		if k == "definitions" || k == "$defs" {
			if err := mergeDefs(out, rest, container, k, v); err != nil {
				return nil, fmt.Errorf("inline %s: %w", ref, err)
			}
			continue
		}
		out[k] = schema.Clone(v)
	}
	if len(rest) > 0 {
		out[container] = rest
	}
	if err := retarget(m, out, container, name); err != nil {
		return nil, fmt.Errorf("inline %s: %w", ref, err)
	}
	return out, nil
}

// mergeDefs moves the inlined definition's own definitions (keyword k) to
// the root. They were reachable as "#/C/NAME/k/X", which retarget rewrites
// to "#/k/X", so they must land under the root's k.
func mergeDefs(out, rest map[string]any, container, k string, v any) error {
	inner, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("its %q is not an object", k)
	}
	dst := rest
	if k != container {
		existing, _ := out[k].(map[string]any)
		dst = schema.Clone(existing).(map[string]any)
		if existing == nil {
			dst = map[string]any{}
		}
		out[k] = dst
	}
	for n, s := range inner {
		if _, clash := dst[n]; clash {
			return fmt.Errorf("its definition %q clashes with the document's", n)
		}
		dst[n] = schema.Clone(s)
	}
	return nil
}

// definitionRef splits "#/$defs/NAME" or "#/definitions/NAME" (JSON Pointer
// fragment, possibly percent-encoded).
func definitionRef(ref string) (container, name string, ok bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", "", false
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	toks := pointer.Split(frag)
	if !strings.HasPrefix(frag, "/") || len(toks) != 2 || toks[0] != "$defs" && toks[0] != "definitions" {
		return "", "", false
	}
	return toks[0], toks[1], true
}

// retarget rewrites, in the inlined document out, every reference into the
// definition container/name so that it points at the root, and checks that
// every local reference that resolved in the original document still does.
func retarget(orig, out map[string]any, container, name string) error {
	before := map[string]string{} // pointer in out -> reference as written
	schema.Walk(out, "", func(n *schema.Node) bool {
		s := n.Value
		if r, ok := s["$ref"].(string); ok {
			before[n.Pointer()] = r
			if nr, changed := rebase(r, container, name); changed {
				s["$ref"] = nr
			}
		}
		return true
	})
	var err error
	schema.Walk(out, "", func(n *schema.Node) bool {
		r, ok := n.Value["$ref"].(string)
		if !ok || err != nil {
			return err == nil
		}
		if _, ok := schema.Resolve(out, r); ok {
			return true
		}
		// A reference that did not resolve before either (a remote one, or
		// one already dangling) is not this transform's business.
		if _, ok := schema.Resolve(orig, before[n.Pointer()]); ok {
			err = fmt.Errorf("reference %q would no longer resolve", before[n.Pointer()])
		}
		return true
	})
	return err
}

// rebase maps "#/C/NAME/rest" to "#/rest".
func rebase(ref, container, name string) (string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return ref, false
	}
	for _, encoded := range []bool{false, true} {
		f := frag
		if encoded {
			u, err := url.PathUnescape(frag)
			if err != nil || u == frag {
				continue
			}
			f = u
		}
		prefix := "/" + pointer.Escape(container) + "/" + pointer.Escape(name)
		if f == prefix {
			return "#", true
		}
		if rest, ok := strings.CutPrefix(f, prefix+"/"); ok {
			if encoded {
				return "#" + (&url.URL{Fragment: "/" + rest}).EscapedFragment(), true
			}
			return "#/" + rest, true
		}
	}
	return ref, false
}

// InlinePointerRefs replaces every "$ref" that points into the schema
// somewhere other than its definitions ("#/properties/a", the way
// zod-to-json-schema refers to a schema it met before) by a copy of its
// target, so that transforms may move or rewrite the target's place
// without leaving the reference dangling. Only a "$ref" standing alone
// (annotations aside) is inlined, and only when its target holds no
// "$ref" of its own, which keeps the result exact and finite; the others
// are left as they are. It spends a budget of DefaultRefExpansion of its
// own; see InlinePointerRefsWithin.
func InlinePointerRefs(s any) any {
	out, _ := InlinePointerRefsWithin(s, nil)
	return out
}

// InlinePointerRefsWithin is InlinePointerRefs spending b (nil: a budget
// of DefaultRefExpansion for this call): a large target referenced many
// times would otherwise be copied as many times. A reference past the
// budget is left as it is, with a Loss that says so (BudgetExceeded).
func InlinePointerRefsWithin(s any, b *Budget) (any, []Loss) {
	if b == nil {
		b = NewBudget(0)
	}
	out := schema.Clone(s)
	var losses []Loss
	// What each target is found to be, once per target: a target
	// referenced a thousand times was walked a thousand times.
	type target struct {
		m    map[string]any
		cost int64
		ok   bool
	}
	targets := map[string]target{}
	schema.Walk(out, "", func(node *schema.Node) bool {
		n := node.Value
		ref, ok := n["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#/") || len(losses) > 0 {
			return len(losses) == 0
		}
		if _, _, def := definitionRef(ref); def || strings.HasPrefix(ref, "#/$defs/") || strings.HasPrefix(ref, "#/definitions/") {
			return true
		}
		for k := range n {
			if k != "$ref" && !annotations[k] {
				return true
			}
		}
		t, seen := targets[ref]
		if !seen {
			v, found := schema.Resolve(s, ref)
			t.m, t.ok = v.(map[string]any)
			t.ok = t.ok && found && !hasRef(t.m)
			if t.ok {
				t.cost = jsonSize(t.m) + expansionOverhead
			}
			targets[ref] = t
		}
		if !t.ok {
			return true
		}
		if !b.spend(t.cost) {
			losses = append(losses, budgetLoss(node.Pointer(), ref, b))
			return false
		}
		delete(n, "$ref")
		for k, v := range schema.Clone(t.m).(map[string]any) {
			if _, own := n[k]; !own {
				n[k] = v
			}
		}
		return true
	})
	return out, losses
}

func hasRef(s any) bool {
	found := false
	schema.Walk(s, "", func(node *schema.Node) bool {
		n := node.Value
		_, r := n["$ref"]
		found = found || r
		return !found
	})
	return found
}
