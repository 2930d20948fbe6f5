package oracletest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/pointer"
)

// checkOpenAIStrict lists what OpenAI's strict mode (Structured Outputs,
// which function tools use with "strict": true) refuses in a function's
// "parameters". It is written from OpenAI's documentation and the API's
// own error messages, not from mcplint's code:
//
//   - https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas
//     (formerly platform.openai.com/docs/guides/structured-outputs):
//     supported types (string, number, boolean, integer, object, array,
//     enum, anyOf: a schema says which by "type", "enum", "const", "anyOf"
//     or "$ref"); "root objects must not be anyOf and must be an
//     object"; "all fields must be required"; "additionalProperties: false
//     must always be set in objects"; the supported properties (string:
//     pattern, format; number: multipleOf, maximum, exclusiveMaximum,
//     minimum, exclusiveMinimum; array: minItems, maxItems) and string
//     formats (date-time, time, date, duration, email, hostname, ipv4,
//     ipv6, uuid); unsupported composition (allOf, not, dependentRequired,
//     dependentSchemas, if, then, else); "$defs" and "$ref" (including
//     "#" for recursion); the limits: 5,000 object properties, 10 levels of
//     nesting, 1,000 enum values, 120,000 characters of property names,
//     definition names, enum and const values, and 15,000 characters for a
//     string enum of more than 250 values.
//   - The function-calling guide, "Strict mode"
//     (https://developers.openai.com/api/docs/guides/function-calling):
//     the same two rules for functions with "strict": true.
//   - API errors quoted in public threads: "schema must have type 'object'
//     and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top
//     level" (langchain-ai/langchainjs#9804), "'oneOf' is not permitted"
//     (community.openai.com/t/932422), "schema must have a 'type' key"
//     (can1357/oh-my-pi#211), "'uri' is not a valid format"
//     (can1357/oh-my-pi#206), "$ref cannot have keywords {'description'}",
//     "default", "minLength" and "maxLength" refused in strict mode
//     (openai/openai-node#1988), "'propertyNames' is not permitted"
//     (can1357/oh-my-pi#209), and "'required' must be an array that
//     includes every key in properties. Extra required key 'recipe'
//     supplied" (dotnet/extensions#6302).
//
// "title" is accepted besides "description": OpenAI's own SDK helpers send
// the titles pydantic writes on every field in strict mode.
func checkOpenAIStrict(params any) []string {
	c := &openaiChecker{}
	root, ok := params.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf(": parameters is %s, not a JSON object", kind(params))}
	}
	if root["type"] != "object" {
		c.add("", "the root must have type \"object\", has %s", jsonText(root["type"]))
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "enum", "const", "not"} {
		if _, ok := root[k]; ok {
			c.add("", "%q at the root", k)
		}
	}
	c.root = root
	c.node(root, "", 1)
	c.limits()
	sort.Strings(c.out)
	return c.out
}

type openaiChecker struct {
	root       map[string]any
	out        []string
	properties int
	enumValues int
	chars      int
}

func (c *openaiChecker) add(ptr, format string, args ...any) {
	c.out = append(c.out, ptr+": "+fmt.Sprintf(format, args...))
}

var openaiKeywords = map[string]bool{
	"type": true, "description": true, "title": true,
	"properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "const": true, "anyOf": true,
	"$ref": true, "$defs": true,
	"pattern": true, "format": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"minItems": true, "maxItems": true,
}

var openaiFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

var openaiTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true, "null": true,
}

// node checks one schema; level counts the objects nested down to it.
func (c *openaiChecker) node(v any, ptr string, level int) {
	s, ok := v.(map[string]any)
	if !ok {
		c.add(ptr, "a schema must be a JSON object, not %s", kind(v))
		return
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if !openaiKeywords[k] {
			c.add(ptr, "keyword %q is not among those strict mode supports", k)
		}
	}
	if ref, ok := s["$ref"]; ok {
		c.ref(s, ref, ptr)
		return
	}
	types, hasType := c.types(s, ptr)
	if !hasType && s["anyOf"] == nil && s["enum"] == nil && s["const"] == nil {
		c.add(ptr, "the schema must have a \"type\" (or be an enum, a const, an anyOf or a $ref)")
	}
	if types["object"] {
		if level > 10 {
			c.add(ptr, "%d levels of object nesting exceed the limit of 10", level)
		}
		if ap, ok := s["additionalProperties"]; !ok || ap != false {
			c.add(ptr, "an object must have \"additionalProperties\": false")
		}
		props, _ := s["properties"].(map[string]any)
		if p, ok := s["properties"]; ok && props == nil {
			c.add(ptr+"/properties", "properties must be an object, is %s", kind(p))
		}
		req := map[string]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, n := range r {
				if name, ok := n.(string); ok {
					req[name] = true
					if _, declared := props[name]; !declared {
						c.add(ptr+"/required", "\"required\" lists %q, which \"properties\" does not declare (\"Extra required key supplied\")", name)
					}
				}
			}
		} else if _, ok := s["required"]; ok {
			c.add(ptr+"/required", "required must be an array of names")
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			c.properties++
			c.chars += utf8.RuneCountInString(name)
			if !req[name] {
				c.add(ptr, "property %q is not in \"required\" (strict mode requires every property; write an optional one as a union with \"null\")", name)
			}
			c.node(props[name], ptr+"/properties/"+pointer.Escape(name), level+1)
		}
	}
	if f, ok := s["format"]; ok {
		if name, _ := f.(string); !openaiFormats[name] {
			c.add(ptr, "format %s is not one strict mode supports", jsonText(f))
		}
	}
	if items, ok := s["items"]; ok {
		c.node(items, ptr+"/items", level+boolInt(isObjectSchema(items)))
	}
	if branches, ok := s["anyOf"].([]any); ok {
		for i, b := range branches {
			c.node(b, fmt.Sprintf("%s/anyOf/%d", ptr, i), level+boolInt(isObjectSchema(b)))
		}
	} else if _, ok := s["anyOf"]; ok {
		c.add(ptr+"/anyOf", "anyOf must be an array")
	}
	if defs, ok := s["$defs"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(defs)) {
			c.chars += utf8.RuneCountInString(name)
			c.node(defs[name], ptr+"/$defs/"+pointer.Escape(name), 1)
		}
	}
	c.enum(s, ptr)
}

// types reads "type", reporting names strict mode does not know.
func (c *openaiChecker) types(s map[string]any, ptr string) (map[string]bool, bool) {
	out := map[string]bool{}
	t, ok := s["type"]
	if !ok {
		return out, false
	}
	var names []any
	switch x := t.(type) {
	case string:
		names = []any{x}
	case []any:
		names = x
	default:
		c.add(ptr+"/type", "type must be a name or a list of names, is %s", kind(t))
	}
	for _, n := range names {
		name, _ := n.(string)
		if !openaiTypes[name] {
			c.add(ptr+"/type", "type %s is not one strict mode supports", jsonText(n))
		}
		out[name] = true
	}
	return out, true
}

// ref checks a "$ref": alone in its schema, and pointing into the schema.
func (c *openaiChecker) ref(s map[string]any, ref any, ptr string) {
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if k != "$ref" {
			c.add(ptr, "$ref cannot have keywords beside it (has %q)", k)
		}
	}
	r, _ := ref.(string)
	if r == "#" {
		return
	}
	name, ok := strings.CutPrefix(r, "#/$defs/")
	if decoded, err := url.PathUnescape(name); err == nil {
		name = decoded // a URI fragment: percent-encoded
	}
	defs, _ := c.root["$defs"].(map[string]any)
	if _, found := defs[pointer.Unescape(name)]; !ok || !found {
		c.add(ptr, "$ref %s does not name a definition of the root's $defs", jsonText(ref))
	}
}

// enum counts enum and const values towards the limits.
func (c *openaiChecker) enum(s map[string]any, ptr string) {
	if v, ok := s["const"]; ok {
		if str, ok := v.(string); ok {
			c.chars += utf8.RuneCountInString(str)
		}
	}
	e, ok := s["enum"]
	if !ok {
		return
	}
	values, ok := e.([]any)
	if !ok {
		c.add(ptr+"/enum", "enum must be an array")
		return
	}
	c.enumValues += len(values)
	strChars, allStrings := 0, true
	for _, v := range values {
		if str, ok := v.(string); ok {
			strChars += utf8.RuneCountInString(str)
		} else {
			allStrings = false
		}
	}
	c.chars += strChars
	if allStrings && len(values) > 250 && strChars > 15000 {
		c.add(ptr+"/enum", "a string enum of %d values (more than 250) totals %d characters, over the limit of 15,000", len(values), strChars)
	}
}

func (c *openaiChecker) limits() {
	if c.properties > 5000 {
		c.add("", "%d object properties exceed the limit of 5,000", c.properties)
	}
	if c.enumValues > 1000 {
		c.add("", "%d enum values exceed the limit of 1,000", c.enumValues)
	}
	if c.chars > 120000 {
		c.add("", "%d characters of names, enum and const values exceed the limit of 120,000", c.chars)
	}
}

// openaiFunctionName is the name rule of OpenAI's FunctionDefinition
// ("Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
// maximum length of 64"; API reference, chat/create, tools.function.name).
var openaiFunctionName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func isObjectSchema(v any) bool {
	s, ok := v.(map[string]any)
	if !ok {
		return false
	}
	switch t := s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		for _, n := range t {
			if n == "object" {
				return true
			}
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func jsonText(v any) string {
	if v == nil {
		return "none"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
