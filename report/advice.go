package report

import (
	"encoding/json"
	"strings"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// A running server's schemas are rarely written by hand: a generator
// makes them from the server's code, and the fix is a change there. The
// common generators leave marks in what they write, so a finding's advice
// can speak the generator's idiom:
//
//   - Zod through the MCP TypeScript SDK (registerTool): "$schema" of
//     draft-07 (zod-to-json-schema, and Zod 4's z.toJSONSchema with that
//     target), and integers bounded by ±9007199254740991 (z.number().int()
//     is a safe integer);
//   - Pydantic through FastMCP or the MCP Python SDK: a "title" on every
//     property, the root's title ending in "Arguments" (the model FastMCP
//     builds from the function's signature);
//   - github.com/invopop/jsonschema: "$schema" of 2020-12 with "$id", or a
//     root "$ref" into "$defs";
//   - github.com/google/jsonschema-go, which the MCP Go SDK's AddTool uses:
//     "additionalProperties": false on every object and no "$schema".
//
// Without such marks the advice names no generator.

// Generators mcplint tells apart, as Generator returns them.
const (
	GeneratorZod      = "zod"
	GeneratorPydantic = "pydantic"
	GeneratorInvopop  = "invopop"
	GeneratorGoSDK    = "go-sdk"
)

// Generator names the generator whose marks the tool's inputSchema (or
// outputSchema) bears, "" when it bears none.
func Generator(t *manifest.Tool) string {
	v, err := t.Value()
	if err != nil {
		return ""
	}
	tool, _ := v.(map[string]any)
	for _, key := range []string{"inputSchema", "outputSchema"} {
		if g := generatorOf(tool[key]); g != "" {
			return g
		}
	}
	return ""
}

func generatorOf(v any) string {
	s, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	dialect, _ := s["$schema"].(string)
	switch {
	case dialect == "http://json-schema.org/draft-07/schema#" || zodIntegers(s):
		return GeneratorZod
	case dialect == "https://json-schema.org/draft/2020-12/schema" && (s["$id"] != nil || defsRef(s["$ref"])):
		return GeneratorInvopop
	}
	if title, _ := s["title"].(string); len(title) > len("Arguments") && title[len(title)-len("Arguments"):] == "Arguments" {
		return GeneratorPydantic
	}
	props, _ := s["properties"].(map[string]any)
	titled := len(props) > 0
	for _, p := range props {
		pm, _ := p.(map[string]any)
		if _, ok := pm["title"]; !ok {
			titled = false
		}
	}
	if titled {
		return GeneratorPydantic
	}
	if s["additionalProperties"] == false && dialect == "" && len(props) > 0 {
		return GeneratorGoSDK
	}
	return ""
}

// defsRef reports whether ref points into the schema's own $defs, as
// invopop's reflector writes a root that names its type.
func defsRef(ref any) bool {
	r, _ := ref.(string)
	return strings.HasPrefix(r, "#/$defs/")
}

// zodIntegers reports whether a property is an integer bounded as Zod
// bounds z.number().int(): between ∓(2^53 - 1).
func zodIntegers(s map[string]any) bool {
	props, _ := s["properties"].(map[string]any)
	for _, p := range props {
		pm, _ := p.(map[string]any)
		if pm["type"] != "integer" {
			continue
		}
		if n, ok := pm["maximum"].(json.Number); ok && n.String() == "9007199254740991" {
			return true
		}
	}
	return false
}

// where says where each generator's schema comes from in the server's
// code, for a finding no idiom below covers.
var where = map[string]string{
	GeneratorZod:      "the schema is made from the Zod schema given to registerTool (MCP TypeScript SDK): change it there",
	GeneratorPydantic: "the schema is made from the tool function's signature by Pydantic (FastMCP, MCP Python SDK): change the parameter's type annotation or its Field(...)",
	GeneratorInvopop:  "the schema is reflected from a Go struct by github.com/invopop/jsonschema: change the field or its jsonschema tag",
	GeneratorGoSDK:    "the schema is inferred from the Go input struct by github.com/google/jsonschema-go (mcp.AddTool of the Go SDK): change the field or its jsonschema tag, or set Tool.InputSchema",
	"":                "change the tool's definition",
}

// idioms are the changes that settle a rule's finding, by generator.
var idioms = map[string]map[string]string{
	"description-present": {
		GeneratorZod:      "pass a description to registerTool",
		GeneratorPydantic: "give the tool function a docstring, or pass description= to @mcp.tool()",
		GeneratorGoSDK:    "set Description in the mcp.Tool given to mcp.AddTool",
		"":                "give the tool a description where the server defines it",
	},
	"openai-description-length": {
		GeneratorZod:      "shorten the description given to registerTool; move detail into the parameters' .describe()",
		GeneratorPydantic: "shorten the tool function's docstring (or description= of @mcp.tool()); move detail into Field(description=...)",
		GeneratorGoSDK:    "shorten the Description of the mcp.Tool; move detail into the struct fields' jsonschema tags",
		"":                "shorten the tool's description where the server defines it",
	},
	"tool-name-valid": {
		GeneratorZod:      "rename the tool in registerTool's first argument",
		GeneratorPydantic: "rename the tool function, or pass name= to @mcp.tool()",
		GeneratorGoSDK:    "change Name in the mcp.Tool given to mcp.AddTool",
	},
	"integer-accepts-string": {
		GeneratorZod:      "accept the string form in the schema: z.union([z.number().int(), z.string().regex(/^-?\\d+$/)]), and convert it in the handler",
		GeneratorPydantic: "type the parameter int | Annotated[str, Field(pattern=r\"^-?\\d+$\")] and convert it, or keep int: Pydantic's lax mode converts \"1\", only the schema must say so",
		GeneratorInvopop:  "declare both types on the field: jsonschema:\"oneof_type=integer;string\"",
	},
	"claude-output-schema-dialect": {
		GeneratorZod: "the MCP TypeScript SDK writes the Zod outputSchema as draft-07 and declares it in \"$schema\": list the tool without that \"$schema\" (a tools/list handler of your own can), or use an SDK version that writes 2020-12",
	},
	"openai-object-properties": {
		GeneratorZod:      "declare the object's properties: z.object({...}) rather than z.record() or z.any()",
		GeneratorPydantic: "declare the fields with a model (a BaseModel or TypedDict) rather than dict",
	},
}

// adviceFor says what to change in the server's code for d, in the idiom
// of the generator that made the tool, when mcplint can tell. gen tells
// the generator of a tool, remembering the last one's.
func adviceFor(d *lint.Diagnostic, m *manifest.Manifest, gen func(*manifest.Tool) string) string {
	if m == nil || d.ToolIndex < 0 || d.ToolIndex >= len(m.Tools) {
		return ""
	}
	g := gen(m.Tools[d.ToolIndex])
	if byGen, ok := idioms[d.Rule]; ok {
		if a, ok := byGen[g]; ok {
			return a
		}
	}
	return where[g]
}
