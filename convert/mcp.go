package convert

import (
	"maps"
	"slices"
)

// ToMCP writes the tools as an MCP tools/list result, {"tools": [...]}
// (MCP specification 2025-11-25, server/tools, "Listing Tools"). Every
// member is kept; the only change is MCP's own requirement that an input
// schema's root be "type": "object" (see objectRoots). Members of a tool
// read from another format (Tool.Extra) are dropped with a warning. What
// the MCP schema or the TypeScript SDK still refuses (a source tool that
// breaks them) is a refused Warning.
func ToMCP(tools []Tool) ([]byte, []Warning, error) {
	source := tools
	tools, err := objectRoots(tools)
	if err != nil {
		return nil, nil, err
	}
	warns := dropped(tools, "MCP")
	list := make([]object, len(tools))
	for i, t := range tools {
		list[i] = mcpTool(t)
	}
	out, err := encode(object{}.add("tools", list))
	if err != nil {
		return nil, nil, err
	}
	return checked(out, warns, source, Consumers("mcp", Options{}), nil)
}

// mcpTool is a tool as a tools/list result lists it: every member kept,
// the name, title, description and schemas first.
func mcpTool(t Tool) object {
	o := object{}.add("name", t.Name)
	if t.Title != "" {
		o = o.add("title", t.Title)
	}
	o = withDescription(o, t.Description)
	o = o.add("inputSchema", t.withOrder(t.InputSchema))
	if t.OutputSchema != nil {
		o = o.add("outputSchema", t.withOrder(t.OutputSchema))
	}
	if t.Annotations != nil {
		o = o.add("annotations", t.Annotations)
	}
	for _, k := range slices.Sorted(maps.Keys(t.Other)) {
		o = o.add(k, t.Other[k])
	}
	return o
}
