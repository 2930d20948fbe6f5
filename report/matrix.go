package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/width"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
)

// Verdict is what one client does with one tool, as the findings say.
type Verdict int

const (
	// Accepted: no finding names the client.
	Accepted Verdict = iota
	// Changed: the client accepts the tool after a change it makes itself
	// (a rename, a tool left out of what the model sees): a finding names
	// it as altering, none as refusing.
	Changed
	// Refused: a finding names the client as refusing, or a consumer it is
	// built on (consumer.Reached).
	Refused
)

// Cell is one client's verdict on one row, with the rules of the findings
// behind it (sorted; none when accepted).
type Cell struct {
	Verdict Verdict
	Rules   []string
}

// MatrixRow is one tool of a file, or the file's findings about no tool
// (the list as a whole, prompts, resources): ToolIndex -1.
type MatrixRow struct {
	File      string
	Tool      string
	ToolIndex int
	// Cells are in the order of Matrix.Clients.
	Cells []Cell
}

// Matrix is the client matrix of a run: one row per tool, one column per
// client that reads tools in its default mode.
type Matrix struct {
	Clients []*consumer.Consumer
	Rows    []MatrixRow
}

// MatrixClients are the matrix's columns: the consumers whose mode
// clients use without being asked (consumer.Consumer.Default), less the
// MCP specification, which is no client.
func MatrixClients() []*consumer.Consumer {
	var out []*consumer.Consumer
	for _, c := range consumer.All {
		if c.Default && c.ID != consumer.MCPSpec {
			out = append(out, c)
		}
	}
	return out
}

// NewMatrix builds the matrix from the findings of files and nothing else,
// so that it cannot disagree with them: a cell is refused when a finding on
// that tool names the client as refusing (or a consumer the client is built
// on), changed when findings name it only as altering, accepted otherwise.
// Every tool of a file has a row, in order; findings about no tool go to a
// row of their own after the file's tools, present only when there are
// such findings.
func NewMatrix(files []File) Matrix {
	m := Matrix{Clients: MatrixClients()}
	for _, f := range files {
		path, n := "", 0
		if f.Manifest != nil {
			path, n = f.Manifest.Path, len(f.Manifest.Tools)
		}
		rows := make([]MatrixRow, n)
		for i := range rows {
			rows[i] = MatrixRow{File: path, Tool: f.Manifest.Tools[i].Name, ToolIndex: i, Cells: make([]Cell, len(m.Clients))}
		}
		var other *MatrixRow
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			if path == "" {
				path = d.File
			}
			row := other
			if d.ToolIndex >= 0 && d.ToolIndex < n {
				row = &rows[d.ToolIndex]
			} else if row == nil {
				other = &MatrixRow{File: path, ToolIndex: -1, Cells: make([]Cell, len(m.Clients))}
				row = other
			}
			for c, client := range m.Clients {
				if v := verdictOf(d, client.ID); v > Accepted {
					row.Cells[c].add(v, d.Rule)
				}
			}
		}
		m.Rows = append(m.Rows, rows...)
		if other != nil {
			m.Rows = append(m.Rows, *other)
		}
	}
	return m
}

// verdictOf is what the finding says of the client: Refused when the
// client refuses it or is built on a consumer that does, Changed when the
// client alters the tool, Accepted when the finding does not name it.
func verdictOf(d *lint.Diagnostic, client consumer.ID) Verdict {
	v := Accepted
	for _, r := range d.Consumers {
		if r.Mangles {
			if r.Consumer == client {
				v = max(v, Changed)
			}
		} else if slices.Contains(consumer.Reached(r.Consumer), client) {
			return Refused
		}
	}
	return v
}

// add records a finding of verdict v by rule: a worse verdict replaces
// the rules of a milder one.
func (c *Cell) add(v Verdict, rule string) {
	switch {
	case v > c.Verdict:
		c.Verdict, c.Rules = v, []string{rule}
	case v == c.Verdict:
		if i, found := slices.BinarySearch(c.Rules, rule); !found {
			c.Rules = slices.Insert(c.Rules, i, rule)
		}
	}
}

// Refused counts the rows refused by at least one client.
func (m Matrix) Refused() int {
	n := 0
	for _, r := range m.Rows {
		if slices.ContainsFunc(r.Cells, func(c Cell) bool { return c.Verdict == Refused }) {
			n++
		}
	}
	return n
}

// matrixLabels are the columns' headings, short enough for a terminal
// table; a client without one is shown by its name.
var matrixLabels = map[consumer.ID]string{
	consumer.TSSDK:            "TS SDK",
	consumer.Anthropic:        "Anthropic",
	consumer.ClaudeCode:       "Claude Code",
	consumer.ClaudeAI:         "claude.ai",
	consumer.OpenAIChat:       "OpenAI Chat",
	consumer.OpenAIResponses:  "OpenAI Resp.",
	consumer.GeminiJSONSchema: "Gemini JSON",
	consumer.VSCode:           "VS Code",
	consumer.Cursor:           "Cursor",
}

func matrixLabel(c *consumer.Consumer) string {
	if l, ok := matrixLabels[c.ID]; ok {
		return l
	}
	return c.Name
}

// maxToolColumn bounds the tool column of the terminal table, in
// columns: a tool name is a stranger's and may be of any length.
const maxToolColumn = 40

// rowLabel names a row: the tool's name, "#INDEX" for a tool without one,
// or what the row of findings about no tool stands for.
func rowLabel(r MatrixRow) string {
	switch {
	case r.ToolIndex < 0:
		return "(the server)"
	case r.Tool == "":
		return "#" + strconv.Itoa(r.ToolIndex)
	}
	return shown(r.Tool)
}

// displayWidth is the number of terminal columns s takes: two for wide
// and full-width characters.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// clip cuts s to at most w columns, ending with "…" when it was cut.
func clip(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		rw := displayWidth(string(r))
		if n+rw > w-1 {
			break
		}
		b.WriteRune(r)
		n += rw
	}
	return b.String() + "…"
}

// pad fills s with spaces to w columns.
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(w-displayWidth(s), 0))
}

// verdictMarks are the terminal table's marks.
var verdictMarks = map[Verdict]string{Accepted: "✓", Changed: "~", Refused: "✗"}

// WriteMatrix writes the matrix as a terminal table, one per file: the
// tool names (shown through guard.Text, cut to 40 columns), then one
// column per client with ✓ (accepted), ~ NOTE (accepted after a change the
// client makes) or ✗ NOTE (refused); the notes after the tables name the
// rules behind each mark.
func WriteMatrix(w io.Writer, m Matrix) error {
	bw := bufio.NewWriter(w)
	labels := make([]string, len(m.Clients))
	for i, c := range m.Clients {
		labels[i] = matrixLabel(c)
	}
	notes := map[string]int{}
	var noteText []string
	note := func(rules []string) string {
		key := strings.Join(rules, ", ")
		n, ok := notes[key]
		if !ok {
			n = len(noteText) + 1
			notes[key] = n
			noteText = append(noteText, key)
		}
		return strconv.Itoa(n)
	}
	for start := 0; start < len(m.Rows); {
		end := start
		for end < len(m.Rows) && m.Rows[end].File == m.Rows[start].File {
			end++
		}
		rows := m.Rows[start:end]
		if start > 0 {
			bw.WriteString("\n")
		}
		tools := 0
		for _, r := range rows {
			if r.ToolIndex >= 0 {
				tools++
			}
		}
		fmt.Fprintf(bw, "%s: %s\n", guard.Text(rows[0].File), count(tools, "tool"))
		names := make([]string, len(rows))
		toolWidth := displayWidth("tool")
		for i, r := range rows {
			names[i] = clip(guard.Text(rowLabel(r)), maxToolColumn)
			toolWidth = max(toolWidth, displayWidth(names[i]))
		}
		cells := make([][]string, len(rows))
		widths := make([]int, len(labels))
		for c, l := range labels {
			widths[c] = displayWidth(l)
		}
		for i, r := range rows {
			cells[i] = make([]string, len(r.Cells))
			for c, cell := range r.Cells {
				s := verdictMarks[cell.Verdict]
				if cell.Verdict != Accepted {
					s += " " + note(cell.Rules)
				}
				cells[i][c] = s
				widths[c] = max(widths[c], displayWidth(s))
			}
		}
		line := []string{pad("tool", toolWidth)}
		for c, l := range labels {
			line = append(line, pad(l, widths[c]))
		}
		bw.WriteString(strings.TrimRight(strings.Join(line, "  "), " ") + "\n")
		for i := range rows {
			line = []string{pad(names[i], toolWidth)}
			for c := range labels {
				line = append(line, pad(cells[i][c], widths[c]))
			}
			bw.WriteString(strings.TrimRight(strings.Join(line, "  "), " ") + "\n")
		}
		start = end
	}
	if len(m.Rows) > 0 {
		bw.WriteString("\n✓ accepted  ~ accepted after a change the client makes itself  ✗ refused\n")
	}
	for i, t := range noteText {
		fmt.Fprintf(bw, "%d: %s\n", i+1, t)
	}
	if len(m.Rows) == 0 {
		bw.WriteString("no tools\n")
	}
	return bw.Flush()
}

// maxMarkdownRows bounds the Markdown matrix: GitHub caps a job summary
// at 1 MiB.
const maxMarkdownRows = 500

// verdictIcons are the Markdown matrix's marks.
var verdictIcons = map[Verdict]string{Accepted: "✅", Changed: "🟡", Refused: "❌"}

// WriteMatrixMarkdown writes the matrix as Markdown, as the GitHub Action
// puts it in the job summary: a table per file, whose cells name the rules
// behind each mark, and after each table the rules with a link to their
// documentation. File and tool names are code spans (guard.Code). At most
// 500 rows are written; a line says how many more there are.
func WriteMatrixMarkdown(w io.Writer, m Matrix) error {
	bw := bufio.NewWriter(w)
	tools := 0
	for _, r := range m.Rows {
		if r.ToolIndex >= 0 {
			tools++
		}
	}
	fmt.Fprintf(bw, "### mcplint: which clients take each tool\n\n%s, %d refused by at least one client in its default mode: ", count(tools, "tool"), m.Refused())
	bw.WriteString("✅ accepted, 🟡 accepted after a change the client makes itself, ❌ refused, with the rules of the findings behind each mark.\n")
	head, sep := "| Tool |", "| --- |"
	for _, c := range m.Clients {
		head += " " + matrixLabel(c) + " |"
		sep += " --- |"
	}
	var rules []string // of the current table
	endTable := func() {
		if len(rules) == 0 {
			return
		}
		slices.Sort(rules)
		links := make([]string, len(rules))
		for i, r := range rules {
			links[i] = "[" + r + "](" + HelpURI(r) + ")"
		}
		bw.WriteString("\nRules: " + strings.Join(links, ", ") + ".\n")
		rules = rules[:0]
	}
	file, written := "", 0
	for i, r := range m.Rows {
		if written == maxMarkdownRows {
			endTable()
			fmt.Fprintf(bw, "\n%d more rows not shown; `mcplint lint --format matrix` prints them all.\n", len(m.Rows)-written)
			break
		}
		if i == 0 || r.File != file {
			endTable()
			file = r.File
			fmt.Fprintf(bw, "\n%s\n\n%s\n%s\n", guard.Code(file), head, sep)
		}
		written++
		name := guard.Code(rowLabel(r))
		if r.ToolIndex < 0 {
			name = "*the server: the list, prompts, resources*"
		}
		bw.WriteString("| " + name + " |")
		for _, cell := range r.Cells {
			s := verdictIcons[cell.Verdict]
			for _, rule := range cell.Rules {
				s += " " + rule
				if !slices.Contains(rules, rule) {
					rules = append(rules, rule)
				}
			}
			bw.WriteString(" " + s + " |")
		}
		bw.WriteString("\n")
	}
	endTable()
	if len(m.Rows) == 0 {
		bw.WriteString("\nNo tools.\n")
	}
	return bw.Flush()
}
