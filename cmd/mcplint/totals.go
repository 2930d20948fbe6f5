package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/clients"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
	"github.com/mcpfit/mcplint/tokens"
)

// clientTotal is what the servers one client loads add up to (check
// --discover): a client puts all its servers' tools in the model's context
// together, and its caps count them together.
type clientTotal struct {
	Client string `json:"client"`
	// Configurations are the files the servers come from.
	Configurations []string `json:"configurations"`
	Servers        int      `json:"servers"`
	Tools          int      `json:"tools"`
	ContextTokens  int      `json:"contextTokens"`
	// Diagnostics are the findings of the client's caps (rules.ToolCaps)
	// on the total, located at its first configuration file.
	Diagnostics []lint.Diagnostic `json:"-"`
}

// clientTotals adds up the checked servers of each client that
// --discover found, in the order the clients were found, and applies the
// client's tool cap when the run selected its rule.
func (e *env) clientTotals(results []checked, selected *lint.Linter) []clientTotal {
	var out []clientTotal
	var configs []clients.Config // each total's first
	at := map[string]int{}
	for _, r := range results {
		c, ok := e.discovered[r.name]
		if !ok || r.err != nil {
			continue
		}
		i, seen := at[c.Client]
		if !seen {
			i = len(out)
			at[c.Client] = i
			out = append(out, clientTotal{Client: c.Client})
			configs = append(configs, c)
		}
		t := &out[i]
		if !slices.Contains(t.Configurations, c.Path) {
			t.Configurations = append(t.Configurations, c.Path)
		}
		t.Servers++
		t.Tools += len(r.listing.Manifest.Tools)
		t.ContextTokens += tokens.Manifest(r.listing.Manifest)
	}
	for i := range out {
		capTotal(&out[i], configs[i], selected)
	}
	return out
}

// capTotal reports a client's servers that offer more tools together
// than the client's cap, by the rule of that cap: the run's linter takes
// the finding in as it takes its own (Linter.Add: dropped when the rule
// does not run or a suppression matches, with the configured severity and
// the rule's consumers), and reads the option as the rule would.
func capTotal(t *clientTotal, c clients.Config, selected *lint.Linter) {
	rule := rules.ToolCaps[c.Consumer()]
	if rule == nil {
		return
	}
	limit, _ := selected.Option(rule, "max-tools").(int)
	if limit <= 0 || t.Tools <= limit {
		return
	}
	t.Diagnostics = selected.Add(t.Diagnostics, lint.Diagnostic{
		Rule: rule.ID, ToolIndex: -1, File: t.Configurations[0],
		Message: fmt.Sprintf("%s loads %d tools from its %s together, and takes at most %d (option max-tools): disable servers or tools it does not need",
			c.Client, t.Tools, english.Count(t.Servers, "server"), limit),
	})
}

// totalFiles are the findings of the totals, as report files.
func totalFiles(totals []clientTotal) []report.File {
	var out []report.File
	for _, t := range totals {
		if len(t.Diagnostics) > 0 {
			out = append(out, report.File{Diagnostics: t.Diagnostics})
		}
	}
	return out
}

// writeTotals writes the totals of the text format, one line a client,
// with the findings of its caps.
func writeTotals(w io.Writer, totals []clientTotal, home string) {
	for _, t := range totals {
		paths := make([]string, len(t.Configurations))
		for i, p := range t.Configurations {
			paths[i] = guard.Text(tilde(p, home))
		}
		fmt.Fprintf(w, "%s: %s, %s, about %s tokens of tool definitions together (%s)\n",
			guard.Text(t.Client), english.Count(t.Servers, "server"), english.Count(t.Tools, "tool"),
			report.Thousands(t.ContextTokens), strings.Join(paths, ", "))
		for _, d := range t.Diagnostics {
			fmt.Fprintf(w, "  %s %s: %s\n", d.Severity, d.Rule, guard.Text(d.Message))
		}
	}
}

// clientTotalJSON is a client's total in the JSON report of --discover.
type clientTotalJSON struct {
	clientTotal
	Diagnostics []report.JSONDiagnostic `json:"diagnostics"`
}

func (o checkReport) totalsJSON() []clientTotalJSON {
	var out []clientTotalJSON
	for _, t := range o.totals {
		j := clientTotalJSON{clientTotal: t, Diagnostics: report.NewJSONReport(totalFiles([]clientTotal{t})).Diagnostics}
		out = append(out, j)
	}
	return out
}
