package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

// profileLine is one line of a consumer's profile as the reports show it,
// with the rules that report it (their Refusal.Line).
type profileLine struct {
	consumer.Line
	what  string // what the line says, in a few words
	rules []string
}

// profileLines lists the lines of p, the allowlist's Unlisted line first,
// each with the rules that report it.
func profileLines(p *consumer.Profile, rules []*lint.Rule) []profileLine {
	lines := p.Lines
	if p.Unlisted != nil {
		lines = append([]consumer.Line{*p.Unlisted}, lines...)
	}
	out := make([]profileLine, len(lines))
	for i, l := range lines {
		out[i] = profileLine{Line: l, what: lineWhat(l)}
		for _, r := range rules {
			if slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool { return f.Consumer == p.Consumer && f.Line == l.ID }) {
				out[i].rules = append(out[i].rules, r.ID)
			}
		}
	}
	return out
}

// lineWhat says what a line takes or refuses, with its keywords, values
// and bounds.
func lineWhat(l consumer.Line) string {
	s := l.Text
	var data []string
	switch l.Kind {
	case consumer.Keywords:
		if len(l.Keywords) > 0 {
			data = append(data, strings.Join(l.Keywords, ", "))
		}
	case consumer.Values:
		on := ""
		if l.Type != "" {
			on = " on " + l.Type
		}
		data = append(data, l.Keywords[0]+on+": "+strings.Join(l.Values, ", "))
	case consumer.Limit:
		data = append(data, l.Measure+" ≤ "+strconv.Itoa(l.Max))
	case consumer.Name:
		d := "[" + l.Chars + "]"
		if l.First != "" {
			d = "first [" + l.First + "], then " + d
		}
		if l.Max > 0 {
			d += ", at most " + strconv.Itoa(l.Max)
		}
		data = append(data, d)
	}
	if len(data) > 0 && !strings.Contains(s, data[0]) {
		s += " (" + strings.Join(data, "; ") + ")"
	}
	return s
}

// kindName names what a line of a profile is, for its reports.
func kindName(l consumer.Line) string {
	switch {
	case l.ID == "unlisted":
		return "otherwise"
	case l.Kind == consumer.Keywords && l.Refuse:
		return "refuses"
	case l.Kind == consumer.Keywords:
		return "takes"
	case l.Kind == consumer.Values:
		return "values"
	case l.Kind == consumer.Requires:
		return "requires"
	case l.Kind == consumer.Name:
		return "name"
	case l.Kind == consumer.Limit:
		return "limit"
	}
	return "check"
}

// profileKind says whether a profile is an allowlist or a denylist.
func profileKind(p *consumer.Profile) string {
	if p.Allowlist {
		return "allowlist: what no line takes is reported"
	}
	return "denylist: no documented list of what it takes; the lines are what it refuses or alters"
}

// WriteProfile writes the profile of consumer c for `mcplint rules
// CONSUMER`: what it is based on, then each line with what the consumer
// does otherwise, the rules that report it and its source.
func WriteProfile(w io.Writer, c *consumer.Consumer, rules []*lint.Rule) error {
	p := consumer.ProfileOf(c.ID)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s, %s (default: %s)\n", c.ID, c.Name, c.Mode, onOff(c.Default))
	if p == nil {
		fmt.Fprintln(bw, "No profile.")
		return bw.Flush()
	}
	fmt.Fprintf(bw, "Profile: %s.\nBased on: %s.\n", profileKind(p), p.Basis)
	for _, l := range profileLines(p, rules) {
		fmt.Fprintf(bw, "\n%s %s: %s\n", kindName(l.Line), l.ID, l.what)
		if l.Kind != consumer.Keywords || l.Refuse || l.ID == "unlisted" {
			fmt.Fprintf(bw, "  otherwise: %s", l.Action)
			if l.Error != "" {
				fmt.Fprintf(bw, " (%q)", l.Error)
			}
			fmt.Fprintln(bw)
		}
		if len(l.rules) > 0 {
			fmt.Fprintf(bw, "  reported by: %s\n", strings.Join(l.rules, ", "))
		}
		fmt.Fprintf(bw, "  source: %s\n", l.Source)
	}
	return bw.Flush()
}

// JSONProfile is a consumer's profile in `mcplint rules CONSUMER --format
// json`.
type JSONProfile struct {
	Version   int               `json:"version"`
	Consumer  string            `json:"consumer"`
	Allowlist bool              `json:"allowlist"`
	Basis     string            `json:"basis"`
	Lines     []JSONProfileLine `json:"lines"`
	Rules     []JSONRule        `json:"rules"`
}

// JSONProfileLine is one line of a profile.
type JSONProfileLine struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Keywords, Values, Type and Max are the line's data, where it has them.
	Keywords []string `json:"keywords,omitempty"`
	Values   []string `json:"values,omitempty"`
	Type     string   `json:"type,omitempty"`
	Max      int      `json:"max,omitempty"`
	// Action is what the consumer does otherwise (as in a finding's
	// "consumers").
	Action     string   `json:"action"`
	Error      string   `json:"error,omitempty"`
	Source     string   `json:"source"`
	ReportedBy []string `json:"reportedBy"`
}

// WriteProfileJSON writes the profile of consumer c, and the rules that
// protect it, as JSON.
func WriteProfileJSON(w io.Writer, c *consumer.Consumer, rules, all []*lint.Rule) error {
	p := consumer.ProfileOf(c.ID)
	doc := JSONProfile{Version: JSONVersion, Consumer: string(c.ID), Lines: []JSONProfileLine{}, Rules: []JSONRule{}}
	if p != nil {
		doc.Allowlist, doc.Basis = p.Allowlist, p.Basis
		for _, l := range profileLines(p, all) {
			doc.Lines = append(doc.Lines, JSONProfileLine{ID: l.ID, Kind: kindName(l.Line), Text: l.Text,
				Keywords: l.Keywords, Values: l.Values, Type: l.Type, Max: l.Max,
				Action: actionNames[l.Action], Error: l.Error, Source: l.Source, ReportedBy: nonNil(l.rules)})
		}
	}
	for _, r := range rules {
		doc.Rules = append(doc.Rules, NewJSONRule(r, all))
	}
	return writeJSON(w, doc)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// profileMarkdown writes consumer c's profile as a section's table.
func profileMarkdown(bw *bufio.Writer, c *consumer.Consumer, rules []*lint.Rule) {
	p := consumer.ProfileOf(c.ID)
	if p == nil {
		return
	}
	fmt.Fprintf(bw, "Profile (%s). Based on: %s.\n\n", mdCell(profileKind(p)), mdCell(p.Basis))
	fmt.Fprint(bw, "| Line | What | Otherwise | Reported by | Source |\n|---|---|---|---|---|\n")
	for _, l := range profileLines(p, rules) {
		otherwise := "–"
		if l.Kind != consumer.Keywords || l.Refuse || l.ID == "unlisted" {
			otherwise = l.Action.String()
			if l.Error != "" {
				otherwise += ": `" + strings.ReplaceAll(l.Error, "|", `\|`) + "`"
			}
		}
		var by []string
		for _, id := range l.rules {
			by = append(by, "[`"+id+"`](rules.md#"+id+")")
		}
		fmt.Fprintf(bw, "| %s `%s` | %s | %s | %s | %s |\n", kindName(l.Line), l.ID, mdCell(l.what), otherwise, strings.Join(by, ", "), mdCell(l.Source))
	}
	fmt.Fprintln(bw)
}
