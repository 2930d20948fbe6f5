package oracletest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// sdkIssue is one complaint of sdk-list-tools.mjs.
type sdkIssue struct {
	Tool    *int   `json:"tool"`
	Path    []any  `json:"path"`
	Message string `json:"message"`
}

type sdkAnswer struct {
	SupportedVersions []string `json:"supportedVersions"`
	Results           []struct {
		ID     string     `json:"id"`
		Issues []sdkIssue `json:"issues"`
	} `json:"results"`
}

// sdkSamples prove the oracle refuses what the SDK's client refuses: each
// bad sample names the path of the issue it must raise.
var sdkSamples = []struct {
	name     string
	result   string
	wantPath string // "" for a list the SDK accepts
}{
	{"accepted", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}`, ""},
	{"accepted-extras", `{"tools": [{"name": "a", "title": "A", "inputSchema": {"type": "object", "x-any": 1}, "annotations": {"readOnlyHint": true}, "_meta": {"k": 1}}], "nextCursor": "c"}`, ""},
	{"no-tools", `{}`, "tools"},
	{"no-name", `{"tools": [{"inputSchema": {"type": "object"}}]}`, "tools.0.name"},
	{"no-input-schema", `{"tools": [{"name": "a"}]}`, "tools.0.inputSchema"},
	{"input-root-string", `{"tools": [{"name": "a", "inputSchema": {"type": "string"}}]}`, "tools.0.inputSchema.type"},
	{"input-root-untyped", `{"tools": [{"name": "a", "inputSchema": {"properties": {}}}]}`, "tools.0.inputSchema.type"},
	{"output-root-array", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}}]}`, "tools.0.outputSchema.type"},
	{"property-not-object", `{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {"p": true}}}]}`, "tools.0.inputSchema.properties.p"},
	{"required-not-strings", `{"tools": [{"name": "a", "inputSchema": {"type": "object", "required": [1]}}]}`, "tools.0.inputSchema.required.0"},
	{"annotation-not-boolean", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}]}`, "tools.0.annotations.readOnlyHint"},
	{"bad-tool-does-not-hide-another", `{"tools": [{"inputSchema": {"type": "object"}}, {"name": "b", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": "1"}}}}]}`, "tools.1.outputSchema"},
	{"output-schema-does-not-compile", `{"tools": [{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": "1"}}}}]}`, "tools.0.outputSchema"},
}

// TestSDK runs the MCP TypeScript SDK, in one node process, over the bad
// and good samples, over every fixed manifest (the committed fixed output
// of every rule case, and what `fix --select mcp,robust --unsafe-fixes`
// makes of the example and of every case input), and over what `convert
// --to mcp` writes for every valid source tool.
//
// The invariant, for every protocol version the SDK negotiates (a client of
// a later version is not built on this SDK): a manifest on which the "mcp"
// pack reports no error is accepted by the SDK, and every tool the SDK
// refuses carries an mcp error. Some fixed cases rightly still break the
// specification (a missing name cannot be fixed); they pass as long as
// mcplint says so.
func TestSDK(t *testing.T) {
	testenv.Oracles(t) // skip before the work, when the SDK cannot judge it
	subjects := append(fixedCases(t), fixed(t, "mcp", "robust")...)
	subjects = append(subjects, fixed(t, "default")...)
	subjects = append(subjects, convertedMCP(t)...)
	type request struct {
		ID     string `json:"id"`
		Result any    `json:"result"`
	}
	var batch []request
	for _, s := range sdkSamples {
		batch = append(batch, request{ID: "sample " + s.name, Result: json.RawMessage(s.result)})
	}
	for _, s := range subjects {
		batch = append(batch, request{ID: s.name, Result: listResult(t, s)})
	}
	var answer sdkAnswer
	runNode(t, "sdk-list-tools.mjs", batch, &answer)
	if len(answer.Results) != len(batch) {
		t.Fatalf("sdk-list-tools.mjs answered %d results for %d", len(answer.Results), len(batch))
	}
	byID := map[string][]sdkIssue{}
	for _, a := range answer.Results {
		byID[a.ID] = a.Issues
	}
	// The SDK speaks for the versions it negotiates; a client of a later
	// version is not built on it. mcplint must know each of them.
	var protocols []string
	for _, v := range answer.SupportedVersions {
		if lint.ValidProtocol(v) {
			protocols = append(protocols, v)
		} else if v >= "2024-11-05" {
			t.Errorf("the SDK negotiates protocol %s, which mcplint does not know", v)
		}
	}
	if len(protocols) == 0 {
		t.Fatalf("no protocol version shared with the SDK (it negotiates %v)", answer.SupportedVersions)
	}

	t.Run("samples", func(t *testing.T) {
		for _, s := range sdkSamples {
			issues := byID["sample "+s.name]
			switch {
			case s.wantPath == "" && len(issues) > 0:
				t.Errorf("%s: the SDK refused a good sample: %v", s.name, issues)
			case s.wantPath != "" && !hasPath(issues, s.wantPath):
				t.Errorf("%s: want an SDK issue at %s, got %v", s.name, s.wantPath, issues)
			}
		}
	})

	t.Run("manifests", func(t *testing.T) {
		for _, proto := range protocols {
			l, err := lint.New(rules.All, lint.Config{Select: []string{"mcp"}, Protocol: proto})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range subjects {
				diags, err := l.Lint(s.m)
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				compareSDK(t, proto, s, diags, byID[s.name])
			}
		}
	})
}

// convertedMCP is what `convert --to mcp` writes for every source tool
// that is valid MCP, one list per tool, loaded as a manifest.
func convertedMCP(t *testing.T) []subject {
	t.Helper()
	var out []subject
	for _, ct := range converted(t) {
		if ct.conv.target != "mcp" || !ct.valid {
			continue
		}
		b, err := json.Marshal(map[string]any{"tools": []any{ct.entry}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Load(ct.where, b)
		if err != nil {
			t.Fatalf("%s: convert's MCP output does not load: %v", ct.where, err)
		}
		out = append(out, subject{name: ct.where, m: m})
	}
	if len(out) == 0 {
		t.Fatal("no tool converted to MCP")
	}
	return out
}

// compareSDK reports every disagreement between the mcp pack and the SDK on
// one manifest.
func compareSDK(t *testing.T, proto string, s subject, diags []lint.Diagnostic, issues []sdkIssue) {
	t.Helper()
	errsByTool := map[int][]string{}
	anyErr := false
	for _, d := range diags {
		if d.Severity == lint.Error {
			anyErr = true
			errsByTool[d.ToolIndex] = append(errsByTool[d.ToolIndex], d.Rule)
		}
	}
	vals := toolValues(t, s)
	for _, is := range issues {
		if is.Tool == nil {
			if !anyErr {
				t.Errorf("%s (protocol %s): the SDK refuses the list (%s: %s) but the mcp pack reports no error",
					s.name, proto, joinPath(is.Path), is.Message)
			}
			continue
		}
		i := *is.Tool
		if allowed(sdkAllowances, s.name, toolName(vals[i], i), proto) {
			continue
		}
		if len(errsByTool[i]) == 0 {
			t.Errorf("%s (protocol %s): %s: the SDK refuses it (%s: %s) but the mcp pack reports no error on it",
				s.name, proto, toolName(vals[i], i), joinPath(is.Path), is.Message)
		}
	}
}

// sdkAllowances let the SDK refuse a tool the mcp pack passes, at the
// listed protocol versions: known disagreements, each with its reason.
var sdkAllowances = []allowance{}

func joinPath(p []any) string {
	parts := make([]string, len(p))
	for i, e := range p {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, ".")
}

func hasPath(issues []sdkIssue, path string) bool {
	for _, is := range issues {
		if joinPath(is.Path) == path {
			return true
		}
	}
	return false
}
