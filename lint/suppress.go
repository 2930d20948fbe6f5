package lint

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// Suppression drops the findings it matches, whatever rules run: it is how
// a project records that it accepts a finding (a configuration's "ignore"
// entries). Rule, Tool and File must all match; an empty one matches
// everything.
type Suppression struct {
	// Rule is a rule ID or a pack name.
	Rule string
	// Tool is a path.Match glob on the tool's name.
	Tool string
	// File is a path.Match glob on the manifest's path made relative to
	// Dir (the current directory when Dir is empty); a pattern without "/"
	// matches the path's last element. Standard input matches only an
	// empty File.
	File string
	Dir  string
	// Reason says why the findings are accepted.
	Reason string
}

// check reports a malformed glob.
func (s *Suppression) check() error {
	for _, g := range []string{s.Tool, s.File} {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("ignore: bad glob %q: %v", g, err)
		}
	}
	return nil
}

// Matches reports whether the suppression drops d, a finding of rule r.
func (s *Suppression) Matches(r *Rule, d *Diagnostic) bool {
	if s.Rule != "" && !matches(r, s.Rule) {
		return false
	}
	if s.Tool != "" {
		if ok, _ := path.Match(s.Tool, d.Tool); !ok {
			return false
		}
	}
	if s.File == "" {
		return true
	}
	if d.File == "" || d.File == "<stdin>" {
		return false
	}
	p := d.File
	if s.Dir != "" {
		if abs, err := filepath.Abs(p); err == nil {
			if rel, err := filepath.Rel(s.Dir, abs); err == nil {
				p = rel
			}
		}
	}
	p = filepath.ToSlash(filepath.Clean(p))
	if !strings.Contains(s.File, "/") {
		p = path.Base(p)
	}
	ok, _ := path.Match(s.File, p)
	return ok
}

// suppressed reports whether a suppression of the configuration drops d.
func (l *Linter) suppressed(r *Rule, d *Diagnostic) bool {
	for i := range l.Config.Suppress {
		if l.Config.Suppress[i].Matches(r, d) {
			return true
		}
	}
	return false
}
