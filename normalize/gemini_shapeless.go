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
//
// The places are found in one walk and taken in document order, each drop
// skipping the places inside what it removed: looking for the next place
// from the root after each drop took time in the square of the schema
// when every property was one (a schema of inlined references cut short).
func GeminiDropShapeless(s any) (any, []Loss) {
	out := schema.Clone(s)
	root, ok := out.(map[string]any)
	if !ok {
		return out, nil
	}
	type place struct {
		ptr, what string
		node      map[string]any
	}
	var places []place
	schema.Walk(root, "", func(node *schema.Node) bool {
		if p := node.Pointer(); p != "" {
			if w := GeminiShapeless(node.Value, p); w != "" {
				places = append(places, place{p, w, node.Value})
			}
		}
		return true
	})
	if len(places) == 0 {
		return out, nil
	}
	d := &dropper{root: root, required: map[string]map[string]bool{}, dropped: map[string]map[string]bool{}, branches: map[string]int{}}
	var losses []Loss
	for i := 0; i < len(places); i++ {
		ptr, what := places[i].ptr, places[i].what
		for ptr != "" {
			drop, how := d.dropPoint(ptr)
			if drop == "" {
				break
			}
			d.remove(drop)
			if ptr != drop {
				what += " (at " + ptr + ")"
			}
			losses = append(losses, Loss{Pointer: drop, What: fmt.Sprintf("Gemini's parameters cannot say %s, which Gemini refuses: %s", what, how)})
			// The places left inside what was removed are gone with it.
			for i+1 < len(places) && strings.HasPrefix(places[i+1].ptr, drop+"/") {
				i++
			}
			// The object that held a dropped property may have none left:
			// it comes before every place left, and is taken next.
			ptr, what = "", ""
			if holder, kw := d.holderOf(drop); kw == "properties" && holder != "" {
				if h := d.holder(holder); h != nil {
					what = GeminiShapeless(h, holder)
				}
				if what != "" {
					ptr = holder
				}
			}
		}
	}
	d.finish()
	return out, losses
}

// dropper removes properties and anyOf branches from root, keeping the
// pointers of what is left valid until finish: a removed branch keeps its
// index (its slot is marked) and a removed property's name stays in its
// object's "required" and "propertyOrdering" until then.
type dropper struct {
	root     map[string]any
	required map[string]map[string]bool // holder -> its required names
	dropped  map[string]map[string]bool // holder -> the properties dropped
	branches map[string]int             // holder -> the anyOf branches left, once one is dropped
}

// branchMark is the type of removedBranch, which marks an anyOf branch
// that was dropped.
type branchMark struct{ _ byte }

var removedBranch = &branchMark{}

// holderOf splits the pointer of a property or a branch into the pointer
// of the schema that holds it and the keyword.
func (d *dropper) holderOf(ptr string) (holder, kw string) {
	i := strings.LastIndexByte(ptr, '/')
	j := strings.LastIndexByte(ptr[:i], '/')
	return ptr[:j], ptr[j+1 : i]
}

// dropPoint picks what to leave out for the shapeless place at ptr, and
// says what that costs; "" when every way up is required.
func (d *dropper) dropPoint(ptr string) (string, string) {
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
		where := s.holder + "/" + s.kw + "/" + s.key
		switch s.kw {
		case "properties":
			name := unescapeToken(s.key)
			if d.isRequired(s.holder, name) {
				continue
			}
			return where, fmt.Sprintf("the optional property %q is left out, so the model can no longer send it", name)
		case "anyOf":
			if d.branchesLeft(s.holder) > 1 {
				return where, "that anyOf branch is left out, so the model can no longer send such a value there"
			}
		}
	}
	return "", ""
}

func (d *dropper) holder(ptr string) map[string]any {
	h, _ := schema.Get(d.root, ptr)
	m, _ := h.(map[string]any)
	return m
}

// isRequired reports whether the object at holder requires name; its
// "required" is read once.
func (d *dropper) isRequired(holder, name string) bool {
	req, ok := d.required[holder]
	if !ok {
		req = map[string]bool{}
		for _, n := range requiredNames(d.holder(holder)) {
			req[n] = true
		}
		d.required[holder] = req
	}
	return req[name]
}

// branchesLeft is how many anyOf branches of the schema at holder remain.
func (d *dropper) branchesLeft(holder string) int {
	if n, ok := d.branches[holder]; ok {
		return n
	}
	l, _ := d.holder(holder)["anyOf"].([]any)
	return len(l)
}

// remove deletes the property or marks the anyOf branch at ptr.
func (d *dropper) remove(ptr string) {
	holderPtr, kw := d.holderOf(ptr)
	key := ptr[strings.LastIndexByte(ptr, '/')+1:]
	h := d.holder(holderPtr)
	switch kw {
	case "properties":
		name := unescapeToken(key)
		props, _ := h["properties"].(map[string]any)
		delete(props, name)
		if d.dropped[holderPtr] == nil {
			d.dropped[holderPtr] = map[string]bool{}
		}
		d.dropped[holderPtr][name] = true
	case "anyOf":
		n, _ := strconv.Atoi(key)
		left := d.branchesLeft(holderPtr)
		if d.branches[holderPtr] == 0 {
			// The list is the caller's copy's: cloned once before marking.
			h["anyOf"] = slices.Clone(h["anyOf"].([]any))
		}
		h["anyOf"].([]any)[n] = removedBranch
		d.branches[holderPtr] = left - 1
	}
}

// finish removes the marked branches, and the dropped properties' names
// from "required" and "propertyOrdering". Holders are taken deepest first,
// so that the pointers of the ones left are still valid.
func (d *dropper) finish() {
	holders := make([]string, 0, len(d.dropped)+len(d.branches))
	for h := range d.dropped {
		holders = append(holders, h)
	}
	for h := range d.branches {
		if d.dropped[h] == nil {
			holders = append(holders, h)
		}
	}
	slices.SortFunc(holders, func(a, b string) int { return strings.Compare(b, a) })
	for _, hp := range holders {
		h := d.holder(hp)
		if h == nil {
			continue
		}
		if names := d.dropped[hp]; names != nil {
			for _, k := range []string{"required", "propertyOrdering"} {
				if l, ok := h[k].([]any); ok {
					l = slices.DeleteFunc(slices.Clone(l), func(v any) bool { s, _ := v.(string); return names[s] })
					if len(l) == 0 {
						delete(h, k)
					} else {
						h[k] = l
					}
				}
			}
		}
		if _, ok := d.branches[hp]; ok {
			l, _ := h["anyOf"].([]any)
			h["anyOf"] = slices.DeleteFunc(l, func(v any) bool { return v == any(removedBranch) })
		}
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
