package convert

import "fmt"

// Tool is a tool in MCP's terms, the form every conversion passes through.
// Schemas are decoded JSON values (map[string]any, []any, json.Number,
// string, bool, nil), as package manifest decodes them.
type Tool struct {
	Name        string
	Title       string
	Description string
	InputSchema map[string]any
	// OutputSchema is nil when the tool has none.
	OutputSchema map[string]any
	Annotations  map[string]any
	// Other holds the tool's other members (_meta, icons, execution, and
	// whatever later revisions of MCP add), kept for --to mcp; other
	// targets warn that they drop them.
	Other map[string]any
	// Extra holds the members of a tool read from another format (OpenAI's
	// "strict", Anthropic's "cache_control", …) that MCP has no place for;
	// every conversion warns that it drops them.
	Extra map[string]any
	// Order gives, for member names, where they first appear in the
	// source (FromManifest fills it); the members of "properties" and
	// other maps of names are written in that order. Names it lacks follow,
	// sorted.
	Order map[string]int
	// Index is the tool's position in its source, for warnings.
	Index int
}

// Warning is something the target format cannot carry, at a pointer
// relative to the tool in MCP terms ("/inputSchema/properties/a/const").
type Warning struct {
	Tool    string
	Index   int
	Pointer string
	Message string
}

func (w Warning) String() string {
	name := fmt.Sprintf("tool %q", w.Tool)
	if w.Tool == "" {
		name = fmt.Sprintf("tool %d", w.Index)
	}
	if w.Pointer == "" {
		return fmt.Sprintf("%s: %s", name, w.Message)
	}
	return fmt.Sprintf("%s %s: %s", name, w.Pointer, w.Message)
}
