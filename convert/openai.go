package convert

import "github.com/mcplint/mcplint/normalize"

// ToOpenAI writes the tools as the "tools" member of an OpenAI request, so
// the document can be merged into a request body as it is:
//
//   - Chat Completions (o.API "chat" or ""):
//     {"tools": [{"type": "function", "function": {"name", "description",
//     "parameters", "strict"}}]}
//     (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools);
//   - Responses (o.API "responses"): the flat form
//     {"tools": [{"type": "function", "name", "description", "parameters",
//     "strict"}]}
//     (https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools).
//
// "strict" is always written: the Responses API's FunctionTool takes strict
// as true when it is left out (openai-ruby's
// OpenAI::Models::Responses::FunctionTool: "Whether to enforce strict
// parameter validation. Default true."), Chat Completions as false, so only
// an explicit value means the same in both.
//
// Without o.Strict, normalize.OpenAIFunction makes the schema one OpenAI
// accepts at all (no combinators, enum or not at the root:
// langchain-ai/langchainjs#9804); with it, normalize.OpenAIStrict makes it
// one strict mode accepts (every property required, additionalProperties
// false everywhere, and no unsupported keyword;
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
func ToOpenAI(tools []Tool, o Options) ([]byte, []Warning, error) {
	transform := normalize.OpenAIFunction
	if o.Strict {
		transform = strictWithLimits
	}
	conv, warns, err := prepare(tools, "OpenAI", openaiNames, transform)
	if err != nil {
		return nil, nil, err
	}
	list := make([]object, len(conv))
	for i, c := range conv {
		fn := withDescription(object{}.add("name", c.name), c.Description)
		fn = fn.add("parameters", c.params).add("strict", o.Strict)
		if o.API == "responses" {
			list[i] = append(object{}.add("type", "function"), fn...)
		} else {
			list[i] = object{}.add("type", "function").add("function", fn)
		}
	}
	out, err := encode(object{}.add("tools", list))
	return out, warns, err
}

// strictWithLimits is normalize.OpenAIStrict, plus a warning for each
// strict-mode size limit the result still exceeds: no transform can meet
// those, and OpenAI refuses the request.
func strictWithLimits(s any) (any, []normalize.Loss) {
	out, lost := normalize.OpenAIStrict(s)
	return out, append(lost, normalize.OpenAIStrictSize(out).Over()...)
}
