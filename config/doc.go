// Package config owns mcplint's project configuration: the .mcplint.yaml
// (or .mcplint.yml, .mcplint.json) file that a repository commits so that
// every run, local or in CI, checks the same things. It finds the file by
// walking up from a directory, validates it against the JSON Schema
// generated from the Go types below (so the schema an editor uses and the
// checks mcplint makes cannot drift apart), reports a wrong key or type at
// its file:line:col, and turns the result into a lint.Config.
//
// It also defines Server, the shape of an MCP server entry (the mcpServers
// entries of Claude Desktop's configuration and of .mcp.json), which the
// configuration's "servers" map and the live check share.
package config
