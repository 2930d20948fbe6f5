package convert

import (
	"strconv"

	"github.com/mcpfit/mcplint/internal/elide"
	"github.com/mcpfit/mcplint/lint"
)

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
	// Refused is set when the target still refuses what was written here:
	// a finding of the rules that protect the target's consumers, run on
	// the document written, that no rewrite avoided. The document is
	// written all the same; mcplint convert exits 1.
	Refused bool
	// Tools is set on a summary: one loss many tools share (a member the
	// target has no place for), said once. It names every tool concerned,
	// in source order; Tool, Index and Pointer are the first one's.
	Tools []string
}

func (w Warning) String() string {
	if len(w.Tools) > 0 {
		return w.Message // a summary names its tools
	}
	// Concatenated: a conversion of thousands of tools says tens of
	// thousands, and formatting each took a twentieth of its time.
	var name string
	if w.Tool != "" {
		name = "tool " + quoteName(elide.Middle(w.Tool, shownMax))
	} else {
		name = "tool " + strconv.Itoa(w.Index)
	}
	msg := elide.Middle(w.Message, lint.MaxMessage)
	if w.Pointer == "" {
		return name + ": " + msg
	}
	return name + " " + elide.Middle(w.Pointer, shownMax) + ": " + msg
}

// shownMax is the most of a tool's name or a pointer a warning shows, as
// the reports show a finding's: a 100 KB key, in the pointer of every
// warning under it, made megabytes of warnings.
const shownMax = elide.MaxKey

// quoteName is strconv.Quote, which reads a name rune by rune, with a path for
// the names that need no escape (nearly all): those are only wrapped.
func quoteName(s string) string {
	if plainASCII(s) {
		return `"` + s + `"`
	}
	return strconv.Quote(s)
}
