package normalize

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// Dangling is a "required" list that names properties its schema never
// declares.
type Dangling struct {
	// Pointer locates the schema holding "required", relative to the root.
	Pointer string
	// Names are the undeclared names, in the order "required" lists them.
	Names []string
	// Unsatisfiable is set when the same schema forbids undeclared
	// properties ("additionalProperties" or "unevaluatedProperties" false):
	// no value satisfies it.
	Unsatisfiable bool
}

// DanglingRequired finds, in every subschema of root, the names "required"
// lists that no schema in play declares. A name counts as declared when it
// is a key of "properties", matches a "patternProperties" pattern, or the
// schema gives every other property a schema of its own
// ("additionalProperties" or "unevaluatedProperties" as an object), in:
//   - the schema holding "required";
//   - the schemas it combines with: its allOf, anyOf and oneOf branches,
//     if/then/else, dependentSchemas, and the targets of its "$ref", all the
//     way down;
//   - the schemas it is combined into: when it is itself such a branch (or
//     a "not"), its parent and the parent's other branches, all the way up,
//     and when it is a definition, every schema that references it.
//
// So {"anyOf": [{"required": ["a"]}, {"required": ["b"]}]} beside
// "properties" declaring a and b is fine, and so is a mixin definition of
// required names used through allOf and "$ref". A reference that does not
// resolve, and a pattern Go's regexp cannot compile, count as declaring
// everything: the finder stays quiet rather than guess.
func DanglingRequired(root any) []Dangling {
	var g *graph // built for the first "required": most schemas need none
	var out []Dangling
	schema.Walk(root, "", func(n *schema.Node) bool {
		s := n.Value
		req, ok := s["required"].([]any)
		if !ok || len(req) == 0 {
			return true
		}
		if g == nil {
			g = newGraph(root)
		}
		var decl *declared
		seen := map[string]bool{}
		var names []string
		for _, r := range req {
			name, ok := r.(string)
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			if decl == nil {
				decl = g.declaredFor(n.Pointer())
			}
			if !decl.has(name) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			out = append(out, Dangling{Pointer: n.Pointer(), Names: names, Unsatisfiable: isFalse(s["additionalProperties"]) || isFalse(s["unevaluatedProperties"])})
		}
		return true
	})
	return out
}

// DropDanglingRequired returns root without the names DanglingRequired
// finds; a "required" left empty is removed. This changes the contract: a
// property that had to be present becomes optional.
func DropDanglingRequired(root any) any {
	out := schema.Clone(root)
	for _, d := range DanglingRequired(root) {
		v, _ := schema.Get(out, d.Pointer)
		s, ok := v.(map[string]any)
		if !ok {
			continue
		}
		drop := map[string]bool{}
		for _, n := range d.Names {
			drop[n] = true
		}
		var kept []any
		for _, r := range s["required"].([]any) {
			if name, ok := r.(string); !ok || !drop[name] {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			delete(s, "required")
		} else {
			s["required"] = kept
		}
	}
	return out
}

func isFalse(v any) bool {
	b, ok := v.(bool)
	return ok && !b
}

// declared is what a group of schemas declares.
type declared struct {
	names    map[string]bool
	patterns []*regexp.Regexp
	all      bool
}

func (d *declared) has(name string) bool {
	if d.all || d.names[name] {
		return true
	}
	for _, p := range d.patterns {
		if p.MatchString(name) {
			return true
		}
	}
	return false
}

// graph indexes the subschemas of one document by pointer, with who
// references whom.
type graph struct {
	root      any
	resolver  *schema.Resolver // built on the first $ref
	nodes     map[string]map[string]any
	at        map[uintptr]string  // identity of a schema object -> its pointer
	referrers map[string][]string // target pointer -> pointers of schemas whose $ref names it
	// declaredAt keeps what declaredFor found, by pointer.
	declaredAt map[string]*declared
}

func newGraph(root any) *graph {
	g := &graph{root: root, nodes: map[string]map[string]any{}, at: map[uintptr]string{}, referrers: map[string][]string{}}
	schema.Walk(root, "", func(n *schema.Node) bool {
		ptr := n.Pointer()
		g.nodes[ptr] = n.Value
		g.at[schema.Identity(n.Value)] = ptr
		return true
	})
	for ptr, s := range g.nodes {
		if t, ok := g.target(s); ok {
			if tp, ok := g.pointerOf(t); ok {
				g.referrers[tp] = append(g.referrers[tp], ptr)
			}
		}
	}
	return g
}

// target resolves the $ref of s, when it has one that resolves to a schema
// object.
func (g *graph) target(s map[string]any) (map[string]any, bool) {
	ref, ok := s["$ref"].(string)
	if !ok {
		return nil, false
	}
	// One resolver for the document: schema.Resolve would index it anew
	// for every reference.
	if g.resolver == nil {
		g.resolver = schema.NewResolver(g.root)
	}
	r := g.resolver.Resolve("", ref)
	if !r.Found {
		return nil, false
	}
	m, ok := r.Target.(map[string]any)
	return m, ok
}

// combinators hold the schemas that apply to the same instance as their
// parent.
var (
	combinatorLists  = []string{"allOf", "anyOf", "oneOf"}
	combinatorSingle = []string{"if", "then", "else"}
	combinatorMaps   = []string{"dependentSchemas", "dependencies"}
)

func (g *graph) declaredFor(ptr string) *declared {
	if d, ok := g.declaredAt[ptr]; ok {
		return d
	}
	var d *declared
	// A branch that nothing refers to declares what its parent's group
	// does: the parent's group reaches it going down. Shared, the group
	// of thousands of sibling branches is found once, not once each.
	if p, ok := g.combinedInto(ptr); ok && len(g.referrers[ptr]) == 0 && reachedDown(p, ptr) {
		d = g.declaredFor(p)
	} else {
		d = &declared{names: map[string]bool{}}
		g.group(ptr, d, map[string]bool{}, map[string]bool{})
	}
	if g.declaredAt == nil {
		g.declaredAt = map[string]*declared{}
	}
	g.declaredAt[ptr] = d
	return d
}

// reachedDown reports whether down, from the schema at p, goes to its
// child at ptr: a branch of a combinator, if/then/else, or a dependent
// schema, not a "not".
func reachedDown(p, ptr string) bool {
	rel := pointer.Split(ptr[len(p):])
	switch {
	case len(rel) == 1:
		return slices.Contains(combinatorSingle, rel[0])
	case len(rel) == 2:
		return slices.Contains(combinatorLists, rel[0]) || slices.Contains(combinatorMaps, rel[0])
	}
	return false
}

// group adds what the schema at ptr declares, with everything it combines
// with and everything it is combined into.
func (g *graph) group(ptr string, d *declared, seenUp, seenDown map[string]bool) {
	if seenUp[ptr] || d.all {
		return
	}
	seenUp[ptr] = true
	g.down(ptr, d, seenDown)
	if p, ok := g.combinedInto(ptr); ok {
		g.group(p, d, seenUp, seenDown)
	}
	for _, r := range g.referrers[ptr] {
		g.group(r, d, seenUp, seenDown)
	}
}

// down adds what the schema at ptr and the schemas it combines with declare.
func (g *graph) down(ptr string, d *declared, seen map[string]bool) {
	s, ok := g.nodes[ptr]
	if !ok || seen[ptr] || d.all {
		return
	}
	seen[ptr] = true
	if props, ok := s["properties"].(map[string]any); ok {
		for n := range props {
			d.names[n] = true
		}
	}
	if pats, ok := s["patternProperties"].(map[string]any); ok {
		for p := range pats {
			re, err := regexp.Compile(p)
			if err != nil {
				d.all = true
				return
			}
			d.patterns = append(d.patterns, re)
		}
	}
	for _, k := range []string{"additionalProperties", "unevaluatedProperties"} {
		if _, ok := s[k].(map[string]any); ok {
			d.all = true
			return
		}
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if _, ok := s[k]; ok {
			d.all = true
			return
		}
	}
	if _, ok := s["$ref"]; ok {
		t, ok := g.target(s)
		if !ok {
			d.all = true
			return
		}
		tp, ok := g.pointerOf(t)
		if !ok {
			d.all = true
			return
		}
		g.down(tp, d, seen)
	}
	for _, k := range combinatorLists {
		if l, ok := s[k].([]any); ok {
			for i := range l {
				g.down(ptr+"/"+k+"/"+strconv.Itoa(i), d, seen)
			}
		}
	}
	for _, k := range combinatorSingle {
		g.down(ptr+"/"+k, d, seen)
	}
	for _, k := range combinatorMaps {
		if m, ok := s[k].(map[string]any); ok {
			for n := range m {
				g.down(ptr+"/"+k+"/"+pointer.Escape(n), d, seen)
			}
		}
	}
}

func (g *graph) pointerOf(s map[string]any) (string, bool) {
	p, ok := g.at[schema.Identity(s)]
	return p, ok
}

// combinedInto returns the parent of a schema that is a combinator branch
// (or a "not") of it: one that applies to the same instance.
func (g *graph) combinedInto(ptr string) (string, bool) {
	toks := pointer.Split(ptr)
	n := len(toks)
	parentOf := func(drop int, kw string) (string, bool) {
		p := pointer.Join(toks[:n-drop])
		parent, ok := g.nodes[p]
		if !ok {
			return "", false
		}
		_, has := parent[kw]
		return p, has
	}
	if n >= 1 {
		switch toks[n-1] {
		case "not", "if", "then", "else":
			if p, ok := parentOf(1, toks[n-1]); ok {
				return p, true
			}
		}
	}
	if n >= 2 {
		switch toks[n-2] {
		case "allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies":
			return parentOf(2, toks[n-2])
		}
	}
	return "", false
}
