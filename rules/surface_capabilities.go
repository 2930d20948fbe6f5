package rules

import (
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

Judged from what ` + "`mcplint check`" + ` lists (it asks for every list, declared or not)
and from the files its --save writes, which keep a refused list as its
error response. Nothing is reported without a handshake result.

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
			if r, ok := refused[method]; ok && declared {
				p.Reportf(m.Server, "/capabilities/"+c.capability, "the server declares the %q capability but answered %s with JSON-RPC error %d (%s); every client that trusts the declaration fails: serve the list, or drop the capability", c.capability, method, r.Code, clipQuote(r.Message))
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
