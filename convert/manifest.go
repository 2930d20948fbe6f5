package convert

import (
	"fmt"

	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

// FromManifest reads every tool of m in MCP terms, whatever shape the
// manifest had: the loader presents each tool's input schema as
// "inputSchema" (Tool.SchemaKey names the member the source used).
//
// The error names the place (file:line:col) of the first tool that is not
// an object, or whose name, title, description, input schema, output schema
// or annotations have the wrong JSON type. A missing input schema is left
// nil (the targets write {"type": "object"}); the boolean schema true reads
// as {}, and false, which no arguments satisfy, is an error. Entries of a
// provider's list that are not functions (m.Skipped: OpenAI's web_search,
// Anthropic's bash) are not tools; callers should say they drop them.
func FromManifest(m *manifest.Manifest) ([]Tool, error) {
	out := make([]Tool, len(m.Tools))
	errs := make([]error, len(m.Tools))
	// Each tool decodes alone: on every CPU.
	par.ForEach(len(m.Tools), func(i int) {
		out[i], errs[i] = fromTool(m.Tools[i])
	})
	if err := par.FirstError(errs); err != nil {
		return nil, err
	}
	return out, nil
}

func fromTool(mt *manifest.Tool) (Tool, error) {
	v, err := mt.Value()
	if err != nil {
		return Tool{}, err
	}
	fail := func(ptr, format string, args ...any) error {
		return &manifest.Error{Path: mt.M.Path, Pos: mt.Locate(ptr), Msg: fmt.Sprintf(format, args...)}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Tool{}, fail("", "tool %d is %s, not an object", mt.Index, schema.KindWithArticle(v))
	}
	t := Tool{Index: mt.Index, Order: memberOrder(mt, obj)}
	// A tool in another format has only a name, a description and a
	// schema in common with MCP's.
	foreign := mt.M.Shape.Foreign()
	common := []string{"name", "title", "description"}
	if foreign {
		common = []string{"name", "description"}
	}
	for _, k := range common {
		raw, ok := obj[k]
		if !ok || raw == nil {
			continue
		}
		s, ok := raw.(string)
		if !ok {
			return Tool{}, fail("/"+k, "tool %d: %q is %s, not a string", mt.Index, k, schema.KindWithArticle(raw))
		}
		switch k {
		case "name":
			t.Name = s
		case "title":
			t.Title = s
		case "description":
			t.Description = s
		}
	}
	if t.InputSchema, err = schemaMember(obj, "inputSchema"); err != nil {
		return Tool{}, fail("/inputSchema", "tool %d: %v", mt.Index, err)
	}
	if foreign {
		for k, v := range obj {
			switch k {
			case "name", "description", "inputSchema":
				continue
			case "type":
				// "type": "function" (OpenAI) and "custom" (Anthropic) only
				// say that the entry is a tool.
				if v == "function" || v == "custom" {
					continue
				}
			}
			if t.Extra == nil {
				t.Extra = map[string]any{}
			}
			t.Extra[k] = v
		}
		return t, nil
	}
	if t.OutputSchema, err = schemaMember(obj, "outputSchema"); err != nil {
		return Tool{}, fail("/outputSchema", "tool %d: %v", mt.Index, err)
	}
	if raw, ok := obj["annotations"]; ok && raw != nil {
		if t.Annotations, ok = raw.(map[string]any); !ok {
			return Tool{}, fail("/annotations", "tool %d: \"annotations\" is %s, not an object", mt.Index, schema.KindWithArticle(raw))
		}
	}
	for k, v := range obj {
		switch k {
		case "name", "title", "description", "inputSchema", "outputSchema", "annotations":
			continue
		}
		if t.Other == nil {
			t.Other = map[string]any{}
		}
		t.Other[k] = v
	}
	return t, nil
}

// schemaMember reads a schema member as an object schema; see FromManifest
// for booleans.
func schemaMember(obj map[string]any, k string) (map[string]any, error) {
	switch v := obj[k].(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	case bool:
		if v {
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("%q is the schema false, which no value satisfies", k)
	default:
		return nil, fmt.Errorf("%q is %s, not a schema", k, schema.KindWithArticle(v))
	}
}
