package clients

import (
	"path/filepath"
)

// Places says where to look: the user's home folder and configuration
// folders, the project, and the operating system whose conventions apply.
type Places struct {
	// Home is the user's home folder.
	Home string
	// Project is the project folder (the current directory); "" for none.
	Project string
	// OS is a runtime.GOOS value: darwin, windows, or another (the XDG
	// conventions of Linux and the BSDs).
	OS string
	// Getenv reads the environment: APPDATA, XDG_CONFIG_HOME, CODEX_HOME,
	// and the variables configurations refer to.
	Getenv func(string) (string, bool)
}

// Format is the syntax of a configuration file.
type Format int

const (
	// JSON: a "mcpServers" map, or VS Code's "servers" (JSON with
	// comments).
	JSON Format = iota
	// ClaudeCode: ~/.claude.json, whose top-level "mcpServers" are the
	// user's and whose "projects" map holds each project's own.
	ClaudeCode
	// CodexTOML: Codex's config.toml and its [mcp_servers.NAME] tables.
	CodexTOML
)

// Location is where a client keeps a configuration file.
type Location struct {
	Client string
	// Scope is "user" (every project), "project" (a file in the project,
	// often shared in version control) or "local" (the user's own entries
	// for this project).
	Scope  string
	Path   string
	Format Format
}

// configHome is the folder where desktop applications keep their
// configuration: ~/Library/Application Support on macOS, %APPDATA% on
// Windows, $XDG_CONFIG_HOME (~/.config) elsewhere.
func (p Places) configHome() string {
	switch p.OS {
	case "darwin":
		return filepath.Join(p.Home, "Library", "Application Support")
	case "windows":
		if v, ok := p.getenv("APPDATA"); ok && v != "" {
			return v
		}
		return filepath.Join(p.Home, "AppData", "Roaming")
	}
	if v, ok := p.getenv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(p.Home, ".config")
}

func (p Places) getenv(k string) (string, bool) {
	if p.Getenv == nil {
		return "", false
	}
	return p.Getenv(k)
}

// Locations lists the files Discover reads, user files first, in the order
// of the clients' names. Each is documented by its client:
//
//   - Claude Desktop: claude_desktop_config.json in the Claude folder of
//     the application-support folder, on macOS and Windows
//     (https://modelcontextprotocol.io/quickstart/user); Linux has no
//     official build, and the community builds use ~/.config/Claude.
//   - Claude Code: ~/.claude.json for the user and local scopes, .mcp.json
//     at the project root for the project scope
//     (https://code.claude.com/docs/en/mcp, "MCP installation scopes").
//   - Codex: config.toml in $CODEX_HOME (default ~/.codex), and
//     .codex/config.toml in a trusted project
//     (https://developers.openai.com/codex/mcp).
//   - Cursor: ~/.cursor/mcp.json and the project's .cursor/mcp.json
//     (https://cursor.com/docs/context/mcp, "Configuration locations").
//   - Gemini CLI: ~/.gemini/settings.json and the project's
//     .gemini/settings.json (https://geminicli.com/docs/tools/mcp-server).
//   - VS Code: mcp.json in the user profile folder (Code/User of the
//     application-support folder; before version 1.102 "mcp" in
//     settings.json there) and the workspace's .vscode/mcp.json
//     (https://code.visualstudio.com/docs/copilot/customization/mcp-servers).
//   - Windsurf: ~/.codeium/windsurf/mcp_config.json
//     (https://docs.windsurf.com/windsurf/cascade/mcp).
func Locations(p Places) []Location {
	cfg := p.configHome()
	codexHome := filepath.Join(p.Home, ".codex")
	if v, ok := p.getenv("CODEX_HOME"); ok && filepath.IsAbs(v) {
		codexHome = v
	}
	out := []Location{
		{Client: "Claude Desktop", Scope: "user", Path: filepath.Join(cfg, "Claude", "claude_desktop_config.json")},
		{Client: "Claude Code", Scope: "user", Path: filepath.Join(p.Home, ".claude.json"), Format: ClaudeCode},
		{Client: "Codex", Scope: "user", Path: filepath.Join(codexHome, "config.toml"), Format: CodexTOML},
		{Client: "Cursor", Scope: "user", Path: filepath.Join(p.Home, ".cursor", "mcp.json")},
		{Client: "Gemini CLI", Scope: "user", Path: filepath.Join(p.Home, ".gemini", "settings.json")},
		{Client: "VS Code", Scope: "user", Path: filepath.Join(cfg, "Code", "User", "mcp.json")},
		{Client: "VS Code", Scope: "user", Path: filepath.Join(cfg, "Code", "User", "settings.json")},
		{Client: "VS Code Insiders", Scope: "user", Path: filepath.Join(cfg, "Code - Insiders", "User", "mcp.json")},
		{Client: "Windsurf", Scope: "user", Path: filepath.Join(p.Home, ".codeium", "windsurf", "mcp_config.json")},
	}
	if p.Project == "" {
		return out
	}
	return append(out,
		Location{Client: "Claude Code", Scope: "local", Path: filepath.Join(p.Home, ".claude.json"), Format: ClaudeCode},
		Location{Client: "Claude Code", Scope: "project", Path: filepath.Join(p.Project, ".mcp.json")},
		Location{Client: "Codex", Scope: "project", Path: filepath.Join(p.Project, ".codex", "config.toml"), Format: CodexTOML},
		Location{Client: "Cursor", Scope: "project", Path: filepath.Join(p.Project, ".cursor", "mcp.json")},
		Location{Client: "Gemini CLI", Scope: "project", Path: filepath.Join(p.Project, ".gemini", "settings.json")},
		Location{Client: "VS Code", Scope: "project", Path: filepath.Join(p.Project, ".vscode", "mcp.json")},
	)
}
