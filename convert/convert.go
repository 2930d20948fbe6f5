package convert

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/pointer"
)

// Targets are the formats To writes, in the order help texts list them.
var Targets = []string{"mcp", "openai", "anthropic", "gemini", "zod"}

// Options tune To. The zero value converts for the default form of each
// target.
type Options struct {
	// Strict writes OpenAI function tools in strict mode (Structured
	// Outputs): "strict": true and a schema strict mode accepts.
	Strict bool
	// API is the OpenAI API the tools are written for: "chat" (Chat
	// Completions, the default when empty) or "responses".
	API string
	// GeminiJSONSchema writes Gemini declarations with
	// "parametersJsonSchema" (JSON Schema) rather than "parameters" (the
	// OpenAPI subset).
	GeminiJSONSchema bool
	// GeminiMaxDepth bounds recursion in Gemini's "parameters" (see
	// normalize.GeminiOptions; 0 means normalize.DefaultGeminiDepth).
	GeminiMaxDepth int
	// Zod is the Zod major version of --to zod: 3 or 4 (0 means 4).
	Zod int
	// MaxRefExpansion bounds the bytes of JSON that the references of all
	// the tools may inline into, for the targets that inline them (Gemini
	// "parameters", OpenAI strict mode); 0 means
	// normalize.DefaultRefExpansion. A conversion past it fails with a
	// *ToolError wrapping a *normalize.BudgetError.
	MaxRefExpansion int64
}

func (o Options) check() error {
	switch o.API {
	case "", "chat", "responses":
	default:
		return fmt.Errorf("unknown OpenAI API %q (want chat or responses)", o.API)
	}
	switch o.Zod {
	case 0, 3, 4:
	default:
		return fmt.Errorf("unknown Zod major version %d (want 3 or 4)", o.Zod)
	}
	if o.GeminiMaxDepth < 0 {
		return fmt.Errorf("negative Gemini depth %d", o.GeminiMaxDepth)
	}
	if o.MaxRefExpansion < 0 {
		return fmt.Errorf("negative reference expansion %d", o.MaxRefExpansion)
	}
	return nil
}

// To converts tools into the document target reads: "mcp", "openai",
// "anthropic", "gemini" or "zod". The warnings list everything the target
// could not carry (a keyword dropped, a tool renamed, a description cut; a
// member the target has no place for, summed up once for all the tools
// that lose it), and, marked Refused, what the target still refuses in the
// document written: the rules that protect its consumers (Consumers) are
// run on it, and what they report could not be avoided. The error is for
// an unknown target or option, and, as a *ToolError, for a tool whose
// input schema admits no object at all, which no target takes as a tool's
// parameters.
func To(target string, tools []Tool, o Options) ([]byte, []Warning, error) {
	if err := o.check(); err != nil {
		return nil, nil, err
	}
	switch target {
	case "mcp":
		return ToMCP(tools)
	case "openai":
		return ToOpenAI(tools, o)
	case "anthropic":
		return ToAnthropic(tools)
	case "gemini":
		return ToGemini(tools, o)
	case "zod":
		tools, err := objectRoots(tools)
		if err != nil {
			return nil, nil, err
		}
		out, warns := ToZod(tools, ZodOptions{Major: o.Zod})
		return out, sortWarnings(warns), nil
	}
	return nil, nil, fmt.Errorf("unknown target %q (want %s)", target, strings.Join(Targets, ", "))
}

// objectRoots gives every tool an input schema whose root is
// "type": "object", which MCP requires and every target assumes: a missing
// schema becomes {"type": "object"}, a root "$ref" is resolved. The tools
// passed in are not modified.
func objectRoots(tools []Tool) ([]Tool, error) {
	out := make([]Tool, len(tools))
	errs := make([]error, len(tools))
	par.ForEach(len(tools), func(i int) {
		t := tools[i]
		s, err := normalize.ObjectRoot(schemaValue(t.InputSchema))
		if err != nil {
			errs[i] = &ToolError{Tool: t.Name, Index: t.Index, Pointer: "/inputSchema", Err: err}
			return
		}
		t.InputSchema = s.(map[string]any)
		out[i] = t
	})
	if err := par.FirstError(errs); err != nil {
		return nil, err
	}
	return out, nil
}

// schemaValue turns a nil map into a nil interface, which ObjectRoot reads
// as a missing schema.
func schemaValue(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

// ToolError is a tool no target can take, at a pointer relative to it.
type ToolError struct {
	Tool    string
	Index   int
	Pointer string
	Err     error
}

func (e *ToolError) Error() string {
	return Warning{Tool: e.Tool, Index: e.Index, Pointer: e.Pointer, Message: e.Err.Error()}.String()
}

func (e *ToolError) Unwrap() error { return e.Err }

// losses turns what a transform of the input schema lost into warnings.
func losses(t Tool, base string, lost []normalize.Loss) []Warning {
	out := make([]Warning, 0, len(lost))
	for _, l := range lost {
		msg := l.What
		if l.Keyword != "" && !strings.Contains(msg, l.Keyword) {
			msg = fmt.Sprintf("%q: %s", l.Keyword, msg)
		}
		out = append(out, Warning{Tool: t.Name, Index: t.Index, Pointer: base + l.Pointer, Message: msg})
	}
	return out
}

// dropped sums up the members of tools the target has no place for: the
// MCP members other than name, description and input schema (unless the
// target is MCP), and always the members of another format (Extra). Such
// losses are expected and cannot make the target refuse anything, so
// each member gets one Warning for all the tools that lose it (Tools),
// placed at the first of them, rather than one per tool that would bury
// the warnings that matter.
func dropped(tools []Tool, target string) []Warning {
	type loss struct {
		why   string
		tools []Tool
	}
	byMember := map[string]*loss{}
	var members []string // in the order first met
	add := func(t Tool, member, why string) {
		l, ok := byMember[member]
		if !ok {
			l = &loss{why: why}
			byMember[member] = l
			members = append(members, member)
		}
		l.tools = append(l.tools, t)
	}
	for _, t := range tools {
		if target != "MCP" {
			if t.Title != "" {
				add(t, "title", "only the name and description reach the model")
			}
			if t.OutputSchema != nil {
				add(t, "outputSchema", "results are not checked against it")
			}
			if len(t.Annotations) > 0 {
				add(t, "annotations", "hints such as readOnlyHint are not passed on")
			}
			for _, k := range slices.Sorted(maps.Keys(t.Other)) {
				add(t, k, "not part of the target's tool definition")
			}
		}
		for _, k := range slices.Sorted(maps.Keys(t.Extra)) {
			add(t, k, "it belongs to the format the tools were read from")
		}
	}
	out := make([]Warning, 0, len(members))
	for _, member := range members {
		l := byMember[member]
		names := make([]string, len(l.tools))
		for i, t := range l.tools {
			names[i] = t.Name
			if t.Name == "" {
				names[i] = fmt.Sprintf("tool %d", t.Index)
			}
		}
		first := l.tools[0]
		out = append(out, Warning{Tool: first.Name, Index: first.Index, Pointer: "/" + pointer.Escape(member), Tools: names,
			Message: fmt.Sprintf("%q dropped from %s (%s has no place for it: %s): %s", member, fmt.Sprintf("%d %s", len(names), english.Plural(len(names), "tool", "tools")), target, l.why, listed(names, 3))})
	}
	return out
}

// listed joins the first max names, with "…" for the rest.
func listed(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + ", …"
}
