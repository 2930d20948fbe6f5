package convert

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/normalize"
)

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
// No transform meets strict mode's size limits: a schema over them is a
// refusal.
//
// A description longer than OpenAI's 1,024 characters is cut at a word
// boundary to fit, with a warning saying how much was cut: the whole
// request fails otherwise.
func ToOpenAI(tools []Tool, o Options) ([]byte, []Warning, error) {
	transform := normalize.OpenAIFunction
	if o.Strict {
		budget := normalize.NewBudget(o.MaxRefExpansion)
		transform = func(s any) (any, []normalize.Loss) { return normalize.OpenAIStrictWithin(s, budget) }
	}
	conv, warns, err := prepare(tools, "OpenAI", openaiNames, transform)
	if err != nil {
		return nil, nil, err
	}
	list := make([]object, len(conv))
	for i, c := range conv {
		d, cut := shorten(c.Description, openaiMaxDescription)
		if cut > 0 {
			warns = append(warns, Warning{Tool: c.Name, Index: c.Index, Pointer: "/description",
				Message: fmt.Sprintf("the description has %d characters and OpenAI takes at most %d: cut at a word boundary, ending with \"…\" (%d characters cut); move detail into parameter descriptions to keep it", utf8.RuneCountInString(c.Description), openaiMaxDescription, cut)})
		}
		fn := withDescription(object{}.add("name", c.name), d)
		fn = fn.add("parameters", c.params).add("strict", o.Strict)
		if o.API == "responses" {
			list[i] = append(object{}.add("type", "function"), fn...)
		} else {
			list[i] = object{}.add("type", "function").add("function", fn)
		}
	}
	out, err := encode(object{}.add("tools", list))
	if err != nil {
		return nil, nil, err
	}
	return checked(out, warns, tools, Consumers("openai", o), nil)
}

// openaiMaxDescription is the longest function description OpenAI takes,
// in characters (Unicode code points, as the API counts them: "string too
// long. Expected a string with maximum length 1024, but got a string with
// length 1103 instead", getsentry/sentry-mcp#106). A longer one fails the
// whole request.
const openaiMaxDescription = 1024

// shorten returns s cut to at most max characters, and how many of s's
// characters it cut (0 when s fits, and comes back as it is). The cut
// falls at the last space that keeps at least half the room, so no word
// is split, and "…" marks it.
func shorten(s string, max int) (string, int) {
	r := []rune(s)
	if len(r) <= max {
		return s, 0
	}
	keep := r[:max-1] // room for the ellipsis
	for i := len(keep) - 1; i >= len(keep)/2; i-- {
		if unicode.IsSpace(keep[i]) {
			keep = keep[:i]
			break
		}
	}
	for len(keep) > 0 && unicode.IsSpace(keep[len(keep)-1]) {
		keep = keep[:len(keep)-1]
	}
	return string(keep) + "…", len(r) - len(keep)
}
