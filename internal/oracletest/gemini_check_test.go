package oracletest

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
)

// The Gemini checkers are written from Google's published function
// declaration schema, not from mcplint's code:
//
//   - the Schema object, https://ai.google.dev/api/caching#Schema, and the
//     same fields in @google/genai's `Schema` type
//     (https://googleapis.github.io/js-genai/interfaces/types.Schema.html):
//     type (one Type: STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT,
//     NULL), format, title, description, nullable, enum (strings), items
//     (one schema), minItems, maxItems, properties, propertyOrdering,
//     required, minProperties, maxProperties, minLength, maxLength,
//     pattern, minimum, maximum, anyOf, default, example; the int64 fields
//     as JSON numbers or decimal strings, as proto3 JSON reads them;
//   - FunctionDeclaration, https://ai.google.dev/api/caching#FunctionDeclaration:
//     name, description, parameters, parametersJsonSchema (mutually
//     exclusive with parameters, and describing an object), response,
//     responseJsonSchema, behavior;
//   - the API's refusals quoted in public threads: a field of no name above
//     ("Unknown name \"additionalProperties\" ... Cannot find field",
//     nanbingxyz/5ire#42, router-for-me/CLIProxyAPI#97 for "$schema"); a
//     type list ("Proto field is not repeating, cannot start list",
//     zed-industries/zed#44875); "enum: only allowed for STRING type"
//     (anomalyco/opencode#12911; the Schema reference adds integers with
//     "format": "enum"); "properties: should be non-empty for OBJECT type"
//     (pipecat-ai/pipecat-flows#110, agno-agi/agno#2112); an array without
//     items ("items: missing field", DEEIX-AI/DEEIX-Chat#546); the name rule
//     ("Must start with a letter or an underscore. Must be alphameric (a-z,
//     A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with
//     a maximum length of 64", Finerestaurant/kicad-mcp-python#2) and
//     "$schema" refused in parametersJsonSchema too
//     (GetStream/Vision-Agents#513).
//
// Type names are accepted in either case: the REST API reads the
// lower-case JSON Schema spellings the Gemini function-calling guide's
// examples use ("type": "object").

var geminiFields = map[string]bool{
	"type": true, "format": true, "title": true, "description": true, "nullable": true,
	"enum": true, "items": true, "minItems": true, "maxItems": true,
	"properties": true, "propertyOrdering": true, "required": true,
	"minProperties": true, "maxProperties": true, "minLength": true, "maxLength": true,
	"pattern": true, "minimum": true, "maximum": true, "anyOf": true,
	"default": true, "example": true,
}

var geminiTypes = map[string]bool{
	"STRING": true, "NUMBER": true, "INTEGER": true, "BOOLEAN": true, "ARRAY": true, "OBJECT": true, "NULL": true,
}

var geminiInt64Fields = []string{"minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"}

var geminiDeclarationFields = map[string]bool{
	"name": true, "description": true, "parameters": true, "parametersJsonSchema": true,
	"response": true, "responseJsonSchema": true, "behavior": true,
}

var geminiName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`)

var decimal = regexp.MustCompile(`^-?[0-9]+$`)

// checkGeminiDeclaration checks one entry of "functionDeclarations".
func checkGeminiDeclaration(d any) []string {
	var out []string
	add := func(ptr, format string, args ...any) { out = append(out, ptr+": "+fmt.Sprintf(format, args...)) }
	obj, ok := d.(map[string]any)
	if !ok {
		return []string{": a function declaration must be a JSON object, not " + kind(d)}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !geminiDeclarationFields[k] {
			add("", "unknown field %q of FunctionDeclaration", k)
		}
	}
	if name, _ := obj["name"].(string); !geminiName.MatchString(name) {
		add("/name", "invalid function name %s", jsonText(obj["name"]))
	}
	_, hasParams := obj["parameters"]
	_, hasJSON := obj["parametersJsonSchema"]
	if hasParams && hasJSON {
		add("", "parameters and parametersJsonSchema are mutually exclusive")
	}
	if hasParams {
		for _, v := range checkGeminiSchema(obj["parameters"], false) {
			out = append(out, "/parameters"+v)
		}
	}
	if hasJSON {
		for _, v := range checkGeminiJSONSchema(obj["parametersJsonSchema"]) {
			out = append(out, "/parametersJsonSchema"+v)
		}
	}
	sort.Strings(out)
	return out
}

// checkGeminiSchema checks a Schema object (the "parameters" form). With
// mcpRoot the schema is an MCP inputSchema that a client passes on: it may
// be an object without properties, since the client then declares the
// function without parameters.
func checkGeminiSchema(v any, mcpRoot bool) []string {
	c := &geminiChecker{}
	root, ok := v.(map[string]any)
	if !ok {
		return []string{": parameters must be a Schema object, not " + kind(v)}
	}
	if t, _ := root["type"].(string); strings.ToUpper(t) != "OBJECT" {
		c.add("", "parameters must have type OBJECT, has %s", jsonText(root["type"]))
	}
	c.node(root, "", mcpRoot)
	sort.Strings(c.out)
	return c.out
}

type geminiChecker struct{ out []string }

func (c *geminiChecker) add(ptr, format string, args ...any) {
	c.out = append(c.out, ptr+": "+fmt.Sprintf(format, args...))
}

func (c *geminiChecker) node(v any, ptr string, emptyObjectOK bool) {
	s, ok := v.(map[string]any)
	if !ok {
		c.add(ptr, "a Schema must be a JSON object, not %s", kind(v))
		return
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if !geminiFields[k] {
			c.add(ptr, "unknown field %q (Gemini: Cannot find field)", k)
		}
	}
	typ := ""
	if t, ok := s["type"]; ok {
		name, isString := t.(string)
		switch {
		case !isString:
			c.add(ptr+"/type", "type must be one name, not %s", kind(t))
		case !geminiTypes[strings.ToUpper(name)]:
			c.add(ptr+"/type", "type %q is not a Gemini Type", name)
		default:
			typ = strings.ToUpper(name)
		}
	}
	if e, ok := s["enum"]; ok {
		values, isArray := e.([]any)
		if !isArray {
			c.add(ptr+"/enum", "enum must be an array of strings")
		}
		for i, x := range values {
			if _, ok := x.(string); !ok {
				c.add(fmt.Sprintf("%s/enum/%d", ptr, i), "enum values must be strings, not %s", kind(x))
			}
		}
		if typ != "STRING" && !(s["format"] == "enum" && (typ == "INTEGER" || typ == "NUMBER")) {
			c.add(ptr+"/enum", "enum is only allowed for type STRING (or a number with format \"enum\"), type is %q", typ)
		}
	}
	for _, k := range geminiInt64Fields {
		if x, ok := s[k]; ok && !isInt64(x) {
			c.add(ptr+"/"+k, "%s must be an integer, is %s", k, jsonText(x))
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if x, ok := s[k]; ok && kind(x) != "a number" {
			c.add(ptr+"/"+k, "%s must be a number, is %s", k, kind(x))
		}
	}
	for _, k := range []string{"format", "title", "description", "pattern"} {
		if x, ok := s[k]; ok && kind(x) != "a string" {
			c.add(ptr+"/"+k, "%s must be a string, is %s", k, kind(x))
		}
	}
	if x, ok := s["nullable"]; ok && kind(x) != "a boolean" {
		c.add(ptr+"/nullable", "nullable must be a boolean, is %s", kind(x))
	}
	props, _ := s["properties"].(map[string]any)
	if p, ok := s["properties"]; ok && props == nil {
		c.add(ptr+"/properties", "properties must be an object, is %s", kind(p))
	}
	if typ == "OBJECT" && len(props) == 0 && !emptyObjectOK {
		c.add(ptr, "properties should be non-empty for OBJECT type")
	}
	for _, k := range []string{"required", "propertyOrdering"} {
		if x, ok := s[k]; ok {
			names, isArray := x.([]any)
			if !isArray {
				c.add(ptr+"/"+k, "%s must be an array of names", k)
			}
			for _, n := range names {
				if _, ok := n.(string); !ok {
					c.add(ptr+"/"+k, "%s must list names, has %s", k, jsonText(n))
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		c.node(props[name], ptr+"/properties/"+pointer.Escape(name), false)
	}
	if items, ok := s["items"]; ok {
		c.node(items, ptr+"/items", false)
	} else if typ == "ARRAY" {
		c.add(ptr, "an ARRAY needs items (Gemini: items: missing field)")
	}
	if a, ok := s["anyOf"]; ok {
		branches, isArray := a.([]any)
		if !isArray {
			c.add(ptr+"/anyOf", "anyOf must be an array of Schemas")
		}
		for i, b := range branches {
			c.node(b, fmt.Sprintf("%s/anyOf/%d", ptr, i), false)
		}
	}
}

// checkGeminiJSONSchema checks a parametersJsonSchema: JSON Schema, which
// Ajv judges; here only what Gemini adds: an object at the root, and no
// "$schema".
func checkGeminiJSONSchema(v any) []string {
	root, ok := v.(map[string]any)
	if !ok {
		return []string{": parametersJsonSchema must be a JSON object, not " + kind(v)}
	}
	var out []string
	if root["type"] != "object" {
		out = append(out, fmt.Sprintf(": parametersJsonSchema must describe an object (\"type\": \"object\"), has type %s", jsonText(root["type"])))
	}
	if _, ok := root["$schema"]; ok {
		out = append(out, `: "$schema" is refused`)
	}
	return out
}

func isInt64(v any) bool {
	switch x := v.(type) {
	case string:
		return decimal.MatchString(x)
	default:
		return kind(v) == "a number" && decimal.MatchString(jsonText(v))
	}
}
