package manifest

import (
	"encoding/json"
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// yamlShapes reads a YAML document for shape recognition.
type yamlShapes struct{ y *yamlDoc }

// member describes the value n (with its properties) as shape recognition
// sees it. after is where an empty value is taken to be.
func (y *yamlDoc) member(n ast.Node, after int) member {
	props, content := unwrap(n)
	start, end := y.contentSpan(content, y.propsEnd(props, after))
	mb := member{start: start, end: end, ref: n}
	_, c := unwrap(y.resolve(content))
	switch c.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		mb.kind = '{'
	case *ast.SequenceNode:
		mb.kind = '['
	default:
		v, err := y.scalar(c, tagOf(y.resolve(n)))
		if err != nil {
			mb.kind = 'n'
			break
		}
		mb.kind = valueKind(v)
		if s, ok := v.(string); ok {
			mb.str = s
		}
	}
	return mb
}

// pairs lists the key/value pairs of a mapping node (with properties).
func pairs(n ast.Node) []*ast.MappingValueNode {
	_, c := unwrap(n)
	switch c := c.(type) {
	case *ast.MappingNode:
		return c.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{c}
	}
	return nil
}

// colonEnd is the offset just after a pair's ':'.
func (y *yamlDoc) colonEnd(mv *ast.MappingValueNode) int {
	if mv.Start != nil && mv.Start.Type == token.MappingValueType {
		return y.off(mv.Start) + 1
	}
	// A key without ':' ({a}): its value would be after the key.
	var k ast.Node = mv.Key
	after := y.off(k.GetToken())
	if mk, ok := k.(*ast.MappingKeyNode); ok {
		k, after = mk.Value, after+1
	}
	return y.valueEnd(k, after)
}

// members lists the explicit members of a mapping (merge keys are not
// followed here: the tools of a document are written out in it).
func (r yamlShapes) members(v member) (map[string]member, error) {
	mem := map[string]member{}
	for _, mv := range pairs(v.ref.(ast.Node)) {
		if isMergeKey(mv.Key) {
			continue
		}
		k, err := r.y.key(mv.Key)
		if err != nil {
			return nil, err
		}
		mem[k] = r.y.member(mv.Value, r.y.colonEnd(mv))
	}
	return mem, nil
}

func (r yamlShapes) tools(l *toolList, v member, ptr string) error {
	y := r.y
	n, err := y.written(v, "the tools are")
	if err != nil {
		return err
	}
	_, c := unwrap(n)
	if _, ok := c.(*ast.AliasNode); ok {
		return y.m.errorAt(v.start, "the tools are an alias: write them out in place, where fixes can edit them")
	}
	seq, ok := c.(*ast.SequenceNode)
	if !ok {
		return y.m.errorAt(v.start, "the tools are not written as a sequence")
	}
	for i, tn := range seq.Values {
		dash := -1
		if !seq.IsFlowStyle {
			dash = y.dash(seq, i)
		}
		after := dash + 1
		if dash < 0 {
			after = v.start
		}
		var tm member
		if tn == nil {
			tm = member{start: after, end: after, kind: 'n'}
		} else {
			tm = y.member(tn, after)
		}
		if _, tc := unwrap(tn); tc != nil {
			if _, ok := tc.(*ast.AliasNode); ok {
				return y.m.errorAt(tm.start, "tool %d is an alias: write it out in place, where fixes can edit it", i)
			}
		}
		if tm.kind != '{' {
			return y.m.errorAt(tm.start, "tool %d is %s, not an object", i, aKind(tm.kind))
		}
		mem, err := r.toolMembers(tm)
		if err != nil {
			return err
		}
		if err := l.entry(fmt.Sprintf("%s/%d", ptr, i), tm, mem, slot{dash: dash, inFlow: seq.IsFlowStyle}); err != nil {
			return err
		}
	}
	return nil
}

func (r yamlShapes) tool(doc int, v member, _ map[string]member) (*Tool, error) {
	mem, err := r.toolMembers(v)
	if err != nil {
		return nil, err
	}
	return r.place(doc, "", v, mem, slot{dash: -1})
}

// written is the node of v, refusing a value that a merge key (<<) brings
// in: what is located must be written where fixes can edit it.
func (y *yamlDoc) written(v member, what string) (ast.Node, error) {
	n, ok := v.ref.(ast.Node)
	if !ok || n == nil {
		return nil, y.m.errorAt(v.start, "%s merged in with \"<<\": write them out in place, where fixes can edit them", what)
	}
	return n, nil
}

// toolMembers lists a tool's members, including those merge keys bring in,
// so that a name or schema from a merged mapping counts.
func (r yamlShapes) toolMembers(v member) (map[string]member, error) {
	y := r.y
	n, err := y.written(v, "the tool's members are")
	if err != nil {
		return nil, err
	}
	mem, err := r.members(v)
	if err != nil {
		return nil, err
	}
	if hasMerge(n) {
		val, err := y.decode(n)
		if err != nil {
			return nil, err
		}
		for k, x := range val.(map[string]any) {
			if _, ok := mem[k]; !ok {
				mb := member{start: v.start, end: v.end, kind: valueKind(x)}
				if s, ok := x.(string); ok {
					mb.str = s
				}
				mem[k] = mb
			}
		}
	}
	return mem, nil
}

// place locates one tool.
func (r yamlShapes) place(doc int, ptr string, v member, mem map[string]member, s slot) (*Tool, error) {
	y := r.y
	n, err := y.written(v, "the tool's members are")
	if err != nil {
		return nil, err
	}
	if _, c := unwrap(n); c != nil {
		if _, ok := c.(*ast.AliasNode); ok {
			return nil, y.m.errorAt(v.start, "the tool at %s is an alias: write it out in place, where fixes can edit it", ptr)
		}
	}
	t := y.m.newTool(doc, ptr, v.start, v.end, mem)
	yt := &yamlTool{node: n, dash: s.dash, inFlow: s.inFlow, key: -1, colon: -1}
	if s.keyed {
		yt.key, yt.colon = s.key, s.colon
	}
	y.tools = append(y.tools, yt)
	return t, nil
}

// inner is the slot of a tool that is the member key of the entry v: never
// after a dash, in a flow collection when the entry is one or is in one, and
// after its key, which a replacement of the whole tool writes after.
func (r yamlShapes) inner(v member, key string, s slot) slot {
	n, _ := v.ref.(ast.Node)
	_, c := unwrap(n)
	in := slot{dash: -1, inFlow: s.inFlow || isFlow(c)}
	for _, mv := range pairs(n) {
		if k, err := r.y.key(mv.Key); err == nil && k == key && !isMergeKey(mv.Key) {
			in.keyed, in.key, in.colon = true, r.y.off(mv.Key.GetToken()), r.y.colonEnd(mv)
		}
	}
	return in
}

func hasMerge(n ast.Node) bool {
	for _, mv := range pairs(n) {
		if isMergeKey(mv.Key) {
			return true
		}
	}
	return false
}

func (r yamlShapes) quoted(v member) string {
	val, err := r.y.decode(v.ref.(ast.Node))
	if err != nil {
		return "(unreadable)"
	}
	b, err := json.Marshal(val)
	if err != nil {
		return "(unreadable)"
	}
	return oneLine(b)
}
