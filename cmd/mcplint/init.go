package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/atomicfile"
	"github.com/mcpfit/mcplint/config"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

const initDescription = `Writes a commented starter .mcplint.yaml in the current directory: the
manifests found in it and its subdirectories (up to three levels down,
skipping hidden directories and node_modules) as "files", the servers of a
.mcp.json there as "servers", and every other setting commented out with
its default. It refuses to replace an existing configuration unless --force.`

func (e *env) initCommand() *cli.Command {
	return &cli.Command{
		Name:         "init",
		Usage:        "write a starter .mcplint.yaml for the project in the current directory",
		Description:  initDescription,
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "replace an existing configuration file"},
		},
		Action: e.init,
	}
}

func (e *env) init(_ context.Context, cmd *cli.Command) error {
	for _, n := range config.Names {
		if _, err := os.Stat(n); err == nil && !cmd.Bool("force") {
			return usagef("%s exists; edit it, or use --force to replace it", n)
		}
	}
	if err := generatedPath("init", config.Names[0]); err != nil {
		return err
	}
	manifests, err := findManifests(".", 3)
	if err != nil {
		return err
	}
	servers := readMCPJSON(".mcp.json")
	text := starterConfig(manifests, servers)
	// What init writes must load: it is the first thing users see.
	if _, err := config.Parse(config.Names[0], []byte(text)); err != nil {
		return fmt.Errorf("internal error: the starter configuration does not validate: %w", err)
	}
	if err := atomicfile.Write(config.Names[0], []byte(text)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s, %s)\n", config.Names[0], english.Count(len(manifests), "manifest"), english.Count(len(servers), "server"))
	return nil
}

// findManifests returns the JSON and YAML files under dir that load as
// tool manifests with at least one tool.
func findManifests(dir string, depth int) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are not the project's manifests
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || strings.Count(filepath.ToSlash(p), "/") >= depth) {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml":
		default:
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "package.json" || d.Name() == "package-lock.json" || d.Name() == "tsconfig.json" {
			return nil
		}
		// Stat, not the entry's Lstat: a committed link to /dev/stdin or
		// /dev/tty would hold init until the input ends, one to a
		// device read it to the size limit.
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() > manifest.DefaultLimits.Size {
			return nil
		}
		if m, err := manifest.ReadFile(p); err == nil && len(m.Tools) > 0 {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// readMCPJSON reads the mcpServers of a .mcp.json; nil when there is none
// or it is not one.
func readMCPJSON(path string) map[string]config.Server {
	// A committed link to /dev/stdin, or a FIFO, would hold init until
	// input came, as it would the manifests init looks for.
	if manifest.Regular(path, "a client configuration") != nil {
		return nil
	}
	d, err := live.ClientConfigLimits.ReadDocument(path, manifest.JSON)
	if err != nil {
		return nil
	}
	var doc struct {
		MCPServers map[string]config.Server `json:"mcpServers"`
	}
	if json.Unmarshal(d.JSON(), &doc) != nil {
		return nil
	}
	return doc.MCPServers
}

func starterConfig(manifests []string, servers map[string]config.Server) string {
	var b strings.Builder
	b.WriteString(`# mcplint configuration. Flags on the command line override it.
# Schema (for editors): mcplint schema config > mcplint.schema.json, then
# yaml-language-server: $schema=./mcplint.schema.json

# The manifests (tools/list results) that "mcplint lint" checks when no
# FILE is named.
`)
	if len(manifests) == 0 {
		b.WriteString("# files:\n#   - tools.json\n")
	} else {
		b.WriteString("files:\n")
		for _, m := range manifests {
			fmt.Fprintf(&b, "  - %s\n", quote(m))
		}
	}
	fmt.Fprintf(&b, `
# Rules to run instead of the default set ("default": %s); "all" is every
# rule.
# select: [default]
# extend-select: [openai-strict, gemini]

# Check against one MCP protocol version only (default: every version
# in use, %s).
# protocol: %q

# Exit with status 1 when a finding is at least this severe: error,
# warning, info or never.
# fail-on: error

# Per-rule severity (error, warning, info) or off.
# severity:
#   description-present: error

# Rule options by rule ID (mcplint rules ID lists them).
# options:
#   rule-id: {name: value}

# Findings this project accepts; each needs a reason.
# ignore:
#   - rule: tool-name-valid
#     tool: "legacy_*"
#     file: "vendor/*.json"
#     reason: names kept for existing clients
`, lint.DefaultDescription(rules.All), strings.Join(lint.InUse, ", "), lint.LatestProtocol)
	b.WriteString("\n# MCP servers that `mcplint check` checks when no server is named, as in .mcp.json's mcpServers.\n")
	if len(servers) == 0 {
		b.WriteString("# servers:\n#   my-server:\n#     command: node\n#     args: [server.js]\n")
		return b.String()
	}
	b.WriteString("servers:\n")
	for _, n := range slices.Sorted(maps.Keys(servers)) {
		s, _ := json.Marshal(servers[n])
		if key := quote(n); utf8.RuneCountInString(key) > 1000 {
			// YAML takes an implicit key ("key: value") only up to 1,024
			// characters (YAML 1.2.2, 7.4.2): a longer one is explicit.
			fmt.Fprintf(&b, "  ? %s\n  : %s\n", key, asciiJSON(s))
		} else {
			fmt.Fprintf(&b, "  %s: %s\n", key, asciiJSON(s))
		}
	}
	return b.String()
}

// quote writes a YAML scalar as a JSON string, which YAML reads the same
// (see asciiJSON).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return asciiJSON(b)
}

// asciiJSON escapes every character of JSON text b that is not printable
// ASCII, YAML's way, so that the text is YAML that reads back the same: YAML
// refuses some characters raw (C1 controls, DEL, U+FFFE), and the names
// and commands init writes come from a cloned repository's files. Outside
// strings, JSON text is ASCII already. A "#" after a "#" is escaped too: no
// CI runner's command marker ("##[", "##vso["; package guard) is written
// into a file that CI may print.
func asciiJSON(b []byte) string {
	var out strings.Builder
	prev := rune(0)
	for _, r := range string(b) {
		hash := r == '#' && prev == '#'
		prev = r
		switch {
		case hash:
			prev = 0
			out.WriteString(`\u0023`)
		case r < 0x7f:
			out.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&out, `\u%04x`, r)
		default:
			// YAML has no surrogate pairs: \U names the code point.
			fmt.Fprintf(&out, `\U%08x`, r)
		}
	}
	return out.String()
}
