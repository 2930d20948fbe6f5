package realworld

import (
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
)

// TestMatrixAgreesWithFindings: the client matrix of the default run over
// the whole corpus agrees, cell by cell, with the findings as the JSON
// report gives them (refusedBy, alteredBy): a cell is refused exactly when
// a finding on its tool names the client, or a consumer the client is
// built on, as refusing, with exactly those findings' rules; altered when
// findings name it only as altering; accepted otherwise. And every case a
// default-mode client refuses (the corpus's verdicts) has a refused mark
// in that client's column.
func TestMatrixAgreesWithFindings(t *testing.T) {
	cases := corpus(t)
	var files []report.File
	for _, cc := range cases {
		files = append(files, report.File{Manifest: cc.Manifest, Diagnostics: lintCase(t, cc.Manifest, lint.Config{})})
	}
	mx := report.NewMatrix(files)
	rows := 0
	checked := map[report.Verdict]int{}
	for _, f := range files {
		// The rows of this file, in order: its tools, then findings about no tool.
		var mine []report.MatrixRow
		for _, r := range mx.Rows {
			if r.File == f.Manifest.Path {
				mine = append(mine, r)
			}
		}
		rows += len(mine)
		rep := report.NewJSONReport([]report.File{f})
		toolless := slices.ContainsFunc(rep.Diagnostics, func(d report.JSONDiagnostic) bool { return d.ToolIndex < 0 })
		want := len(f.Manifest.Tools)
		if toolless {
			want++
		}
		if len(mine) != want {
			t.Fatalf("%s: %d rows, want %d (%d tools)", f.Manifest.Path, len(mine), want, len(f.Manifest.Tools))
		}
		for i, row := range mine {
			if i < len(f.Manifest.Tools) && (row.ToolIndex != i || row.Tool != f.Manifest.Tools[i].Name) {
				t.Errorf("%s row %d is tool %d %q, want %q", f.Manifest.Path, i, row.ToolIndex, row.Tool, f.Manifest.Tools[i].Name)
			}
			for c, client := range mx.Clients {
				var refused, altered []string
				for _, d := range rep.Diagnostics {
					if d.ToolIndex != row.ToolIndex && !(row.ToolIndex < 0 && (d.ToolIndex < 0 || d.ToolIndex >= len(f.Manifest.Tools))) {
						continue
					}
					for _, id := range d.RefusedBy {
						if slices.Contains(consumer.Reached(consumer.ID(id)), client.ID) && !slices.Contains(refused, d.Rule) {
							refused = append(refused, d.Rule)
						}
					}
					if slices.Contains(d.AlteredBy, string(client.ID)) && !slices.Contains(altered, d.Rule) {
						altered = append(altered, d.Rule)
					}
				}
				slices.Sort(refused)
				slices.Sort(altered)
				wantCell := report.Cell{Verdict: report.Accepted}
				switch {
				case len(refused) > 0:
					wantCell = report.Cell{Verdict: report.Refused, Rules: refused}
				case len(altered) > 0:
					wantCell = report.Cell{Verdict: report.Changed, Rules: altered}
				}
				got := row.Cells[c]
				checked[got.Verdict]++
				if got.Verdict != wantCell.Verdict || !slices.Equal(got.Rules, wantCell.Rules) {
					t.Errorf("%s, tool %d %q, %s: the matrix says %v %v, the findings %v %v",
						f.Manifest.Path, row.ToolIndex, row.Tool, client.ID, got.Verdict, got.Rules, wantCell.Verdict, wantCell.Rules)
				}
			}
		}
	}
	if rows != len(mx.Rows) {
		t.Errorf("%d rows belong to the corpus's files, the matrix has %d", rows, len(mx.Rows))
	}
	// The corpus has refusals and alterations: a matrix of only ticks
	// would agree with findings that were never looked at.
	t.Logf("cells per verdict: %v", checked)
	if checked[report.Refused] < 50 || checked[report.Changed] == 0 {
		t.Errorf("cells checked per verdict: %v", checked)
	}

	for i, cc := range cases {
		for c, client := range mx.Clients {
			if cc.File.Verdicts[string(client.ID)] != "refuse" {
				continue
			}
			if _, known := knownMisses[cc.Name+"/"+string(client.ID)]; known {
				continue
			}
			marked := slices.ContainsFunc(mx.Rows, func(r report.MatrixRow) bool {
				return r.File == files[i].Manifest.Path && r.Cells[c].Verdict == report.Refused
			})
			if !marked {
				t.Errorf("%s: %s refuses it (%s), but no tool is marked refused in its column", cc.Name, client.Name, firstLine(cc.File.Basis, string(client.ID)))
			}
		}
	}
}
