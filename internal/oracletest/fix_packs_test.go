package oracletest

import (
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/rules"
)

// TestFixOpenAIStrict runs the OpenAI strict-mode checker on what `fix
// --select openai,openai-strict --unsafe-fixes` makes of the example and of
// every case input: a tool's inputSchema is what a client sends as the
// function's parameters. What the checker still finds must be a finding the
// packs still report there (a limit no fix can meet, a name for the user to
// choose): the fix must not leave a tool that lints clean and is refused.
func TestFixOpenAIStrict(t *testing.T) {
	judgeFixed(t, []string{"openai", "openai-strict"}, func(tool map[string]any, _ string) []string {
		var out []string
		if name, _ := tool["name"].(string); !openaiFunctionName.MatchString(name) {
			out = append(out, "/name: function name "+jsonText(tool["name"])+" is not ^[a-zA-Z0-9_-]{1,64}$")
		}
		for _, v := range checkOpenAIStrict(tool["inputSchema"]) {
			out = append(out, "/inputSchema"+v)
		}
		return out
	})
}

// TestFixGemini runs the Gemini checker on what `fix --select gemini
// --unsafe-fixes` makes of the example and of every case input: the pack
// checks inputSchema as Gemini's "parameters" takes it. A tool without
// properties passes (a client declares it without parameters). A Gemini
// declaration read from parametersJsonSchema holds full JSON Schema, which
// that member accepts (FunctionDeclaration, ai.google.dev/api/caching), so
// only its name is judged.
func TestFixGemini(t *testing.T) {
	judgeFixed(t, []string{"gemini"}, func(tool map[string]any, schemaKey string) []string {
		var out []string
		if name, _ := tool["name"].(string); !geminiName.MatchString(name) {
			out = append(out, "/name: invalid function name "+jsonText(tool["name"]))
		}
		if schemaKey == "parametersJsonSchema" || schemaKey == "parameters_json_schema" {
			return out
		}
		for _, v := range checkGeminiSchema(tool["inputSchema"], true) {
			out = append(out, "/inputSchema"+v)
		}
		return out
	})
}

// judgeFixed fixes every input with the selection, checks every tool, and
// reports each violation that neither the selection nor the mcp pack (on by
// default; a tool that is no valid MCP tool is its business) reports at, or
// above, or below its place.
func judgeFixed(t *testing.T, selection []string, check func(tool map[string]any, schemaKey string) []string) {
	t.Helper()
	l, err := lint.New(rules.All, lint.Config{Select: append([]string{"mcp"}, selection...)})
	if err != nil {
		t.Fatal(err)
	}
	tools := 0
	for _, s := range fixed(t, selection...) {
		diags, err := l.Lint(s.m)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for i, v := range toolValues(t, s) {
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			tools++
			for _, violation := range check(obj, s.m.Tools[i].SchemaKey) {
				ptr := violationPointer(violation)
				if !remains(diags, i, ptr) && !known(s.name, violation) {
					t.Errorf("%s: %s: %s; but mcplint (mcp, %s) reports nothing there", s.name, toolName(v, i), violation, strings.Join(selection, ", "))
				}
			}
		}
	}
	if tools == 0 {
		t.Fatal("no tool judged")
	}
}

// remains says whether a finding of the tool sits at ptr, above it or below
// it.
func remains(diags []lint.Diagnostic, tool int, ptr string) bool {
	for _, d := range diags {
		if d.ToolIndex != tool {
			continue
		}
		p := d.RelPointer
		if p == ptr || p == "" || strings.HasPrefix(ptr, p+"/") || strings.HasPrefix(p, ptr+"/") {
			return true
		}
	}
	return false
}
