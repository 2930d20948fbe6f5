package convert

import "github.com/mcpfit/mcplint/normalize"

// ToAnthropic writes the tools as the "tools" member of a Messages API
// request, {"tools": [{"name", "description", "input_schema"}]}
// (https://docs.anthropic.com/en/api/messages, "tools"; the tool use guide,
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
// The document can be merged into a request body as it is.
//
// input_schema may not have oneOf, anyOf or allOf at its root ("input_schema
// does not support oneOf, allOf, or anyOf at the top level", reported in
// anthropics/claude-code#4886): normalize.RootCombinators rewrites them.
// It must be JSON Schema 2020-12 ("JSON schema is invalid. It must match
// JSON Schema draft 2020-12", anthropics/claude-code#586): a schema written
// for an older draft is rewritten by normalize.Draft2020 first.
func ToAnthropic(tools []Tool) ([]byte, []Warning, error) {
	conv, warns, err := prepare(tools, "Anthropic", anthropicNames, anthropicSchema)
	if err != nil {
		return nil, nil, err
	}
	list := make([]object, len(conv))
	for i, c := range conv {
		o := withDescription(object{}.add("name", c.name), c.Description)
		list[i] = o.add("input_schema", c.params)
	}
	out, err := encode(object{}.add("tools", list))
	if err != nil {
		return nil, nil, err
	}
	return checked(out, warns, tools, Consumers("anthropic", Options{}), nil)
}

// anthropicSchema is an input schema as the Messages API takes it.
func anthropicSchema(s any) (any, []normalize.Loss) {
	d, lost := normalize.Draft2020(s)
	out, more := normalize.RootCombinators(d)
	return out, append(lost, more...)
}
