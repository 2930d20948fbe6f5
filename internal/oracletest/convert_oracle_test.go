package oracletest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/rules"
)

// conversion is one way of running convert.To.
type conversion struct {
	name   string
	target string
	opts   convert.Options
}

var conversions = []conversion{
	{"mcp", "mcp", convert.Options{}},
	{"openai", "openai", convert.Options{}},
	{"openai --strict", "openai", convert.Options{Strict: true}},
	{"openai --api responses --strict", "openai", convert.Options{Strict: true, API: "responses"}},
	{"anthropic", "anthropic", convert.Options{}},
	{"gemini", "gemini", convert.Options{}},
	{"gemini --gemini-json-schema", "gemini", convert.Options{GeminiJSONSchema: true}},
}

// convertedTool is one tool of convert's output.
type convertedTool struct {
	where  string         // source file, conversion and tool, for messages
	conv   conversion     // how it was made
	entry  map[string]any // the tool as the target lists it
	name   string
	schema any // inputSchema, parameters, input_schema or parametersJsonSchema
	// valid is whether the mcp pack passes the source tool: convert owes a
	// target-accepted output only for a tool that is valid MCP (garbage in,
	// such as a $ref that resolves nowhere, may stay garbage).
	valid bool
	// refused says whether convert reported a refusal for the tool (the
	// command then exits 1).
	refused bool
}

// excused says whether convert may have written what a checker found: only
// when it reported a refusal for the tool. Warnings excuse nothing: a
// conversion that only warns promises an output the target accepts.
func (ct convertedTool) excused(string) bool { return ct.refused }

var (
	convertOnce  sync.Once
	convertOut   []convertedTool
	convertErr   []string
	convertValid int // source tools that are valid MCP
)

// converted runs every conversion over every source (the example, every
// case input and every committed fixed case) once, and returns the tools
// written. A source convert refuses as a whole is converted tool by tool,
// so one tool it cannot take does not hide the others.
func converted(t *testing.T) []convertedTool {
	t.Helper()
	convertOnce.Do(func() {
		l, err := lint.New(rules.All, lint.Config{Select: []string{"mcp"}})
		if err != nil {
			t.Fatal(err)
		}
		sources := append(fixInputs(t), caseFiles(t, "fixed.*")...)
		for _, rel := range sources {
			m := readManifest(t, rel)
			diags, err := l.Lint(m)
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			invalid := map[int]bool{}
			for _, d := range diags {
				if d.Severity == lint.Error {
					invalid[d.ToolIndex] = true
				}
			}
			tools, err := convert.FromManifest(m)
			if err != nil {
				// convert refuses a file with a tool that is no MCP tool
				// at all; mcplint must say so too.
				if len(invalid) == 0 {
					convertErr = append(convertErr, fmt.Sprintf("%s: convert refuses the file (%v) but the mcp pack finds no error in it", rel, err))
				}
				continue
			}
			for i := range tools {
				if !invalid[tools[i].Index] {
					convertValid++
				}
			}
			for _, c := range conversions {
				convertOut = append(convertOut, convertSource(t, rel, c, tools, invalid)...)
			}
		}
	})
	for _, e := range convertErr {
		t.Error(e)
	}
	if convertValid == 0 {
		t.Fatal("no valid source tool was converted")
	}
	return convertOut
}

func convertSource(t *testing.T, rel string, c conversion, tools []convert.Tool, invalid map[int]bool) []convertedTool {
	t.Helper()
	out, warns, err := convert.To(c.target, tools, c.opts)
	if err == nil {
		return entries(t, fmt.Sprintf("%s (%s)", rel, c.name), c, out, warns, tools, invalid)
	}
	var all []convertedTool
	for _, tool := range tools {
		one := []convert.Tool{tool}
		out, warns, err := convert.To(c.target, one, c.opts)
		if err != nil {
			// A tool no target takes (an input schema that admits no
			// object): mcplint must report it.
			if !invalid[tool.Index] {
				t.Errorf("%s (%s): convert refuses tool %d (%v) but the mcp pack finds no error on it", rel, c.name, tool.Index, err)
			}
			continue
		}
		all = append(all, entries(t, fmt.Sprintf("%s (%s, tool %d alone)", rel, c.name, tool.Index), c, out, warns, one, invalid)...)
	}
	return all
}

// entries reads the tools of one output document, which lists the tools
// converted in their order.
func entries(t *testing.T, where string, c conversion, doc []byte, warns []convert.Warning, tools []convert.Tool, invalid map[int]bool) []convertedTool {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: the output is not JSON: %v", where, err)
	}
	key := "tools"
	if c.target == "gemini" {
		key = "functionDeclarations"
	}
	list, ok := v[key].([]any)
	if !ok {
		t.Fatalf("%s: the output has no %q array", where, key)
	}
	if len(list) != len(tools) {
		t.Fatalf("%s: %d tools written for %d", where, len(list), len(tools))
	}
	var out []convertedTool
	for i, e := range list {
		entry, _ := e.(map[string]any)
		ct := convertedTool{where: fmt.Sprintf("%s %s[%d]", where, key, i), conv: c, entry: entry, valid: !invalid[tools[i].Index]}
		for _, w := range warns {
			if w.Index == tools[i].Index && w.Refused {
				ct.refused = true
			}
		}
		fields := entry
		if c.target == "openai" && c.opts.API != "responses" {
			fields, _ = entry["function"].(map[string]any)
		}
		ct.name, _ = fields["name"].(string)
		switch {
		case c.target == "mcp":
			ct.schema = fields["inputSchema"]
		case c.target == "openai":
			ct.schema = fields["parameters"]
		case c.target == "anthropic":
			ct.schema = fields["input_schema"]
		case c.opts.GeminiJSONSchema:
			ct.schema = fields["parametersJsonSchema"]
		default:
			ct.schema = fields["parameters"]
		}
		out = append(out, ct)
	}
	return out
}

// TestConvertAjv compiles with Ajv in strict mode every schema converted
// from a valid source tool: convert's output has no excuse.
func TestConvertAjv(t *testing.T) {
	answers := ajvAll(t)
	for _, ct := range converted(t) {
		if !ct.valid || ct.schema == nil {
			continue // no schema: a Gemini function without parameters
		}
		a, ok := answers[ct.where]
		if !ok {
			t.Fatalf("%s: not compiled", ct.where)
		}
		if a.Error != nil && !known(ct.where, "Ajv: "+*a.Error) {
			t.Errorf("%s: Ajv strict (%s) refuses the schema: %s", ct.where, a.Dialect, *a.Error)
		}
	}
}

// TestConvertOpenAI checks convert's OpenAI tools: strict ones with the
// strict-mode checker, all with what the API demands of any function.
func TestConvertOpenAI(t *testing.T) {
	n := 0
	for _, ct := range converted(t) {
		if ct.conv.target != "openai" || !ct.valid {
			continue
		}
		n++
		if ct.entry["type"] != "function" {
			t.Errorf("%s: \"type\" is %s, want \"function\"", ct.where, jsonText(ct.entry["type"]))
		}
		if !openaiFunctionName.MatchString(ct.name) {
			t.Errorf("%s: function name %q is not ^[a-zA-Z0-9_-]{1,64}$", ct.where, ct.name)
		}
		fields := ct.entry
		if ct.conv.opts.API != "responses" {
			fields, _ = ct.entry["function"].(map[string]any)
		}
		if fields["strict"] != ct.conv.opts.Strict {
			t.Errorf("%s: \"strict\" is %s, want %v", ct.where, jsonText(fields["strict"]), ct.conv.opts.Strict)
		}
		var violations []string
		if ct.conv.opts.Strict {
			violations = checkOpenAIStrict(ct.schema)
		} else {
			violations = checkRootObject(ct.schema, []string{"anyOf", "oneOf", "allOf", "enum", "const", "not"})
		}
		for _, v := range violations {
			if !ct.excused(violationPointer(v)) && !known(ct.where, v) {
				t.Errorf("%s %q: %s", ct.where, ct.name, v)
			}
		}
	}
	if n == 0 {
		t.Fatal("no OpenAI tool converted")
	}
}

// anthropicName is the tool name rule of the Messages API
// ("tools.0.custom.name: String should match pattern
// '^[a-zA-Z0-9_-]{1,128}$'", home-assistant/core#147760).
var anthropicName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)

// TestConvertAnthropic checks convert's Anthropic tools: the name rule, and
// an input_schema of type object without a combinator at its root
// ("input_schema does not support oneOf, allOf, or anyOf at the top level",
// anthropics/claude-code#4886). Ajv judges the rest (the API demands valid
// JSON Schema 2020-12, anthropics/claude-code#586).
func TestConvertAnthropic(t *testing.T) {
	n := 0
	for _, ct := range converted(t) {
		if ct.conv.target != "anthropic" || !ct.valid {
			continue
		}
		n++
		if !anthropicName.MatchString(ct.name) {
			t.Errorf("%s: tool name %q is not ^[a-zA-Z0-9_-]{1,128}$", ct.where, ct.name)
		}
		for _, v := range checkRootObject(ct.schema, []string{"oneOf", "allOf", "anyOf"}) {
			if !ct.excused(violationPointer(v)) && !known(ct.where, v) {
				t.Errorf("%s %q: %s", ct.where, ct.name, v)
			}
		}
	}
	if n == 0 {
		t.Fatal("no Anthropic tool converted")
	}
}

// TestConvertGemini checks convert's function declarations, both forms.
func TestConvertGemini(t *testing.T) {
	n := 0
	for _, ct := range converted(t) {
		if ct.conv.target != "gemini" || !ct.valid {
			continue
		}
		n++
		for _, v := range checkGeminiDeclaration(ct.entry) {
			ptr := violationPointer(v)
			ptr = strings.TrimPrefix(strings.TrimPrefix(ptr, "/parametersJsonSchema"), "/parameters")
			if !ct.excused(ptr) && !known(ct.where, v) {
				t.Errorf("%s %q: %s", ct.where, ct.name, v)
			}
		}
	}
	if n == 0 {
		t.Fatal("no Gemini declaration converted")
	}
}

// violationPointer is the pointer a checker's violation starts with.
func violationPointer(v string) string {
	ptr, _, _ := strings.Cut(v, ": ")
	return ptr
}

// checkRootObject is what every consumer demands of a tool's parameters: a
// JSON object of type "object", without the listed keywords at the root.
func checkRootObject(v any, refused []string) []string {
	s, ok := v.(map[string]any)
	if !ok {
		return []string{": the schema is " + kind(v) + ", not a JSON object"}
	}
	var out []string
	if s["type"] != "object" {
		out = append(out, fmt.Sprintf(": the root must have type \"object\", has %s", jsonText(s["type"])))
	}
	for _, k := range refused {
		if _, ok := s[k]; ok {
			out = append(out, fmt.Sprintf(": %q at the root", k))
		}
	}
	return out
}
