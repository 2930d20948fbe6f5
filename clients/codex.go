package clients

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
)

// codexServer is a [mcp_servers.NAME] table of Codex's config.toml
// (https://developers.openai.com/codex/mcp). Its values are literal: Codex
// expands no ${VAR}; it reads the environment only for
// bearer_token_env_var and env_http_headers, which name variables.
type codexServer struct {
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	Cwd     string            `toml:"cwd"`

	URL               string            `toml:"url"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var"`
	HTTPHeaders       map[string]string `toml:"http_headers"`
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers"`
}

// Bounds on a Codex config.toml, checked before it is parsed. The TOML
// parser's time grows faster than its input, with the nesting of inline
// tables most of all (four thousand levels, 24 KB, took seconds), and a
// project's .codex/config.toml is anyone's file. Codex's own settings
// are a few kilobytes nested three levels ([mcp_servers.NAME.env]).
const (
	maxCodexSize  = 1 << 20
	maxCodexDepth = 32
)

// parseCodex reads the servers of a Codex config.toml. A file without
// [mcp_servers] has none (live.ErrNoServers).
func parseCodex(path string, src []byte, getenv func(string) (string, bool)) ([]live.ConfiguredServer, error) {
	if len(src) > maxCodexSize {
		return nil, fmt.Errorf("%s: larger than %s, the limit for a Codex configuration; not read", path, manifest.SizeText(maxCodexSize))
	}
	if off := tomlTooDeep(src, maxCodexDepth); off >= 0 {
		pos := (&manifest.Manifest{Src: src}).Position(off)
		return nil, fmt.Errorf("%s:%d:%d: not read: arrays and inline tables nested deeper than %d levels", path, pos.Line, pos.Column, maxCodexDepth)
	}
	var doc struct {
		MCPServers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(src), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d:%d: not a TOML Codex configuration: %s", path, pe.Position.Line, pe.Position.Col, pe.Message)
		}
		return nil, fmt.Errorf("%s: not a TOML Codex configuration: %v", path, err)
	}
	if doc.MCPServers == nil {
		return nil, fmt.Errorf("%s: %w", path, live.ErrNoServers)
	}
	if getenv == nil {
		getenv = func(string) (string, bool) { return "", false }
	}
	var out []live.ConfiguredServer
	for _, name := range slices.Sorted(maps.Keys(doc.MCPServers)) {
		cs := live.ConfiguredServer{Name: name}
		var s codexServer
		if err := md.PrimitiveDecode(doc.MCPServers[name], &s); err != nil {
			cs.Err = fmt.Errorf("server %q: %v", name, err)
		} else if cs.Target, err = s.target(filepath.Dir(path), getenv); err != nil {
			cs.Err = fmt.Errorf("server %q: %w", name, err)
		}
		out = append(out, cs)
	}
	return out, nil
}

func (s codexServer) target(dir string, getenv func(string) (string, bool)) (live.Target, error) {
	var t live.Target
	switch {
	case s.Command != "":
		t.Transport = "stdio"
		t.Command = append([]string{s.Command}, s.Args...)
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			t.Env = append(t.Env, k+"="+s.Env[k])
		}
		if s.Cwd != "" {
			t.Dir = s.Cwd
			if !filepath.IsAbs(t.Dir) {
				t.Dir = filepath.Join(dir, t.Dir)
			}
		}
	case s.URL != "":
		// Codex speaks Streamable HTTP to a URL, never the legacy SSE
		// transport.
		t.Transport = "http"
		t.URL = s.URL
		set := func(k, v string) {
			if t.Header == nil {
				t.Header = http.Header{}
			}
			t.Header.Set(k, v)
		}
		for k, v := range s.HTTPHeaders {
			set(k, v)
		}
		for _, k := range slices.Sorted(maps.Keys(s.EnvHTTPHeaders)) {
			// An unset variable leaves the header out, as Codex does.
			if v, ok := getenv(s.EnvHTTPHeaders[k]); ok && v != "" {
				set(k, v)
				t.Expanded = append(t.Expanded, v)
			}
		}
		if s.BearerTokenEnvVar != "" {
			v, ok := getenv(s.BearerTokenEnvVar)
			if !ok || v == "" {
				return t, fmt.Errorf("environment variable %s is not set", s.BearerTokenEnvVar)
			}
			set("Authorization", "Bearer "+v)
			t.Expanded = append(t.Expanded, v)
		}
	default:
		return t, errors.New(`neither "command" nor "url"`)
	}
	return t, t.Validate()
}

// tomlTooDeep returns the offset of the first bracket or brace of src
// nested deeper than limit, or -1. Strings and comments are skipped; a
// table header ([a], [[a]]) counts as the levels of its brackets.
func tomlTooDeep(src []byte, limit int) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case '"', '\'':
			i = tomlStringEnd(src, i) - 1
		case '[', '{':
			if depth++; depth > limit {
				return i
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return -1
}

// tomlStringEnd returns the offset just after the string starting at i
// (basic or literal, on one line or, tripled, on several), or len(src).
func tomlStringEnd(src []byte, i int) int {
	q := src[i]
	triple := bytes.HasPrefix(src[i:], []byte{q, q, q})
	j := i + 1
	if triple {
		j = i + 3
	}
	for j < len(src) {
		switch c := src[j]; {
		case c == '\\' && q == '"':
			j += 2
			continue
		case c == q && !triple:
			return j + 1
		case c == q && bytes.HasPrefix(src[j:], []byte{q, q, q}):
			// A closing triple may be followed by one or two more quotes,
			// which belong to the string.
			k := j + 3
			for k < len(src) && k < j+5 && src[k] == q {
				k++
			}
			return k
		case c == '\n' && !triple:
			return j
		}
		j++
	}
	return len(src)
}
