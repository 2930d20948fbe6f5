package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
)

// Infos are advice: worth reading once, not once per parameter. On the
// servers people check first (GitHub's, Chrome DevTools', Firecrawl's),
// one rule's infos came one or two per tool and filled the screen around
// the few warnings that matter. So the text format sums up each rule's
// infos in one line unless TextOptions.ShowInfos asks for them, as ruff's
// --statistics sums up a run; the JSON, SARIF and other machine formats
// keep every finding.

// infoTally counts the infos held back, by rule, in the order met.
type infoTally struct {
	rules []string
	by    map[string]*infoCount
}

type infoCount struct {
	n     int
	tools []string // distinct tool (or entry) names, in the order met
	seen  map[string]bool
}

// maxInfoTools is how many tools a summed-up rule names.
const maxInfoTools = 3

// hold counts d and reports whether it was held back.
func (t *infoTally) hold(d *lint.Diagnostic) {
	if t.by == nil {
		t.by = map[string]*infoCount{}
	}
	c := t.by[d.Rule]
	if c == nil {
		c = &infoCount{seen: map[string]bool{}}
		t.by[d.Rule] = c
		t.rules = append(t.rules, d.Rule)
	}
	c.n++
	if name := d.Tool; name != "" && !c.seen[name] {
		c.seen[name] = true
		c.tools = append(c.tools, name)
	}
}

// split returns the findings of ds to write in full, holding back the
// infos (ds itself when it has none).
func (t *infoTally) split(ds []lint.Diagnostic) []lint.Diagnostic {
	n := 0
	for i := range ds {
		if ds[i].Severity == lint.Info {
			n++
		}
	}
	if n == 0 {
		return ds
	}
	out := make([]lint.Diagnostic, 0, len(ds)-n)
	for i := range ds {
		if ds[i].Severity == lint.Info {
			t.hold(&ds[i])
			continue
		}
		out = append(out, ds[i])
	}
	return out
}

// write writes one line per rule held back, then a blank line.
func (t *infoTally) write(w io.Writer, p palette) {
	if len(t.rules) == 0 {
		return
	}
	for _, rule := range t.rules {
		c := t.by[rule]
		var b strings.Builder
		b.WriteString(p.paint(p.sev(lint.Info), "info"))
		b.WriteString(" ")
		b.WriteString(p.paint(p.rule, rule))
		b.WriteString(": ")
		b.WriteString(strconv.Itoa(c.n))
		b.WriteString(english.Plural(c.n, " finding", " findings"))
		if len(c.tools) > 0 {
			b.WriteString(" (")
			b.WriteString(quotedNames(c.tools))
			b.WriteString(")")
		}
		b.WriteString("\n")
		io.WriteString(w, b.String())
	}
	fmt.Fprintf(w, "%s\n\n", p.paint(p.hint, "(infos summed up: --show-infos shows each; mcplint rules ID explains a rule)"))
}

// quotedNames names up to maxInfoTools tools, and how many more.
func quotedNames(names []string) string {
	named := names
	if len(named) > maxInfoTools {
		named = named[:maxInfoTools]
	}
	parts := make([]string, len(named))
	for i, n := range named {
		parts[i] = `"` + guard.Text(shown(n)) + `"`
	}
	s := strings.Join(parts, ", ")
	if more := len(names) - len(named); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}
