package manifest

import (
	"strconv"

	"github.com/goccy/go-yaml/ast"
	"github.com/mcpfit/mcplint/pointer"
)

// yamlIndexer builds one tool's index.
type yamlIndexer struct {
	y    *yamlDoc
	ix   *index
	info map[string]*ynode
}

// yamlIndex builds the tool's index from its AST, and beside it (in the
// tool's yamlTool) what editing needs to know of each value.
func (t *Tool) yamlIndex() *index {
	y := t.M.yaml
	yt := y.tools[t.Index]
	b := &yamlIndexer{y: y, ix: &index{nodes: map[string]*node{}}, info: map[string]*ynode{}}
	after := t.start
	if yt.dash >= 0 {
		after = yt.dash + 1
	}
	if yt.colon >= 0 {
		after = yt.colon
	}
	b.walk(yt.node, "", yt.key, yt.colon, yt.dash, yt.inFlow, after, nil, "")
	yt.info = b.info
	return b.ix
}

// walk indexes the value n at ptr: keyStart and colon for a member, dash
// for an element of a block sequence; after is where an empty value is;
// parent is the value holding it, at parentPtr (nil at the tool).
func (b *yamlIndexer) walk(n ast.Node, ptr string, keyStart, colon, dash int, inFlow bool, after int, parent *ynode, parentPtr string) *node {
	y := b.y
	props, c := unwrap(n)
	nd := &node{keyStart: keyStart, kind: 's'}
	info := &ynode{full: n, node: c, colon: colon, dash: dash, inFlow: inFlow}
	for _, p := range props {
		if a, ok := p.(*ast.AnchorNode); ok {
			info.anchor = a
		}
	}
	if parent != nil {
		info.braceless, info.hasBraceless = parent.braceless, parent.hasBraceless
		if parent.bracelessMapping() {
			info.braceless, info.hasBraceless = parentPtr, true
		}
		info.sharedAt, info.sharedBy = parent.sharedAt, parent.sharedBy
	}
	if info.anchor != nil && len(y.uses[info.anchor]) > 0 {
		info.sharedAt, info.sharedBy = ptr, info
	}
	switch cc := c.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		nd.kind = '{'
		ps := pairs(c)
		info.flow = isFlow(c)
		explicit := map[string]bool{}
		merges := false
		var lastEnd int
		for _, mv := range ps {
			if isMergeKey(mv.Key) {
				merges = true
				lastEnd = y.valueEnd(mv.Value, y.colonEnd(mv))
				continue
			}
			k, err := y.key(mv.Key)
			if err != nil {
				continue // refused when loading
			}
			explicit[k] = true
			cp := ptr + "/" + pointer.Escape(k)
			ce := y.colonEnd(mv)
			child := b.walk(mv.Value, cp, y.off(mv.Key.GetToken()), ce, -1, inFlow || info.flow, ce, info, ptr)
			lastEnd = child.end
			nd.children = append(nd.children, cp)
		}
		if info.flow || len(ps) == 0 {
			nd.start, nd.end = y.contentSpan(c, after)
		} else {
			nd.start, nd.end = y.off(ps[0].Key.GetToken()), lastEnd
		}
		if merges {
			if v, err := y.decode(n); err == nil {
				info.merged = map[string]bool{}
				for k := range v.(map[string]any) {
					if !explicit[k] {
						info.merged[k] = true
					}
				}
			}
		}
	case *ast.SequenceNode:
		nd.kind = '['
		info.flow = cc.IsFlowStyle
		var lastEnd int
		for i, v := range cc.Values {
			d, a := -1, after
			if !cc.IsFlowStyle {
				d = y.dash(cc, i)
				a = d + 1
			}
			child := b.walk(v, ptr+"/"+strconv.Itoa(i), -1, -1, d, inFlow || cc.IsFlowStyle, a, info, ptr)
			lastEnd = child.end
			nd.children = append(nd.children, ptr+"/"+strconv.Itoa(i))
		}
		if cc.IsFlowStyle || len(cc.Values) == 0 {
			nd.start, nd.end = y.contentSpan(c, after)
		} else {
			nd.start, nd.end = y.dash(cc, 0), lastEnd
		}
	default:
		nd.start, nd.end = y.contentSpan(c, y.propsEnd(props, after))
	}
	info.props = y.propsStart(props, nd.start)
	at := nd.start
	if keyStart >= 0 {
		at = keyStart
	}
	nd.indent = y.indent(at)
	b.ix.nodes[ptr] = nd
	b.info[ptr] = info
	return nd
}

func isFlow(c ast.Node) bool {
	switch c := c.(type) {
	case *ast.MappingNode:
		return c.IsFlowStyle
	case *ast.MappingValueNode:
		return c.IsFlowStyle
	case *ast.SequenceNode:
		return c.IsFlowStyle
	}
	return false
}
