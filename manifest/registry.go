package manifest

import "strings"

// The MCP registry describes a server in a server.json
// (https://github.com/modelcontextprotocol/registry,
// docs/reference/server-json/generic-server-json.md): its name, version
// and description, with "packages" to install it from or "remotes" to
// reach it at, validated by the schema its "$schema" names
// (https://static.modelcontextprotocol.io/schemas/VERSION/server.schema.json).
// It lists no tools and has no input schema. Read as a single tool (it has
// a "name"), fix would give it an inputSchema; it is refused instead.

// registryServerJSON says whether an object with members mem is a registry
// server.json: its "$schema" names server.schema.json, or it has a name, a
// version, packages or remotes, and no member a tool's schema would be.
func registryServerJSON(mem map[string]member) bool {
	if s, ok := mem["$schema"]; ok && s.kind == '"' && strings.HasSuffix(s.str, "/server.schema.json") {
		return true
	}
	_, name := mem["name"]
	_, version := mem["version"]
	_, packages := mem["packages"]
	_, remotes := mem["remotes"]
	return name && version && (packages || remotes) && classify(mem) == entryPlain
}

// registryServerError is the message for a registry server.json.
const registryServerError = `a registry server.json, not a tool list: it is the MCP registry's description of a server (name, version, packages, remotes) and holds no tool; ` +
	`lint what the server publishes instead, its tools/list result, or the running server with mcplint check`
