package live

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfit/mcplint/config"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/manifest"
)

// ConfiguredServer is one server entry of an MCP client configuration file.
type ConfiguredServer struct {
	Name   string
	Target Target
	// Err is set when the entry cannot be reached as written (an unset
	// variable, neither command nor URL); the other entries are still
	// usable.
	Err error
}

// ReadClientConfig reads an MCP client configuration file: the
// "mcpServers" map of Claude Desktop's claude_desktop_config.json, of
// Claude Code's .mcp.json, of Cursor's mcp.json, of Windsurf's
// mcp_config.json and of Gemini CLI's settings.json, or the "servers" map
// of VS Code's .vscode/mcp.json (also under "mcp" in its settings.json).
// Comments and trailing commas (VS Code's JSONC) are accepted. Entries are
// config.Server values; ${VAR}, ${VAR:-default} and ${env:VAR} are expanded
// from getenv in commands, arguments, env, cwd, URLs and headers. Servers are
// returned sorted by name.
func ReadClientConfig(path string, getenv func(string) (string, bool)) ([]ConfiguredServer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := manifest.ReadAll(f, path, MaxClientConfigSize)
	if err != nil {
		return nil, err
	}
	return ParseClientConfig(path, src, getenv)
}

// MaxClientConfigSize bounds a client configuration file: the largest,
// VS Code's settings.json, is some kilobytes.
const MaxClientConfigSize = 16 << 20

// ClientConfigLimits bound parsing a client configuration: a manifest's
// limits (nesting), and a size that admits the largest file a client
// keeps its servers in, ~/.claude.json, which also holds Claude Code's
// state for every project (some megabytes).
var ClientConfigLimits = func() manifest.Limits {
	l := manifest.DefaultLimits
	l.Size = 64 << 20
	return l
}()

// clientServers is a client configuration's server entries, under each
// of the keys clients keep them in, decoded as T.
type clientServers[T any] struct {
	MCPServers map[string]T `json:"mcpServers"`
	Servers    map[string]T `json:"servers"`
	MCP        struct {
		Servers map[string]T `json:"servers"`
	} `json:"mcp"`
}

// ParseClientConfig is ReadClientConfig on the bytes of the file at path.
func ParseClientConfig(path string, src []byte, getenv func(string) (string, bool)) ([]ConfiguredServer, error) {
	var doc clientServers[json.RawMessage]
	clean := stripJSONC(src)
	if err := json.Unmarshal(clean, &doc); err != nil {
		return nil, jsonError(path, src, "not a JSON MCP client configuration: ", err)
	}
	// A manifest's limits too: JSON nested deeper than a tool may be is
	// refused (the decoder above stops only past 10,000 levels).
	if _, err := ClientConfigLimits.ParseDocument(path, clean, manifest.JSON); err != nil {
		var me *manifest.Error
		if errors.As(err, &me) {
			return nil, fmt.Errorf("%s: not a JSON MCP client configuration: %s", me.Place(), strings.TrimPrefix(me.Msg, "invalid JSON: "))
		}
		return nil, err
	}
	entries := doc.MCPServers
	if entries == nil {
		entries = doc.Servers
	}
	if entries == nil {
		entries = doc.MCP.Servers
	}
	if entries == nil {
		return nil, fmt.Errorf("%s: %w", path, ErrNoServers)
	}
	dir := filepath.Dir(path)
	workspace := dir
	if filepath.Base(dir) == ".vscode" {
		workspace = filepath.Dir(dir)
	}
	lookup := func(name string) (string, bool) {
		if name == "workspaceFolder" {
			return workspace, true
		}
		return getenv(name)
	}
	var out []ConfiguredServer
	for name, raw := range entries {
		var s config.Server
		cs := ConfiguredServer{Name: name}
		if err := json.Unmarshal(raw, &s); err != nil {
			cs.Err = serverError(path, src, clean, name, err)
		} else {
			otherURLs(&s, raw)
			cs.Target, cs.Err = targetOf(s, dir, lookup)
			if cs.Err != nil {
				cs.Err = fmt.Errorf("server %q: %w", name, cs.Err)
			}
		}
		out = append(out, cs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// jsonError places a JSON error in the file at path (src, whose comments
// stripJSONC blanked without moving a byte) at its line and column.
func jsonError(path string, src []byte, what string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		field := te.Field
		for _, p := range []string{"mcpServers.", "servers.", "mcp.servers."} {
			field = strings.TrimPrefix(field, p)
		}
		err = fmt.Errorf("%q is %s, not %s", field, english.A(te.Value), jsonKind(te.Type))
	default:
		return fmt.Errorf("%s: %s%v; correct the file", path, what, err)
	}
	at := (&manifest.Manifest{Src: src}).Position(int(min(max(off-1, 0), int64(len(src)))))
	return fmt.Errorf("%s:%d:%d: %s%v; correct the file there", path, at.Line, at.Column, what, err)
}

// serverError places the error of decoding the entry of server name: the
// entry is decoded again within the whole file, for the error's offset.
func serverError(path string, src, clean []byte, name string, err error) error {
	var whole clientServers[config.Server]
	if werr := json.Unmarshal(clean, &whole); werr != nil {
		err = werr
	}
	return jsonError(path, src, fmt.Sprintf("server %q: ", name), err)
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a number"
}

// ErrNoServers: a configuration file has no map of servers.
var ErrNoServers = errors.New("no \"mcpServers\" (Claude Desktop, .mcp.json, Cursor, Windsurf, Gemini CLI) or \"servers\" (VS Code) map")

// otherURLs reads the URL keys of the clients that do not say "url":
// Windsurf's "serverUrl" (https://docs.windsurf.com/windsurf/cascade/mcp)
// and Gemini CLI's "httpUrl", its Streamable HTTP endpoint, where its "url"
// is an SSE one (https://geminicli.com/docs/tools/mcp-server).
func otherURLs(s *config.Server, raw json.RawMessage) {
	var alt struct {
		ServerURL string `json:"serverUrl"`
		HTTPURL   string `json:"httpUrl"`
	}
	if s.URL != "" || json.Unmarshal(raw, &alt) != nil {
		return
	}
	switch {
	case alt.HTTPURL != "":
		s.URL = alt.HTTPURL
		if s.Type == "" && s.Transport == "" {
			s.Type = "http"
		}
	case alt.ServerURL != "":
		s.URL = alt.ServerURL
	}
}

// targetOf turns an entry into a Target, expanding variables; the values
// read from the environment are kept in Target.Expanded, since they are as
// secret as a header wherever they go.
func targetOf(s config.Server, dir string, getenv func(string) (string, bool)) (Target, error) {
	var (
		firstErr error
		t        Target
	)
	recording := func(name string) (string, bool) {
		v, ok := getenv(name)
		if ok && name != "workspaceFolder" {
			t.Expanded = append(t.Expanded, v)
		}
		return v, ok
	}
	x := func(v string) string {
		out, err := Expand(v, recording)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return out
	}
	switch {
	case s.Command != "":
		t.Transport = "stdio"
		t.Command = []string{x(s.Command)}
		for _, a := range s.Args {
			t.Command = append(t.Command, x(a))
		}
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			t.Env = append(t.Env, k+"="+x(s.Env[k]))
		}
		if s.Cwd != "" {
			t.Dir = x(s.Cwd)
			if !filepath.IsAbs(t.Dir) {
				t.Dir = filepath.Join(dir, t.Dir)
			}
		}
	case s.URL != "":
		t.URL = x(s.URL)
		if s.Type != "" || s.Transport != "" {
			t.Transport = s.Kind()
		}
		if len(s.Headers) > 0 {
			t.Header = http.Header{}
			for k, v := range s.Headers {
				t.Header.Set(k, x(v))
			}
		}
	default:
		return t, fmt.Errorf("neither \"command\" nor \"url\"")
	}
	if firstErr != nil {
		return t, firstErr
	}
	return t, t.Validate()
}

// Expand replaces $VAR, ${VAR}, ${VAR:-default} and ${env:VAR} (VS Code's
// spelling) with values from getenv. A variable that is unset and has no
// default is an error, naming the variable but never a value.
func Expand(s string, getenv func(string) (string, bool)) (string, error) {
	var missing []string
	out := os.Expand(s, func(ref string) string {
		name, def, hasDef := strings.Cut(ref, ":-")
		name = strings.TrimPrefix(name, "env:")
		if strings.HasPrefix(name, "input:") {
			missing = append(missing, "${"+ref+"} (an input VS Code prompts for)")
			return ""
		}
		if v, ok := getenv(name); ok && (v != "" || !hasDef) {
			return v
		}
		if hasDef {
			return def
		}
		missing = append(missing, name)
		return ""
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("environment variable %s is not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// stripJSONC removes // and /* */ comments and trailing commas outside
// strings, so that VS Code's JSONC reads as JSON. Offsets are kept (comments
// become spaces) so that errors point at the right place.
func stripJSONC(src []byte) []byte {
	out := append([]byte(nil), src...)
	inString := false
	lastComma := -1
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString, lastComma = true, -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}
