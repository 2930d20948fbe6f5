package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
)

// LintConfig turns the file into the engine's configuration, checking rule
// IDs, pack names, the protocol and option values against the catalogue.
// Each error is an *Error at the setting it refuses, with what to do.
func (f *File) LintConfig(catalogue []*lint.Rule) (lint.Config, error) {
	cfg := lint.Config{
		Select:       f.Select,
		ExtendSelect: f.ExtendSelect,
		Protocol:     f.Protocol,
	}
	// fail refuses the setting at loc (keys and list indexes).
	fail := func(loc []string, format string, args ...any) (lint.Config, error) {
		e := &Error{Path: f.Path, Msg: fmt.Sprintf(format, args...)}
		if f.doc != nil {
			at := f.doc.Locate(pointer.Join(loc))
			e.Line, e.Column = at.Line, at.Column
		}
		return lint.Config{}, e
	}
	if cfg.Protocol != "" && !lint.ValidProtocol(cfg.Protocol) {
		return fail([]string{"protocol"}, "protocol: unknown MCP protocol version %q; want one of %s", cfg.Protocol, strings.Join(lint.Protocols, ", "))
	}
	var ids []string
	for _, r := range catalogue {
		ids = append(ids, r.ID)
	}
	rule := func(id string) *lint.Rule {
		for _, r := range catalogue {
			if r.ID == id {
				return r
			}
		}
		return nil
	}
	unknown := func(id string) string {
		if s := lint.Closest(id, ids); s != "" {
			return fmt.Sprintf("unknown rule %q; did you mean %q?", id, s)
		}
		return fmt.Sprintf("unknown rule %q; `mcplint rules` lists the rules", id)
	}
	for _, id := range slices.Sorted(maps.Keys(f.Severity)) {
		if rule(id) == nil {
			return fail([]string{"severity", id}, "severity: %s", unknown(id))
		}
		lvl := f.Severity[id]
		if lvl == "off" {
			cfg.Ignore = append(cfg.Ignore, id)
			continue
		}
		s, err := lint.ParseSeverity(string(lvl))
		if err != nil {
			return fail([]string{"severity", id}, "severity.%s: %v", id, err)
		}
		if cfg.Severity == nil {
			cfg.Severity = map[string]lint.Severity{}
		}
		cfg.Severity[id] = s
	}
	for _, id := range slices.Sorted(maps.Keys(f.Options)) {
		r := rule(id)
		if r == nil {
			return fail([]string{"options", id}, "options: %s", unknown(id))
		}
		for _, name := range slices.Sorted(maps.Keys(f.Options[id])) {
			v, err := lint.OptionValue(r, name, f.Options[id][name])
			if err != nil {
				return fail([]string{"options", id, name}, "options.%s.%s: %v", id, name, err)
			}
			if cfg.Options == nil {
				cfg.Options = map[string]map[string]any{}
			}
			if cfg.Options[id] == nil {
				cfg.Options[id] = map[string]any{}
			}
			cfg.Options[id][name] = v
		}
	}
	for _, ig := range f.Ignore {
		cfg.Suppress = append(cfg.Suppress, lint.Suppression{
			Rule: ig.Rule, Tool: ig.Tool, File: ig.File, Dir: f.Dir, Reason: ig.Reason,
		})
	}
	// Select checks the names and globs.
	if _, err := lint.Select(catalogue, cfg); err != nil {
		var ne *lint.NameError
		if errors.As(err, &ne) {
			loc := []string{ne.Key, strconv.Itoa(ne.Index)}
			if ne.Suppression {
				loc = append(loc, "rule")
			}
			return fail(loc, "%v", ne)
		}
		return fail([]string{"ignore"}, "%v", err)
	}
	return cfg, nil
}

// ManifestFiles expands Files, relative to the file's directory, into the
// paths of existing files, sorted, each once.
func (f *File) ManifestFiles() ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, g := range f.Files {
		pat := g
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(f.Dir, filepath.FromSlash(g))
		}
		// "**" matches any number of folders, as docs/configuration.md's
		// example and the Action's files input promise; filepath.Glob has
		// no "**". A wildcard does not go through a symbolic link to a
		// folder, as Bash's globstar and the Action's find do not: a
		// repository can commit loop -> .. (a walk without end) or
		// home -> ~ (files out of the tree, shown in code frames).
		matches, err := doublestar.FilepathGlob(pat, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
		if err != nil {
			return nil, fmt.Errorf("%s: files: bad glob %q: %v", f.Path, g, err)
		}
		for _, m := range matches {
			// WithNoFollow leaves the links to folders among the files;
			// a link to /dev/stdin or /dev/tty would wait for input.
			if fi, err := os.Stat(m); err == nil && !fi.Mode().IsRegular() {
				continue
			}
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}
