package manifest

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/goccy/go-yaml/ast"
	"github.com/mcpfit/mcplint/pointer"
)

// unwrap separates a value's properties (anchor, tag) from its content.
func unwrap(n ast.Node) (props []ast.Node, content ast.Node) {
	for {
		switch x := n.(type) {
		case *ast.AnchorNode:
			props = append(props, x)
			n = x.Value
		case *ast.TagNode:
			props = append(props, x)
			n = x.Value
		default:
			return props, n
		}
	}
}

// path is where a value is, spelled as a JSON Pointer only for a message:
// spelling it for every value, as the check goes down, took time in the
// square of the depth. nil is the document.
type path struct {
	parent *path
	token  string // escaped
}

func (p *path) String() string {
	if p == nil {
		return ""
	}
	return p.parent.String() + "/" + p.token
}

// check validates one document: keys are strings and unique, tags are ones
// JSON values can carry, scalars are JSON values, aliases name an anchor
// before them and not one they are inside, and merge keys merge mappings.
// anchors holds the anchors defined so far; open those being defined.
func (y *yamlDoc) check(n ast.Node, at *path, anchors map[string]*ast.AnchorNode, open map[*ast.AnchorNode]bool) error {
	props, content := unwrap(n)
	// An alias is resolved first: a tag on it is checked against its value.
	alias, isAlias := content.(*ast.AliasNode)
	if isAlias {
		name := aliasName(alias)
		a, ok := anchors[name]
		off := y.off(alias.Start)
		if !ok {
			return y.m.errorAt(off, "invalid YAML: alias *%s names no anchor defined before it", name)
		}
		if open[a] {
			return y.m.errorAt(off, "invalid YAML: alias *%s is inside the value it names: a manifest cannot be recursive", name)
		}
		y.alias[alias] = a
		y.uses[a] = append(y.uses[a], off)
	}
	tag := ""
	for _, p := range props {
		switch p := p.(type) {
		case *ast.AnchorNode:
			// The anchor names its value from here on; an alias inside the
			// value is refused as recursive.
			anchors[anchorName(p)] = p
			open[p] = true
			defer delete(open, p)
		case *ast.TagNode:
			t, err := y.checkTag(p, content)
			if err != nil {
				return err
			}
			if tag == "" {
				tag = t
			}
		}
	}
	if tag != "" {
		for _, p := range props {
			if a, ok := p.(*ast.AnchorNode); ok {
				y.anchorTag[a] = tag
			}
		}
	}
	if isAlias {
		return nil
	}
	switch c := content.(type) {
	case nil:
		return nil
	case *ast.MappingNode:
		if c.IsFlowStyle {
			if err := y.checkFlowValues(c.Values); err != nil {
				return err
			}
		}
		return y.checkMapping(c.Values, at, anchors, open)
	case *ast.MappingValueNode:
		if c.IsFlowStyle {
			if err := y.checkFlowValues([]*ast.MappingValueNode{c}); err != nil {
				return err
			}
		}
		return y.checkMapping([]*ast.MappingValueNode{c}, at, anchors, open)
	case *ast.SequenceNode:
		for i, v := range c.Values {
			if v == nil {
				continue
			}
			if err := y.check(v, &path{at, strconv.Itoa(i)}, anchors, open); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := y.scalar(content, tag)
	return err
}

func (y *yamlDoc) checkMapping(pairs []*ast.MappingValueNode, at *path, anchors map[string]*ast.AnchorNode, open map[*ast.AnchorNode]bool) error {
	seen := map[string]bool{}
	for _, mv := range pairs {
		if isMergeKey(mv.Key) {
			if o := strings.Trim(mv.Key.GetToken().Origin, " \t\r\n"); o != "<<" {
				// The parser takes a merge key out of a key that ends with "<<".
				return y.m.errorAt(y.off(mv.Key.GetToken()), "invalid YAML: %q is not a merge key; quote the key", o)
			}
			if err := y.check(mv.Value, &path{at, "<<"}, anchors, open); err != nil {
				return err
			}
			if err := y.checkMerge(mv); err != nil {
				return err
			}
			continue
		}
		key, err := y.key(mv.Key)
		if err != nil {
			return err
		}
		if seen[key] {
			msg := duplicateKey(YAML, key)
			if at != nil {
				msg += " (at " + truncatePointer(at.String()) + ")"
			}
			return y.m.errorAt(y.off(mv.Key.GetToken()), "invalid YAML: %s", msg)
		}
		seen[key] = true
		if seq, ok := mv.Value.(*ast.SequenceNode); ok && !seq.IsFlowStyle && len(seq.Values) > 0 {
			if y.column(y.dash(seq, 0)) == y.column(y.off(mv.Key.GetToken())) {
				y.indentless = true
			}
		}
		if mv.Value != nil {
			if err := y.check(mv.Value, &path{at, pointer.Escape(key)}, anchors, open); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFlowValues refuses a block mapping as a value in a flow mapping
// ({a: b: c}), which YAML does not allow and the parser takes as a nested
// mapping: an edit of the flow mapping beside it would then give text the
// parser refuses.
func (y *yamlDoc) checkFlowValues(pairs []*ast.MappingValueNode) error {
	for _, mv := range pairs {
		_, v := unwrap(mv.Value)
		var first *ast.MappingValueNode // where the mapping starts: its first key
		switch v := v.(type) {
		case *ast.MappingNode:
			if !v.IsFlowStyle && len(v.Values) > 0 {
				first = v.Values[0]
			}
		case *ast.MappingValueNode:
			if !v.IsFlowStyle {
				first = v
			}
		}
		if first != nil && first.Key != nil {
			return y.m.errorAt(y.off(first.Key.GetToken()), "invalid YAML: a mapping without braces inside a flow mapping {…}; write it as {key: value}")
		}
	}
	return nil
}

func isMergeKey(k ast.MapKeyNode) bool {
	return k != nil && k.IsMergeKey()
}

// checkMerge requires the value of a merge key to be a mapping or a
// sequence of mappings.
func (y *yamlDoc) checkMerge(mv *ast.MappingValueNode) error {
	ok := func(n ast.Node) bool {
		_, c := unwrap(y.resolve(n))
		switch c.(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			return true
		}
		return false
	}
	good := ok(mv.Value)
	if _, c := unwrap(y.resolve(mv.Value)); !good {
		if seq, isSeq := c.(*ast.SequenceNode); isSeq {
			good = true
			for _, v := range seq.Values {
				good = good && ok(v)
			}
		}
	}
	if !good {
		return y.m.errorAt(y.off(mv.Key.GetToken()), "invalid YAML: a merge key (<<) takes a mapping or a sequence of mappings")
	}
	return nil
}

// resolve follows an alias to the value its anchor names.
func (y *yamlDoc) resolve(n ast.Node) ast.Node {
	_, c := unwrap(n)
	if a, ok := c.(*ast.AliasNode); ok {
		if anc := y.alias[a]; anc != nil {
			return anc.Value
		}
	}
	return n
}

func anchorName(a *ast.AnchorNode) string {
	if a.Name == nil {
		return ""
	}
	return a.Name.GetToken().Value
}

func aliasName(a *ast.AliasNode) string {
	if a.Value == nil {
		return ""
	}
	return a.Value.GetToken().Value
}

// key decodes a mapping key, which must be a string.
func (y *yamlDoc) key(k ast.MapKeyNode) (string, error) {
	var n ast.Node = k
	if mk, ok := n.(*ast.MappingKeyNode); ok {
		n = mk.Value
	}
	off := y.off(k.GetToken())
	props, c := unwrap(y.resolve(n))
	tag := ""
	for _, p := range props {
		if tn, ok := p.(*ast.TagNode); ok {
			t, err := y.checkTag(tn, c)
			if err != nil {
				return "", err
			}
			tag = t
		}
	}
	switch c.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		return "", y.m.errorAt(off, "invalid YAML: a key is a %s: JSON object keys are strings", nodeKind(c))
	}
	if text, plain := yamlScalarText(c); plain && strings.ContainsAny(text, "\r\n") {
		// The parser takes stray lines for such keys; YAML has none.
		return "", y.m.errorAt(off, "invalid YAML: a plain key cannot span lines")
	}
	v, err := y.scalar(c, tag)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		text := ""
		if tk := c.GetToken(); tk != nil {
			text = tk.Value
		}
		if text == "" {
			return "", y.m.errorAt(off, "invalid YAML: a key is empty (null): JSON object keys are strings; quote it: \"\"")
		}
		return "", y.m.errorAt(off, "invalid YAML: key %s is %s, not a string: JSON object keys are strings; quote it: %s", text, aKind(valueKind(v)), strconv.Quote(text))
	}
	return s, nil
}

func nodeKind(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "mapping"
	case *ast.SequenceNode:
		return "sequence"
	}
	return "scalar"
}

// valueKind is the JSON kind of a decoded value.
func valueKind(v any) jsontext.Kind {
	switch x := v.(type) {
	case nil:
		return 'n'
	case bool:
		if x {
			return 't'
		}
		return 'f'
	case string:
		return '"'
	case json.Number:
		return '0'
	case []any:
		return '['
	case map[string]any:
		return '{'
	}
	return 0
}
