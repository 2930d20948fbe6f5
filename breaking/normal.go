package breaking

import (
	"regexp"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// maxRefHops bounds the $ref chain followed at one node; a longer one is a
// loop.
const maxRefHops = 32

// doc is one schema document (a tool's inputSchema or outputSchema) with the
// resolver of its local references.
type doc struct {
	tool *manifest.Tool
	root any
	// ptr is the document's pointer relative to the tool ("/inputSchema").
	ptr string
	res *schema.Resolver
}

func newDoc(t *manifest.Tool, root any, ptr string) *doc {
	return &doc{tool: t, root: root, ptr: ptr, res: schema.NewResolver(root)}
}

// node is one subschema as compared: its keywords after following $ref and
// undoing the numeric-string rewrite, with where each keyword is written.
type node struct {
	d *doc
	m map[string]any
	// ptr is the subschema's pointer relative to the tool.
	ptr string
	// at maps a keyword to its pointer when it is not ptr + "/" + keyword
	// (it came from a $ref target or from a oneOf branch).
	at map[string]string
	// key identifies the subschema for loop detection: the pointer of the
	// schema that was reached, after references.
	key string
}

// kw returns the pointer of keyword k of n.
func (n *node) kw(k string) string {
	if p, ok := n.at[k]; ok {
		return p
	}
	return n.ptr + "/" + pointer.Escape(k)
}

// resolve builds the node of the subschema v found at tool-relative pointer
// ptr of document d.
func (d *doc) resolve(v any, ptr string) *node {
	n := &node{d: d, ptr: ptr, key: ptr, at: map[string]string{}}
	switch s := v.(type) {
	case map[string]any:
		n.m = s
	case bool:
		if s {
			n.m = map[string]any{}
		} else {
			n.m = map[string]any{"not": map[string]any{}}
		}
		return n
	default:
		n.m = map[string]any{}
		return n
	}
	for hop := 0; hop < maxRefHops; hop++ {
		ref, ok := n.m["$ref"].(string)
		if !ok {
			break
		}
		r := d.res.Resolve(n.relPtr(n.kw("$ref")), ref)
		target, isMap := r.Target.(map[string]any)
		if !r.Found || !isMap {
			break
		}
		tptr := d.ptr + r.Pointer
		merged := map[string]any{}
		at := map[string]string{}
		for k, tv := range target {
			merged[k] = tv
			at[k] = tptr + "/" + pointer.Escape(k)
		}
		// The referring schema's own keywords apply beside the target's;
		// where both say something (a description, mostly), the referring
		// one is what the author wrote last.
		for k, sv := range n.m {
			if k == "$ref" {
				continue
			}
			merged[k] = sv
			at[k] = n.kw(k)
		}
		n.m, n.at, n.key = merged, at, tptr
	}
	n.collapseNumeric()
	return n
}

// relPtr turns a tool-relative pointer into one relative to the document,
// the form the resolver knows bases by.
func (n *node) relPtr(p string) string {
	p = p[:len(p)-len("/$ref")]
	if len(p) >= len(n.d.ptr) {
		return p[len(n.d.ptr):]
	}
	return ""
}

// collapseNumeric undoes the rewrite that lets a numeric parameter accept
// its decimal string: oneOf/anyOf [a numeric schema, a string schema with a
// pattern] reads as the numeric schema. Clients send numbers as before and
// the server accepts the same values.
func (n *node) collapseNumeric() {
	for _, comb := range []string{"oneOf", "anyOf"} {
		branches, ok := n.m[comb].([]any)
		if !ok || len(branches) != 2 || n.m["type"] != nil {
			continue
		}
		num, str := -1, -1
		for i, b := range branches {
			switch {
			case normalize.RejectsNumericStrings(b):
				num = i
			case numericStringBranch(b):
				str = i
			}
		}
		if num < 0 || str < 0 {
			continue
		}
		out := map[string]any{}
		at := map[string]string{}
		for k, v := range n.m {
			if k != comb {
				out[k] = v
				if p, ok := n.at[k]; ok {
					at[k] = p
				}
			}
		}
		base := n.kw(comb) + "/" + itoa(num)
		for k, v := range branches[num].(map[string]any) {
			if _, ok := out[k]; ok && isAnnotation(k) {
				continue
			}
			out[k] = v
			at[k] = base + "/" + pointer.Escape(k)
		}
		n.m, n.at = out, at
		return
	}
}

// numericStringBranch reports whether b is {"type": "string", "pattern": P}
// (annotations aside) with a P that accepts digits and refuses letters: the
// string form of a number.
func numericStringBranch(b any) bool {
	m, ok := b.(map[string]any)
	if !ok || m["type"] != "string" {
		return false
	}
	p, ok := m["pattern"].(string)
	if !ok {
		return false
	}
	for k := range m {
		if k != "type" && k != "pattern" && !isAnnotation(k) {
			return false
		}
	}
	re, err := regexp.Compile(p)
	return err == nil && re.MatchString("1") && !re.MatchString("abc")
}

// annotations say something about a value without constraining it.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "example": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
	"$id": true, "$schema": true, "$anchor": true, "$dynamicAnchor": true, "$defs": true, "definitions": true,
}

func isAnnotation(k string) bool { return annotations[k] || len(k) > 2 && k[:2] == "x-" }

// canonical returns v with local references inlined, the numeric-string
// rewrite undone and annotations dropped, for comparing two schemas as
// values. A reference met again inside itself is left as written.
func (d *doc) canonical(v any, ptr string, seen map[string]bool) any {
	if seen == nil {
		seen = map[string]bool{}
	}
	if _, isMap := v.(map[string]any); !isMap {
		return v
	}
	n := d.resolve(v, ptr)
	if seen[n.key] {
		return map[string]any{"$ref": n.key}
	}
	seen[n.key] = true
	defer delete(seen, n.key)
	out := map[string]any{}
	for k, kv := range n.m {
		if isAnnotation(k) {
			continue
		}
		out[k] = d.canonicalMember(k, kv, n.kw(k), seen)
	}
	return out
}

// canonicalMember canonicalises the schemas a keyword holds.
func (d *doc) canonicalMember(k string, v any, ptr string, seen map[string]bool) any {
	switch k {
	case "enum", "const", "required", "type", "pattern", "format", "dependentRequired":
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		if schemaMapKeywords[k] {
			out := map[string]any{}
			for name, sub := range t {
				out[name] = d.canonical(sub, ptr+"/"+pointer.Escape(name), seen)
			}
			return out
		}
		return d.canonical(t, ptr, seen)
	case []any:
		out := make([]any, len(t))
		for i, sub := range t {
			out[i] = d.canonical(sub, ptr+"/"+itoa(i), seen)
		}
		return out
	}
	return v
}

// schemaMapKeywords hold a map from names to schemas.
var schemaMapKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "dependentSchemas": true, "dependencies": true,
}
