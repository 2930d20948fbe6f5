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
	name := w.Tool
	if name == "" {
		name = fmt.Sprintf("tool %d", w.Index)
	}
	if w.Pointer == "" {
		return fmt.Sprintf("%s: %s", name, w.Message)
	}
	return fmt.Sprintf("%s %s: %s", name, w.Pointer, w.Message)
}
