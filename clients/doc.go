// Package clients finds the MCP client configurations of a user and a
// project: the files in which Claude Desktop, Claude Code, Cursor, VS Code,
// Windsurf, Gemini CLI and Codex list the servers they start, and any
// .mcp.json in the project. Discover returns each file found with the
// servers it configures, as live.ConfiguredServer values that
// `mcplint check` can reach.
//
// Where each client keeps its file is a fact of that client, not of MCP;
// every location below names the client documentation it comes from
// (Locations). Finding a file runs nothing: the servers are programs from
// other people's files, and starting them is the caller's decision.
package clients
