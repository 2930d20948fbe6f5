package normalize

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// GeminiShapeless says what Gemini's "parameters" form refuses in the node
// at ptr (below the root) and has no rewrite for, or "" when nothing. The
// form has no way to say three things JSON Schema says with an absence:
//
//   - an array without "items" ("items: missing field",
//     DEEIX-AI/DEEIX-Chat#546; Google's own ADK gives such arrays
//     "items": {"type": "string"} before sending them,
//     google/adk-python src/google/adk/tools/_gemini_schema_util.py);
//   - an object without properties, which is what a free-form map
//     ("additionalProperties" only) becomes once Gemini's subset drops
//     "additionalProperties" ("properties: should be non-empty for OBJECT
//     type", langchain-ai/langchain-google#657 for nested objects,
//     MarkusPfundstein/mcp-obsidian#21);
//   - a schema without a type where Gemini demands one, as a property or
//     an array's items, unless a combinator, an enum or a reference says
//     what it holds ("type: must be specified when not using one_of,
//     any_of or all_of fields").
//
// Whether a current Gemini API still refuses a nested {"type": "object"}
// without properties is not settled. Reports from late 2025 on suggest it
// passes: the Vercel AI SDK keeps such objects nested since vercel/ai#11319
// (December 2025, to cure a "property is not defined" error), LiteLLM sends
// them without a 400 (BerriAI/litellm#19029, #22391, early 2026), and the
// ADK above writes {"type": "object"} for "any value" and for a cut
// recursion. None of them tests the shape on purpose, while every quoted
// refusal (2024 to 2025) names it, and "parametersJsonSchema" takes the map
// as it is. So the shape counts as refused.
func GeminiShapeless(node map[string]any, ptr string) string {
	switch t := node["type"].(type) {
	case string:
		switch t {
		case "array":
			if _, ok := node["items"]; !ok {
				return "an array without \"items\""
			}
		case "object":
			if props, _ := node["properties"].(map[string]any); len(props) == 0 {
				return "an object without properties"
			}
		}
	case nil:
		if !geminiTypedPlace(ptr) {
			return ""
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref", "enum", "const"} {
			if _, ok := node[k]; ok {
				return ""
			}
		}
		return "a schema without a type (any value)"
	}
	return ""
}

// geminiTypedPlace reports whether the schema at ptr is one Gemini wants a
// type of: a property, or an array's items.
func geminiTypedPlace(ptr string) bool {
	parent := ptr[:max(strings.LastIndexByte(ptr, '/'), 0)]
	return strings.HasSuffix(parent, "/properties") || strings.HasSuffix(ptr, "/items")
}

// GeminiDropShapeless returns s, a schema already in Gemini's "parameters"
// form (Gemini's result), without the parts that hold a place Gemini
// refuses (GeminiShapeless) when leaving them out is possible: the nearest
// optional property on the way from that place up to the root is dropped,
// or the anyOf branch it is in when other branches remain. An object left
// without properties by a drop is such a place in turn. Each drop is a
// Loss: the model can no longer send that property (or that kind of
// value). Pointers are into s. A place with only required properties
// above it stays; Gemini refuses it and the caller must say so. s is not
// modified.
func GeminiDropShapeless(s any) (any, []Loss) {
	out := schema.Clone(s)
	root, ok := out.(map[string]any)
	if !ok {
		return out, nil
	}
	var losses []Loss
	stuck := map[string]bool{} // places nothing can be dropped for
	for {
		ptr, what := firstShapeless(root, stuck)
		if ptr == "" {
			return out, losses
		}
		drop, how := dropPoint(root, ptr)
		if drop == "" {
			stuck[ptr] = true
			continue
		}
		removeAt(root, drop)
		if ptr != drop {
			what += " (at " + ptr + ")"
		}
		losses = append(losses, Loss{Pointer: drop, What: fmt.Sprintf("Gemini's parameters cannot say %s, which Gemini refuses: %s", what, how)})
	}
}

// firstShapeless finds the first place below the root, in document order,
// that GeminiShapeless refuses and that is not stuck.
func firstShapeless(root map[string]any, stuck map[string]bool) (ptr, what string) {
	schema.Walk(root, "", func(node *schema.Node) bool {
		n, p := node.Value, node.Pointer()
		if ptr != "" {
			return false
		}
		if p != "" && !stuck[p] {
			if w := GeminiShapeless(n, p); w != "" {
				ptr, what = p, w
				return false
			}
		}
		return true
	})
	return ptr, what
}

// dropPoint picks what to leave out for the shapeless place at ptr, and
// says what that costs; "" when every way up is required.
func dropPoint(root map[string]any, ptr string) (string, string) {
	// The steps from the root down to ptr that name a property or an
	// anyOf branch; Gemini's form has no other keyword with a name or an
	// index in it ("items" holds one schema).
	type step struct{ holder, kw, key string }
	var steps []step
	toks := strings.Split(ptr[1:], "/")
	at := ""
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "properties", "anyOf":
			if i+1 < len(toks) {
				steps = append(steps, step{at, toks[i], toks[i+1]})
				at += "/" + toks[i] + "/" + toks[i+1]
				i++
				continue
			}
		}
		at += "/" + toks[i]
	}
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		holder, _ := schema.Get(root, s.holder)
		h, _ := holder.(map[string]any)
		where := s.holder + "/" + s.kw + "/" + s.key
		switch s.kw {
		case "properties":
			name := unescapeToken(s.key)
			if slices.Contains(requiredNames(h), name) {
				continue
			}
			return where, fmt.Sprintf("the optional property %q is left out, so the model can no longer send it", name)
		case "anyOf":
			if l, _ := h["anyOf"].([]any); len(l) > 1 {
				return where, "that anyOf branch is left out, so the model can no longer send such a value there"
			}
		}
	}
	return "", ""
}

// removeAt deletes the property or anyOf branch at ptr, and the property's
// name from the "required" and "propertyOrdering" of its object.
func removeAt(root map[string]any, ptr string) {
	i := strings.LastIndexByte(ptr, '/')
	key := ptr[i+1:]
	j := strings.LastIndexByte(ptr[:i], '/')
	holderPtr, kw := ptr[:j], ptr[j+1:i]
	holder, _ := schema.Get(root, holderPtr)
	h, _ := holder.(map[string]any)
	switch kw {
	case "properties":
		name := unescapeToken(key)
		props, _ := h["properties"].(map[string]any)
		delete(props, name)
		for _, k := range []string{"required", "propertyOrdering"} {
			if l, ok := h[k].([]any); ok {
				l = slices.DeleteFunc(slices.Clone(l), func(v any) bool { return v == name })
				if len(l) == 0 {
					delete(h, k)
				} else {
					h[k] = l
				}
			}
		}
	case "anyOf":
		n, _ := strconv.Atoi(key)
		l, _ := h["anyOf"].([]any)
		h["anyOf"] = slices.Delete(slices.Clone(l), n, n+1)
	}
}

func requiredNames(s map[string]any) []string {
	var out []string
	l, _ := s["required"].([]any)
	for _, v := range l {
		if name, ok := v.(string); ok {
			out = append(out, name)
		}
	}
	return out
}

func unescapeToken(t string) string {
	if toks := pointer.Split("/" + t); len(toks) == 1 {
		return toks[0]
	}
	return t
}
