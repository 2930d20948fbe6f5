package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The rules the tests of other consumers' formats run: a schema fix, a
// description fix and naming findings, which read the members the formats
// rename.
const foreignRules = "--select=input-schema-root-object,tool-name-valid,description-present,test-trim-description"

// foreignCases are OpenAI Chat Completions, Anthropic and Gemini files, what
// lint reports on them and what fix makes of them.
var foreignCases = []struct {
	file string
	lint string
	// fixed is the file after the safe fixes, as pairs of old and new text
	// replaced in the source: everything else stays byte for byte.
	fixed     []string
	remaining string
}{{
	file: "testdata/foreign/openai-chat.json",
	lint: `testdata/foreign/openai-chat.json:9:9: warning test-trim-description: description ends with a space
  |
9 |         "description": "Weather for a city. ",
  |         ^
  = hint: unsafe fix available with --unsafe-fixes (trim it)

testdata/foreign/openai-chat.json:10:9: error input-schema-root-object: parameters has no "type"; MCP requires "type": "object" at the root: add it
   |
10 |         "parameters": {
   |         ^
   = refused by: MCP specification, MCP TypeScript SDK, OpenAI Chat Completions, OpenAI Responses, OpenAI strict mode (and so Claude Code, Cursor)
   = hint: fixable with ` + "`mcplint fix`" + ` (add "type": "object")

testdata/foreign/openai-chat.json:18:19: error input-schema-root-object: tool has no "parameters"; every tool needs one, {"type": "object"} for a tool without parameters
   |
18 |       "function": {"name": "ping", "description": "Check the server answers."}
   |                   ^
   = refused by: MCP specification, MCP TypeScript SDK, OpenAI Chat Completions, OpenAI Responses, OpenAI strict mode (and so Claude Code, Cursor)
   = hint: fixable with ` + "`mcplint fix`" + ` (add "parameters": {"type": "object"})

context: 2 tools, about 42 tokens of tool definitions (estimated)
2 errors, 1 warning, 0 infos in 1 file (2 fixable, 1 more with --unsafe-fixes)
`,
	fixed: []string{
		`"properties": {"city": {"type": "string"}}
        },`, `"properties": {"city": {"type": "string"}},
          "type": "object"
        },`,
		`"description": "Check the server answers."}`, `"description": "Check the server answers.", "parameters": {"type": "object"}}`,
	},
	remaining: "0 errors, 1 warning, 0 infos in 1 file (2 fixed in the output, 1 fixable with --unsafe-fixes)\n",
}, {
	file: "testdata/foreign/anthropic.yaml",
	lint: `testdata/foreign/anthropic.yaml:4:3: error input-schema-root-object: input_schema has no "type"; MCP requires "type": "object" at the root: add it
  |
4 |   input_schema:
  |   ^
  = refused by: MCP specification, MCP TypeScript SDK, OpenAI Chat Completions, OpenAI Responses, OpenAI strict mode (and so Claude Code, Cursor)
  = hint: fixable with ` + "`mcplint fix`" + ` (add "type": "object")

testdata/foreign/anthropic.yaml:9:3: warning tool-name-valid: tool name "get weather" contains a space; use only A-Z a-z 0-9 _ - .
  |
9 | - name: get weather
  |   ^
  = discouraged by: MCP specification (SHOULD)

context: 2 tools, about 59 tokens of tool definitions (estimated)
1 error, 1 warning, 0 infos in 1 file (1 fixable)
`,
	fixed:     []string{"      city: {type: string}\n", "      city: {type: string}\n    type: object\n"},
	remaining: "1 warning, 0 infos in 1 file (1 fixed in the output)\n",
}, {
	file: "testdata/foreign/gemini.json",
	lint: `testdata/foreign/gemini.json:9:11: error input-schema-root-object: parametersJsonSchema has no "type"; MCP requires "type": "object" at the root: add it
  |
9 |           "parametersJsonSchema": {
  |           ^
  = refused by: MCP specification, MCP TypeScript SDK, OpenAI Chat Completions, OpenAI Responses, OpenAI strict mode (and so Claude Code, Cursor)
  = hint: fixable with ` + "`mcplint fix`" + ` (add "type": "object")

testdata/foreign/gemini.json:14:9: warning description-present: tool "ping" has no description; the model needs one to know when and how to call it
   |
14 |         {"name": "ping"}
   |         ^

testdata/foreign/gemini.json:14:9: error input-schema-root-object: tool has no "parameters"; every tool needs one, {"type": "object"} for a tool without parameters
   |
14 |         {"name": "ping"}
   |         ^
   = refused by: MCP specification, MCP TypeScript SDK, OpenAI Chat Completions, OpenAI Responses, OpenAI strict mode (and so Claude Code, Cursor)
   = hint: fixable with ` + "`mcplint fix`" + ` (add "parameters": {"type": "object"})

context: 2 tools, about 36 tokens of tool definitions (estimated)
2 errors, 1 warning, 0 infos in 1 file (2 fixable)
`,
	fixed: []string{
		`"required": ["q"]
`, `"required": ["q"],
            "type": "object"
`,
		`{"name": "ping"}`, `{"name": "ping", "parameters": {"type": "object"}}`,
	},
	remaining: "1 warning, 0 infos in 1 file (2 fixed in the output)\n",
}}

func TestForeignLint(t *testing.T) {
	for _, tc := range foreignCases {
		t.Run(tc.file, func(t *testing.T) {
			r := mcplint(t, runOpts{}, "lint", foreignRules, tc.file)
			r.want(t, 1)
			if diff := cmp.Diff(tc.lint, r.stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}

func TestForeignFix(t *testing.T) {
	for _, tc := range foreignCases {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			want := string(src)
			for i := 0; i < len(tc.fixed); i += 2 {
				if strings.Count(want, tc.fixed[i]) != 1 {
					t.Fatalf("the source does not hold %q once", tc.fixed[i])
				}
				want = strings.Replace(want, tc.fixed[i], tc.fixed[i+1], 1)
			}
			r := mcplint(t, runOpts{}, "fix", foreignRules, tc.file)
			r.want(t, 0)
			if diff := cmp.Diff(want, r.stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if !strings.HasSuffix(r.stderr, tc.remaining) {
				t.Errorf("stderr ends %q, want %q:\n%s", r.stderr, tc.remaining, r.stderr)
			}
		})
	}
}

// TestForeignFixInPlace rewrites a copy with the unsafe fix too: the
// description trimmed is the inner "function" object's.
func TestForeignFixInPlace(t *testing.T) {
	src, err := os.ReadFile("testdata/foreign/openai-chat.json")
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/tools.json"
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcplint(t, runOpts{}, "fix", "-w", "--unsafe-fixes", foreignRules, path)
	r.want(t, 0)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Model string
		Tools []struct {
			Type     string
			Function struct {
				Name        string
				Description string
				Parameters  map[string]any
				Strict      *bool
			}
		}
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatalf("the fixed file is not JSON: %v\n%s", err, got)
	}
	if doc.Model != "gpt-4.1" || len(doc.Tools) != 3 || doc.Tools[0].Type != "web_search" {
		t.Errorf("the request around the tools changed:\n%s", got)
	}
	f := doc.Tools[1].Function
	if f.Description != "Weather for a city." || f.Parameters["type"] != "object" || f.Strict == nil || *f.Strict {
		t.Errorf("get_weather after fix: %+v", f)
	}
	// Running again finds nothing left to do.
	r = mcplint(t, runOpts{}, "lint", foreignRules, path)
	r.want(t, 0)
}
