package rules

import (
	"fmt"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// CapabilitiesMatch compares what a server declares with what it serves.
var CapabilitiesMatch = &lint.Rule{
	ID:       "capabilities-match",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "capabilities", Source: "MCP specification, server/tools, server/prompts, server/resources: \"Capabilities\"; basic/lifecycle, \"Operation\""},
	},
	Summary:      "the server declares the tools, prompts and resources capabilities exactly for what it serves",
	Fix:          lint.NoFix,
	CheckSurface: checkCapabilitiesMatch,
	Doc: `A server says in its handshake result (initialize, or server/discover from
2026-07-28) which features it offers: "capabilities" has a "tools",
"prompts" or "resources" member for each. The lifecycle asks clients to
"only use capabilities that were successfully negotiated", and the SDKs
enforce it: the TypeScript SDK's client, with its enforceStrictCapabilities
option, refuses to send prompts/list to a server without "prompts" ("Server
does not support prompts (required for prompts/list)"), as do the clients
of the Kotlin SDK. So:

  - a server that serves prompts (or tools, or resources and resource
    templates) without declaring the capability has them listed by no
    client that follows the rules: the specification says servers that
    support them MUST declare it;
  - a server that declares a capability and answers its list request with
    an error (typically -32601, method not found) makes every client that
    trusts the declaration fail, on every connection.

A declared list that fails breaks real clients: Visual Studio 2022 fails to
load a server that declares prompts and answers prompts/list with "Method
not found" (arabold/docs-mcp-server#226), and Gemini CLI reports the error on
every start (google-gemini/gemini-cli#5383). A refused
resources/templates/list is a warning: "resources" declares it too, with no
sub-flag, but a server of resources without templates often answers it so,
and the clients that ask log the error on every session rather than fail
(WordPress/mcp-adapter#232). ` + "`mcplint check`" + ` asks for the lists
the capabilities declare, as clients do, and keeps a refused one (tools/list
included) as its error response in the files its --save writes; a list that
is not declared is not asked for, and its failure is no finding. Nothing is
reported without a handshake result.

Bad:

    initialize: {"capabilities": {"tools": {}}, ...}
    prompts/list: {"prompts": [{"name": "review"}]}

Good:

    initialize: {"capabilities": {"tools": {}, "prompts": {}}, ...}

Source: MCP specification 2025-11-25, server/tools ("Servers that support
tools MUST declare the tools capability"), server/prompts and
server/resources (likewise for "prompts" and "resources"), basic/lifecycle
("Operation": "Only use capabilities that were successfully negotiated");
the TypeScript SDK, src/client/index.ts, Client.assertCapabilityForMethod.`,
}

// capabilityLists maps each capability to the list methods it covers.
var capabilityLists = []struct {
	capability string
	methods    []string
}{
	{"tools", []string{manifest.MethodTools}},
	{"prompts", []string{manifest.MethodPrompts}},
	{"resources", []string{manifest.MethodResources, manifest.MethodTemplates}},
}

func checkCapabilitiesMatch(p *lint.SurfacePass) {
	m := p.Manifest
	if m.Server == nil {
		return
	}
	v, err := m.Server.Value()
	if err != nil {
		return
	}
	caps, ok := v.(map[string]any)["capabilities"].(map[string]any)
	if !ok {
		return // surface-result-valid reports it
	}
	served := map[string]int{
		manifest.MethodTools: len(m.Tools), manifest.MethodPrompts: len(m.Prompts),
		manifest.MethodResources: len(m.Resources), manifest.MethodTemplates: len(m.Templates),
	}
	refused := map[string]manifest.Refusal{}
	for _, r := range m.Refusals {
		refused[r.Method] = r
	}
	for _, c := range capabilityLists {
		_, declared := caps[c.capability]
		for _, method := range c.methods {
			if n := served[method]; n > 0 && !declared {
				p.Reportf(m.Server, "/capabilities", "the server serves %d %s (%s) but does not declare the %q capability; clients that follow the capabilities never list them: add \"%s\": {} to the capabilities", n, listNoun(method, n), method, c.capability, c.capability)
			}
			if r, ok := refused[method]; ok && declared && method == manifest.MethodTemplates {
				// No sub-flag gates the templates: a server of resources
				// without any often refuses the list, and the clients
				// that ask log an error rather than fail.
				p.Report(m.Server, lint.Diagnostic{Severity: lint.Warning, RelPointer: "/capabilities/resources",
					Message: fmt.Sprintf("the server declares the \"resources\" capability but answered %s with JSON-RPC error %d (%s); the capability covers the templates too, and clients that list them log the error on every session: answer an empty list ({\"resourceTemplates\": []})", method, r.Code, clipQuote(r.Message))})
			} else if ok && declared {
				p.Reportf(m.Server, "/capabilities/"+c.capability, "the server declares the %q capability but answered %s with JSON-RPC error %d (%s); every client that trusts the declaration fails (Visual Studio does not load the server, Gemini CLI reports the error on each start): serve the list, or drop the capability", c.capability, method, r.Code, clipQuote(r.Message))
			}
		}
	}
}

func listNoun(method string, n int) string {
	noun := map[string]string{
		manifest.MethodTools: "tool", manifest.MethodPrompts: "prompt",
		manifest.MethodResources: "resource", manifest.MethodTemplates: "resource template",
	}[method]
	if n != 1 {
		noun += "s"
	}
	return noun
}

// declaredCapabilities reads the capabilities a handshake result
// declares; known is false without a handshake result that has them.
func declaredCapabilities(m *manifest.Manifest) (declared map[string]bool, known bool) {
	if m.Server == nil {
		return nil, false
	}
	v, err := m.Server.Value()
	if err != nil {
		return nil, false
	}
	caps, ok := v.(map[string]any)["capabilities"].(map[string]any)
	if !ok {
		return nil, false
	}
	declared = map[string]bool{}
	for k, c := range caps {
		declared[k] = c != nil
	}
	return declared, true
}

// capabilityOf is the capability that declares a list method.
func capabilityOf(method string) string {
	for _, c := range capabilityLists {
		for _, m := range c.methods {
			if m == method {
				return c.capability
			}
		}
	}
	return ""
}
