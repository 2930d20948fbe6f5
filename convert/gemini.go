package convert

import "github.com/mcplint/mcplint/normalize"

// ToGemini writes the tools as one Gemini Tool object,
// {"functionDeclarations": [{"name", "description", "parameters"}]}
// (https://ai.google.dev/api/caching#Tool and #FunctionDeclaration); a
// generateContent request lists it in its "tools" array.
//
// "parameters" is Gemini's Schema object, a subset of OpenAPI 3.0
// (https://ai.google.dev/api/caching#Schema): normalize.Gemini rewrites the
// input schema into it, and a recursive schema is cut after
// o.GeminiMaxDepth expansions (normalize.DefaultGeminiDepth when 0), each
// cut a warning. With o.GeminiJSONSchema the schema goes, nearly as it is,
// into "parametersJsonSchema", which takes JSON Schema (normalize.
// GeminiJSONSchema; "parameters" and "parametersJsonSchema" are mutually
// exclusive, per the FunctionDeclaration reference). A tool without
// arguments has no "parameters" at all (see noParameters).
func ToGemini(tools []Tool, o Options) ([]byte, []Warning, error) {
	key := "parameters"
	transform := func(s any) (any, []normalize.Loss) {
		return normalize.Gemini(s, normalize.GeminiOptions{MaxDepth: o.GeminiMaxDepth})
	}
	if o.GeminiJSONSchema {
		key = "parametersJsonSchema"
		transform = normalize.GeminiJSONSchema
	}
	conv, warns, err := prepare(tools, "Gemini", geminiNames, transform)
	if err != nil {
		return nil, nil, err
	}
	list := make([]object, len(conv))
	for i, c := range conv {
		d := withDescription(object{}.add("name", c.name), c.Description)
		if !o.GeminiJSONSchema && noParameters(c.params.v) {
			list[i] = d
			continue
		}
		if !o.GeminiJSONSchema && noProperties(c.params.v) {
			warns = append(warns, Warning{Tool: c.Name, Index: c.Index, Pointer: "/inputSchema",
				Message: `the parameters have no "properties", and Gemini refuses an OBJECT without them ("should be non-empty for OBJECT type"): declare the arguments under "properties"`})
		}
		list[i] = d.add(key, c.params)
	}
	out, err := encode(object{}.add("functionDeclarations", list))
	return out, sortWarnings(warns), err
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
