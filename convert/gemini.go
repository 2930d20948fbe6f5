package convert

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// ToGemini writes the tools as one Gemini Tool object,
// {"functionDeclarations": [{"name", "description", "parameters"}]}
// (https://ai.google.dev/api/caching#Tool and #FunctionDeclaration); a
// generateContent request lists it in its "tools" array.
//
// "parameters" is Gemini's Schema object, a subset of OpenAPI 3.0
// (https://ai.google.dev/api/caching#Schema): normalize.Gemini rewrites the
// input schema into it, and a recursive schema is cut after
// o.GeminiMaxDepth expansions (normalize.DefaultGeminiDepth when 0), each
// cut a warning; what the subset cannot say at all is left out where
// optional (normalize.GeminiDropShapeless), refused where required. With
// o.GeminiJSONSchema the schema goes, nearly as it is, into
// "parametersJsonSchema", which takes JSON Schema: rewritten into 2020-12
// when written for another draft (normalize.Draft2020), since the API
// refuses "$schema" (normalize.GeminiJSONSchema). "parameters" and
// "parametersJsonSchema" are mutually exclusive, per the
// FunctionDeclaration reference. A tool without arguments has no
// "parameters" at all (see noParameters).
func ToGemini(tools []Tool, o Options) ([]byte, []Warning, error) {
	key := "parameters"
	transform := geminiParameters(o)
	hint := func(d lint.Diagnostic, at any) string {
		ptr := strings.TrimPrefix(d.RelPointer, "/inputSchema")
		if m, ok := at.(map[string]any); ok && ptr != d.RelPointer && normalize.GeminiShapeless(m, ptr) != "" {
			return geminiShapelessHint
		}
		return ""
	}
	if o.GeminiJSONSchema {
		key = "parametersJsonSchema"
		transform = func(s any) (any, []normalize.Loss) {
			// Gemini refuses "$schema", and without it a reader takes
			// the schema for 2020-12: written in that dialect, it means
			// the same either way.
			d, lost := normalize.Draft2020(s)
			j, more := normalize.GeminiJSONSchema(d)
			return j, append(lost, more...)
		}
		hint = nil
	}
	conv, warns, err := prepare(tools, "Gemini", geminiNames, transform)
	if err != nil {
		return nil, nil, err
	}
	list := make([]object, len(conv))
	for i, c := range conv {
		d := withDescription(object{}.add("name", c.name), c.Description)
		if !o.GeminiJSONSchema && noParameters(c.params.v) {
			if desc, ok := c.params.v.(map[string]any)["description"]; ok {
				warns = append(warns, Warning{Tool: c.Name, Index: c.Index, Pointer: "/inputSchema/description",
					Message: fmt.Sprintf("the tool takes no arguments, so it is declared without parameters, and their description (%s) goes with them", compact(desc))})
			}
			list[i] = d
			continue
		}
		if !o.GeminiJSONSchema && noProperties(c.params.v) {
			warns = append(warns, Warning{Tool: c.Name, Index: c.Index, Pointer: "/inputSchema", Refused: true,
				Message: "refused by Gemini parameters: the parameters have no \"properties\", and Gemini refuses an OBJECT without them (\"should be non-empty for OBJECT type\"): declare the arguments under \"properties\"; " + geminiJSONSchemaHint})
		}
		list[i] = d.add(key, c.params)
	}
	out, err := encode(object{}.add("functionDeclarations", list))
	if err != nil {
		return nil, nil, err
	}
	return checked(out, warns, tools, Consumers("gemini", o), hint)
}

// geminiParameters is the transform of an input schema into Gemini's
// "parameters" (see ToGemini).
func geminiParameters(o Options) func(any) (any, []normalize.Loss) {
	// One budget for every tool: the input as a whole is bounded.
	budget := normalize.NewBudget(o.MaxRefExpansion)
	return func(s any) (any, []normalize.Loss) {
		var lost []normalize.Loss
		if noProperties(s) && normalize.HasRootCombinator(s) {
			// Gemini refuses parameters without properties; merged into
			// one object, as for OpenAI and Anthropic, the shapes give
			// the root theirs, unless the merge leaves them saying
			// nothing (then leaving them out would lose the arguments).
			if merged, more := normalize.RootCombinators(s); keepsArguments(merged) {
				s, lost = merged, more
			}
		}
		g, more := normalize.Gemini(s, normalize.GeminiOptions{MaxDepth: o.GeminiMaxDepth, Budget: budget})
		lost = append(lost, more...)
		if normalize.BudgetExceeded(more) != nil {
			return g, lost // refused whole (see prepare)
		}
		g, more = normalize.GeminiDropShapeless(g)
		return g, append(lost, more...)
	}
}

// geminiJSONSchemaHint is the way out of what Gemini's parameters cannot
// say, and geminiShapelessHint its form for a shape
// (normalize.GeminiShapeless) that convert could not leave out.
const (
	geminiJSONSchemaHint = "Gemini's parametersJsonSchema (convert --gemini-json-schema) takes it as JSON Schema"
	geminiShapelessHint  = "it is required, so it cannot be left out; " + geminiJSONSchemaHint
)

// compact writes a short JSON value on one line, cut when long.
func compact(v any) string {
	s := schema.Compact(v)
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

// keepsArguments reports whether a merged root declares properties, each
// saying what it takes: a merge of open shapes leaves a property that one
// shape names and another admits as any extra key with no schema at all.
func keepsArguments(s any) bool {
	m, _ := s.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	if len(props) == 0 {
		return false
	}
	for _, p := range props {
		pm, ok := p.(map[string]any)
		if !ok {
			return false
		}
		says := false
		for _, k := range []string{"type", "anyOf", "oneOf", "allOf", "enum", "const", "$ref", "properties", "items"} {
			if _, ok := pm[k]; ok {
				says = true
			}
		}
		if !says {
			return false
		}
	}
	return true
}

// noProperties reports whether s is an object schema with no property of
// its own: Gemini refuses it as "parameters" (see noParameters) even when
// other keywords (a root anyOf, a required list) say something.
func noProperties(s any) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	p, _ := m["properties"].(map[string]any)
	return len(p) == 0
}

// noParameters reports whether s says only "an object with no properties".
// Gemini refuses such "parameters" ("parameters.properties: should be
// non-empty for OBJECT type", langchain-ai/langchain-google#416,
// brainlid/langchain#183) and documents that a function without parameters
// leaves the member unset (FunctionDeclaration.parameters, "For function
// with no parameters, this can be left unset"), so it is left out. A schema
// with anything more keeps it.
func noParameters(s any) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range m {
		switch k {
		case "title", "description":
			// Annotations of nothing: Pydantic titles every model.
		case "type":
			if v != "object" {
				return false
			}
		case "properties":
			if p, ok := v.(map[string]any); !ok || len(p) > 0 {
				return false
			}
		case "required":
			if r, ok := v.([]any); !ok || len(r) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
