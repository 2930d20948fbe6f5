package config

import "github.com/invopop/jsonschema"

// Config is the content of a configuration file. Keys are kebab-case, like
// the command-line flags they stand for; a flag given on the command line
// overrides its key.
type Config struct {
	// Schema lets editors find the schema; mcplint ignores it.
	Schema string `json:"$schema,omitempty" jsonschema:"description=URL or path of this file's JSON Schema (mcplint schema config prints it); ignored by mcplint"`
	// Select replaces the default packs (mcp and robust).
	Select []string `json:"select,omitempty" jsonschema:"description=rule IDs or pack names to run instead of the default packs; \"all\" is every rule"`
	// ExtendSelect adds rules or packs to the selection.
	ExtendSelect []string `json:"extend-select,omitempty" jsonschema:"description=rule IDs or pack names to run as well"`
	// Protocol is the MCP protocol version checked against.
	Protocol string `json:"protocol,omitempty" jsonschema:"description=MCP protocol version to check against (default: every version in use)"`
	// FailOn is the least severity that fails a run.
	FailOn string `json:"fail-on,omitempty" jsonschema:"enum=error,enum=warning,enum=info,enum=never,description=exit with status 1 when a finding is at least this severity"`
	// Severity sets a rule's severity, or turns it off.
	Severity map[string]Level `json:"severity,omitempty" jsonschema:"description=per-rule severity by rule ID; off turns the rule off"`
	// Options sets rule options by rule ID then option name.
	Options map[string]map[string]any `json:"options,omitempty" jsonschema:"description=rule options by rule ID then option name (mcplint rules ID lists a rule's options)"`
	// Ignore drops findings, each entry with its reason.
	Ignore []Ignore `json:"ignore,omitempty" jsonschema:"description=findings not to report; an entry matches a finding when all its given fields do"`
	// Files are the manifests linted when no FILE is named.
	Files []string `json:"files,omitempty" jsonschema:"description=glob patterns (relative to this file) of the manifests to lint when no FILE is named"`
	// Servers are the MCP servers to check live, by name.
	Servers map[string]Server `json:"servers,omitempty" jsonschema:"description=MCP servers that mcplint check checks when no server is named, by name; the same entries as mcpServers in .mcp.json or Claude Desktop's configuration"`
}

// Level is a rule severity in a configuration, or "off".
type Level string

// Levels are the values of a Level.
var Levels = []string{"error", "warning", "info", "off"}

// JSONSchema restricts Level to its values (invopop/jsonschema calls it).
func (Level) JSONSchema() *jsonschema.Schema {
	enum := make([]any, len(Levels))
	for i, l := range Levels {
		enum[i] = l
	}
	return &jsonschema.Schema{Type: "string", Enum: enum}
}

// JSONSchemaExtend demands a command or a URL (invopop/jsonschema calls it).
func (Server) JSONSchemaExtend(s *jsonschema.Schema) {
	s.AnyOf = []*jsonschema.Schema{{Required: []string{"command"}}, {Required: []string{"url"}}}
}

// Ignore drops the findings it matches. Rule, Tool and File are ANDed; an
// empty one matches everything.
type Ignore struct {
	Rule string `json:"rule,omitempty" jsonschema:"description=rule ID or pack name; empty: every rule"`
	Tool string `json:"tool,omitempty" jsonschema:"description=glob on the tool name (path.Match syntax: * ? [a-z]); empty: every tool"`
	File string `json:"file,omitempty" jsonschema:"description=glob on the manifest path relative to this file (path.Match syntax; a pattern without / matches the base name); empty: every file"`
	// Reason is required: an ignore without one is a finding nobody can
	// revisit.
	Reason string `json:"reason" jsonschema:"minLength=1,description=why these findings are accepted"`
}

// Server is an MCP server entry: a command started over stdio, or a URL
// reached over streamable HTTP or SSE. It is the shape of the mcpServers
// entries of Claude Desktop's claude_desktop_config.json and of .mcp.json
// (https://modelcontextprotocol.io/quickstart/user,
// https://docs.anthropic.com/en/docs/claude-code/mcp), so those entries can
// be pasted as they are.
type Server struct {
	// Type is .mcp.json's name for the transport: stdio, http or sse.
	Type string `json:"type,omitempty" jsonschema:"enum=stdio,enum=http,enum=streamable-http,enum=sse,description=transport (as in .mcp.json): stdio, http or sse; default: stdio with command, http with url"`
	// Transport is an alias of Type.
	Transport string `json:"transport,omitempty" jsonschema:"enum=stdio,enum=http,enum=streamable-http,enum=sse,description=alias of type"`

	Command string            `json:"command,omitempty" jsonschema:"description=stdio: the program to start"`
	Args    []string          `json:"args,omitempty" jsonschema:"description=stdio: its arguments"`
	Env     map[string]string `json:"env,omitempty" jsonschema:"description=stdio: environment variables added to mcplint's"`
	Cwd     string            `json:"cwd,omitempty" jsonschema:"description=stdio: working directory (relative to this file)"`

	URL     string            `json:"url,omitempty" jsonschema:"description=http or sse: the server's endpoint"`
	Headers map[string]string `json:"headers,omitempty" jsonschema:"description=http or sse: headers sent with every request"`
}

// Kind returns the server's transport: "stdio", "http" or "sse"
// ("streamable-http" is "http"). Without type or transport, a URL means
// http and a command stdio.
func (s Server) Kind() string {
	t := s.Type
	if t == "" {
		t = s.Transport
	}
	switch {
	case t == "streamable-http":
		return "http"
	case t != "":
		return t
	case s.URL != "":
		return "http"
	}
	return "stdio"
}
