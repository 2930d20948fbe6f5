//go:build unix

package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/rules"
	"github.com/mcpfit/mcplint/schema"
)

// providerRefusals lists what a provider's documented rules refuse in one
// listed tool: the checks the converted documents of mcplint convert are
// held to (convert's golden test), and the findings of the provider's own
// rules on the listing.
func providerRefusals(client string, tool map[string]any) []string {
	var out []string
	name, _ := tool["name"].(string)
	names := map[string]*regexp.Regexp{
		"gemini":        regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`),
		"openai-strict": regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	}
	if !names[client].MatchString(name) {
		out = append(out, fmt.Sprintf("name %q", name))
	}
	root, _ := tool["inputSchema"].(map[string]any)
	if client == "openai-strict" {
		if root["type"] != "object" {
			out = append(out, "root type is not object")
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "enum"} {
			if _, ok := root[k]; ok {
				out = append(out, "root "+k)
			}
		}
	}
	schema.Walk(root, "", func(node *schema.Node) bool {
		n, ptr := node.Value, node.Pointer()
		switch client {
		case "gemini":
			for k := range n {
				if !normalize.GeminiSupports(k) {
					out = append(out, ptr+": keyword "+k)
				}
			}
		case "openai-strict":
			if schema.HasType(n, "object") {
				if n["additionalProperties"] != false {
					out = append(out, ptr+": object not closed")
				}
				if missing := normalize.MissingRequired(n); len(missing) > 0 {
					out = append(out, ptr+": not required: "+strings.Join(missing, ", "))
				}
			}
		}
		return true
	})
	return out
}

// TestProvidersAcceptListings: through --for gemini and --for
// openai-strict, every schema the real servers list passes the provider
// checks mcplint convert is tested against, and the provider's rules
// find nothing left to refuse; the calls still work.
func TestProvidersAcceptListings(t *testing.T) {
	node := nodePath(t)
	servers := map[string][]string{
		"everything": {node, referenceEntry(t, "everything"), "stdio"},
		"filesystem": {node, referenceEntry(t, "filesystem"), t.TempDir()},
		"zod":        {node, filepath.Join(testenv.Oracles(t), "zod-server.mjs")},
	}
	packs := map[string]string{"gemini": "gemini", "openai-strict": "openai-strict"}
	for name, command := range servers {
		for _, client := range []string{"gemini", "openai-strict"} {
			t.Run(name+" for "+client, func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				r := start(t, Options{Target: live.Target{Command: command}, For: client})
				cs := r.client(ctx)
				defer cs.Close()
				lt, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(lt.Tools) == 0 {
					t.Fatal("no tools listed")
				}
				doc, _ := json.Marshal(map[string]any{"tools": lt.Tools})
				var tools struct {
					Tools []map[string]any `json:"tools"`
				}
				_ = json.Unmarshal(doc, &tools)
				for _, tool := range tools.Tools {
					for _, p := range providerRefusals(client, tool) {
						t.Errorf("tool %v: %s would refuse it: %s", tool["name"], client, p)
					}
				}
				m, err := manifest.Load("listing", doc)
				if err != nil {
					t.Fatal(err)
				}
				l, err := lint.New(rules.All, lint.Config{Select: []string{packs[client]}})
				if err != nil {
					t.Fatal(err)
				}
				diags, err := l.Lint(m)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range diags {
					if d.Severity >= lint.Warning {
						t.Errorf("still refused: %s %s %s: %s", d.Rule, d.Tool, d.RelPointer, d.Message)
					}
				}
				if name == "everything" {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}})
					if err != nil || res.IsError {
						t.Errorf("get-sum: %+v, %v", res, err)
					}
				}
			})
		}
	}
}
