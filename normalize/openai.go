package normalize

import (
	"github.com/mcpfit/mcplint/schema"
)

// OpenAIFunction returns s as OpenAI's function calling takes it without
// strict mode (Chat Completions tools[].function.parameters, Responses
// tools[].parameters): an object root without a combinator, enum, const or
// not at the top level, "items" on every array schema, and "properties" on
// the root.
//
// The root is made an object as ObjectRoot does and its combinators are
// merged by RootCombinators; one that cannot be merged is dropped. A root
// enum, const or not has no object form and is dropped too. An array
// without "items" gets "items": {}, which accepts what the missing keyword
// did. Losses name what could not be carried.
func OpenAIFunction(s any) (any, []Loss) {
	return openAIFunction(schema.Clone(s))
}

// openAIFunction is OpenAIFunction on out itself, which it may change: the
// caller's own copy, transformed in place rather than copied at each step.
func openAIFunction(out any) (any, []Loss) {
	var losses []Loss
	if r, err := objectRoot(out, 0); err == nil {
		out = r
	} else {
		losses = append(losses, Loss{Keyword: "type", What: "the root cannot be made an object schema: " + err.Error()})
	}
	if m, ok := out.(map[string]any); ok && HasRootCombinator(m) {
		var more []Loss
		out, more = RootCombinators(out)
		losses = append(losses, more...)
	}
	if m, ok := out.(map[string]any); ok {
		for _, k := range OpenAIRootCombinatorKeywords {
			if _, ok := m[k]; ok {
				delete(m, k)
				losses = append(losses, Loss{Keyword: k, What: "OpenAI refuses \"" + k + "\" at the top level of parameters and it could not be merged into the root; without it the root accepts objects it used to refuse"})
			}
		}
	}
	out, more := openAIRootKeywords(out)
	losses = append(losses, more...)
	return openAIRootProperties(openAIArrayItems(out)), losses
}

// OpenAIRootProperties returns s with "properties": {} added to an object
// root that has none: OpenAI refuses such parameters ("object schema
// missing properties", github/github-mcp-server#1548), and an empty
// "properties" constrains nothing, so the contract is kept.
func OpenAIRootProperties(s any) any {
	return openAIRootProperties(schema.Clone(s))
}

func openAIRootProperties(out any) any {
	// A root "$ref" brings its own properties (strict mode inlines it
	// first, then asks again).
	if m, ok := out.(map[string]any); ok && m["type"] == "object" && m["$ref"] == nil {
		if _, has := m["properties"]; !has {
			m["properties"] = map[string]any{}
		}
	}
	return out
}

// OpenAIRootCombinatorKeywords are the keywords OpenAI refuses at the top
// level of function parameters that RootCombinators rewrites.
var OpenAIRootCombinatorKeywords = []string{"anyOf", "oneOf", "allOf"}

// OpenAIRootValueKeywords are the other keywords OpenAI refuses at the top
// level: no object schema says the same, so they are dropped.
var OpenAIRootValueKeywords = []string{"enum", "const", "not"}

// OpenAIRootKeywords returns s without the keywords OpenAI refuses at the
// top level of function parameters, each dropped one a Loss.
func OpenAIRootKeywords(s any) (any, []Loss) {
	return openAIRootKeywords(schema.Clone(s))
}

func openAIRootKeywords(out any) (any, []Loss) {
	m, ok := out.(map[string]any)
	if !ok {
		return out, nil
	}
	var losses []Loss
	for _, k := range OpenAIRootValueKeywords {
		if _, ok := m[k]; ok {
			delete(m, k)
			losses = append(losses, Loss{Keyword: k, What: "OpenAI refuses \"" + k + "\" at the top level of parameters; without it the root accepts objects it used to refuse"})
		}
	}
	return m, losses
}

// OpenAIArrayItems returns s with "items": {} added to every array schema
// that has none (see NeedsItems), and "items": false, which VS Code takes
// for a missing one, written {"not": {}}. Both rewrites accept exactly the
// arrays the schema accepted, so the contract is kept.
func OpenAIArrayItems(s any) any {
	return openAIArrayItems(schema.Clone(s))
}

func openAIArrayItems(out any) any {
	schema.Walk(out, "", func(n *schema.Node) bool {
		if NeedsItems(n.Value) {
			n.Value["items"] = map[string]any{}
		}
		if n.Value["items"] == false && schema.HasType(n.Value, "array") {
			n.Value["items"] = map[string]any{"not": map[string]any{}}
		}
		return true
	})
	return out
}

// NeedsItems reports whether s is an array schema ("type" "array" or a list
// naming it) without "items", which OpenAI refuses with "array schema
// missing items".
func NeedsItems(s map[string]any) bool {
	_, has := s["items"]
	return schema.HasType(s, "array") && !has
}
