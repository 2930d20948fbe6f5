package convert

import (
	"slices"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/normalize"
)

// converted is one tool ready for a target: its name there and its input
// schema transformed for it.
type converted struct {
	Tool
	name   string
	params inOrder
}

// prepare runs what every target but MCP needs: an object root, names the
// target accepts, the target's schema transform, and a warning for each
// member the target has no place for and each loss of the transform.
func prepare(tools []Tool, target string, p namePolicy, transform func(any) (any, []normalize.Loss)) ([]converted, []Warning, error) {
	tools, err := objectRoots(tools)
	if err != nil {
		return nil, nil, err
	}
	names, warns := rename(tools, p)
	warns = append(warns, dropped(tools, target)...)
	out := make([]converted, len(tools))
	// Transforms are pure and independent per tool: thousands of tools
	// are converted on every CPU.
	lost := make([][]normalize.Loss, len(tools))
	par.ForEach(len(tools), func(i int) {
		t := tools[i]
		var params any
		params, lost[i] = transform(t.InputSchema)
		out[i] = converted{Tool: t, name: names[i], params: t.withOrder(params)}
	})
	// A schema whose references could not all be inlined is refused
	// whole: writing it with the hole would pass a limit off as a loss.
	for i, t := range tools {
		if be := normalize.BudgetExceeded(lost[i]); be != nil {
			return nil, nil, &ToolError{Tool: t.Name, Index: t.Index, Pointer: "/inputSchema" + be.Pointer, Err: be}
		}
	}
	for i, t := range tools {
		warns = append(warns, losses(t, "/inputSchema", lost[i])...)
	}
	return out, sortWarnings(warns), nil
}

// checked finishes a conversion: the document written from tools for the
// consumers ids is judged by their rules (refusals), and what they still
// refuse joins the warnings, with hint's advice (nil for none).
func checked(doc []byte, warns []Warning, tools []Tool, ids []consumer.ID, hint func(d lint.Diagnostic, at any) string) ([]byte, []Warning, error) {
	refused, err := refusals(doc, ids, tools, hint)
	if err != nil {
		return nil, nil, err
	}
	return doc, sortWarnings(append(warns, refused...)), nil
}

// sortWarnings orders warnings by tool, keeping each tool's in the order
// they were found.
func sortWarnings(w []Warning) []Warning {
	slices.SortStableFunc(w, func(a, b Warning) int { return a.Index - b.Index })
	return w
}

// withDescription adds "description" when there is one: every target
// takes it as optional.
func withDescription(o object, d string) object {
	if d == "" {
		return o
	}
	return o.add("description", d)
}
