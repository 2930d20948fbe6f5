package clients

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
)

// Config is a configuration file found, with the servers it configures.
type Config struct {
	Location
	// Servers are sorted by name. An entry that cannot be reached as
	// written (an unset variable, neither command nor URL) carries its
	// Err; the others are usable.
	Servers []live.ConfiguredServer
	// Err is set when the file exists but cannot be read as a
	// configuration; Servers is then empty.
	Err error
}

// Label names the configuration in reports: the client and the scope.
func (c Config) Label() string {
	return c.Client + " (" + c.Scope + ")"
}

// Discover reads every location of Locations that holds a configuration,
// then every .mcp.json in the project's folders (see projectFiles). A file
// that does not exist, or has no map of servers (a Gemini CLI
// settings.json without "mcpServers"), is not a configuration; one that
// exists and cannot be read is returned with its Err. A file reached by two
// locations (the project is the home folder) is read once.
func Discover(p Places) []Config {
	var out []Config
	seen := map[string]bool{}
	add := func(l Location) {
		key := l.Path + "\x00" + l.Scope
		if l.Format != ClaudeCode {
			key = l.Path
		}
		if seen[key] {
			return
		}
		seen[key] = true
		if c, ok := read(l, p); ok {
			out = append(out, c)
		}
	}
	for _, l := range Locations(p) {
		add(l)
	}
	for _, path := range projectFiles(p.Project) {
		add(Location{Client: ".mcp.json", Scope: "project", Path: path})
	}
	return out
}

// read reads one location; ok is false when it holds no configuration.
func read(l Location, p Places) (Config, bool) {
	c := Config{Location: l}
	src, err := readFile(l.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, false
	}
	if err != nil {
		c.Err = err
		return c, true
	}
	switch l.Format {
	case CodexTOML:
		c.Servers, err = parseCodex(l.Path, src, p.Getenv)
	case ClaudeCode:
		src, err = claudeCodeScope(l.Path, src, l.Scope, p.Project)
		if err == nil {
			c.Servers, err = live.ParseClientConfig(l.Path, src, p.Getenv)
		}
	default:
		c.Servers, err = live.ParseClientConfig(l.Path, src, p.Getenv)
	}
	if errors.Is(err, live.ErrNoServers) || errors.Is(err, errNoProject) {
		return c, false
	}
	c.Err = err
	return c, true
}

// readFile reads a configuration file no further than the size bound of
// client configurations (live.ClientConfigLimits).
//
// Only a regular file is opened: a cloned repository can commit .mcp.json
// as a link to /dev/stdin or /dev/tty, which would hold the run until
// input came (and a FIFO blocks the open itself).
func readFile(path string) ([]byte, error) {
	if err := manifest.Regular(path, "a configuration file"); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := live.ClientConfigLimits.Size
	src, err := manifest.ReadAll(f, path, limit)
	if err != nil {
		var me *manifest.Error
		if errors.As(err, &me) && me.Limit == manifest.LimitSize {
			return nil, fmt.Errorf("%s: larger than %s; not read", path, manifest.SizeText(limit))
		}
		return nil, err
	}
	return src, nil
}

// errNoProject: ~/.claude.json has no entry for the project.
var errNoProject = errors.New("no entry for the project")

// claudeCodeScope returns the part of ~/.claude.json a scope reads, as a
// document with a "mcpServers" map: the user scope is the top-level map,
// the local scope the map under "projects" at the project's path.
func claudeCodeScope(path string, src []byte, scope, project string) ([]byte, error) {
	if scope != "local" {
		return src, nil
	}
	var doc struct {
		Projects map[string]struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	d, err := live.ClientConfigLimits.ParseDocument(path, src, manifest.JSON)
	if err != nil {
		var me *manifest.Error
		if errors.As(err, &me) {
			return nil, fmt.Errorf("%s: not a JSON Claude Code configuration: %s", me.Place(), strings.TrimPrefix(me.Msg, "invalid JSON: "))
		}
		return nil, err
	}
	if err := json.Unmarshal(d.JSON(), &doc); err != nil {
		return nil, fmt.Errorf("%s: not a JSON Claude Code configuration: %v", path, err)
	}
	entry, ok := doc.Projects[project]
	if !ok || len(entry.MCPServers) == 0 || string(entry.MCPServers) == "null" {
		return nil, errNoProject
	}
	return append(append([]byte(`{"mcpServers":`), entry.MCPServers...), '}'), nil
}

// Bounds on the search for .mcp.json files, so that a large tree (a home
// folder, a monorepo) costs a bounded time.
const (
	maxDepth   = 6
	maxFolders = 10000
)

// projectFiles returns the .mcp.json files below the project, in lexical
// order, its own (Claude Code's project scope, read as such) excepted. It
// skips hidden folders, node_modules and vendor (dependencies, not the
// project's configuration) and follows no symbolic link.
func projectFiles(project string) []string {
	if project == "" {
		return nil
	}
	var out []string
	folders := 0
	_ = filepath.WalkDir(project, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path == project {
				return nil
			}
			name := d.Name()
			rel, _ := filepath.Rel(project, path)
			if strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" ||
				strings.Count(rel, string(filepath.Separator)) >= maxDepth {
				return fs.SkipDir
			}
			if folders++; folders > maxFolders {
				return fs.SkipAll
			}
			return nil
		}
		if d.Name() == ".mcp.json" && filepath.Dir(path) != project && d.Type().IsRegular() {
			out = append(out, path)
		}
		return nil
	})
	return out
}
