package report

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
)

// WriteGitHub writes one GitHub Actions workflow command a diagnostic
// (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions):
//
//	::error file=tools.json,line=4,col=7,title=mcplint tool-name-valid::tool name "read file" contains a space; ...
//
// errors as ::error, warnings as ::warning, infos as ::notice, which the
// runner shows as annotations on the pull request's files. Values pass
// guard.WorkflowData and guard.WorkflowProperty: shown as guard.Text shows
// them, with no runner command marker, then escaped as the Actions toolkit
// does (actions/toolkit, packages/core/src/command.ts): "%", CR and LF in
// the message; "%", CR, LF, ":" and "," in properties. Each finding is one
// command, whatever its values hold.
//
// GitHub places an annotation by the file's path from the repository's
// root, so paths inside opt.SourceRoot are written relative to it, whatever
// folder mcplint ran in.
func WriteGitHub(w io.Writer, files []File, opt GitHubOptions) error {
	root, err := sourceRoot(opt.SourceRoot)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, f := range files {
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			props := []string{"file=" + guard.WorkflowProperty(githubPath(d.File, root))}
			if d.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", d.Line), fmt.Sprintf("col=%d", d.Column))
			}
			props = append(props, "title="+guard.WorkflowProperty("mcplint "+d.Rule))
			msg := fullMessage(d)
			if d.Tool != "" {
				msg = fmt.Sprintf("tool %q: %s", shown(d.Tool), msg)
			}
			if d.Fix != nil {
				msg += " (" + fixHint(d) + ")"
			}
			fmt.Fprintf(bw, "::%s %s::%s\n", githubLevel(d.Severity), strings.Join(props, ","), guard.WorkflowData(msg))
		}
	}
	return bw.Flush()
}

func fixHint(d *lint.Diagnostic) string {
	if d.FixKind() == lint.SafeFix {
		return "fixable with `mcplint fix`"
	}
	return "fixable with `mcplint fix --unsafe-fixes`"
}

func githubLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "notice"
}

// GitHubOptions describe the run for WriteGitHub.
type GitHubOptions struct {
	// SourceRoot is the absolute path of the repository's root (the
	// workspace), to which paths are made relative; "" is the current
	// directory.
	SourceRoot string
}

// githubPath is p from root, with forward slashes; standard input and
// paths outside root as they are.
func githubPath(p, root string) string {
	if p == "<stdin>" {
		return p
	}
	if rel, ok := underRoot(p, root); ok {
		return rel
	}
	return filepath.ToSlash(p)
}

// WriteGitHubSummary writes the Markdown job summary that mcplint appends to
// the file named by GITHUB_STEP_SUMMARY: the counts, then a table of the
// findings (the first 200: GitHub caps a step summary at 1 MiB). The file,
// tool and message cells are code spans (guard.Code): nothing of the input
// becomes a link, an image or HTML.
func WriteGitHubSummary(w io.Writer, files []File) error {
	const maxRows = 200
	s := Summarize(files)
	bw := bufio.NewWriter(w)
	icon := "✅"
	switch {
	case s.Errors > 0:
		icon = "❌"
	case s.Warnings > 0:
		icon = "⚠️"
	}
	fmt.Fprintf(bw, "### %s mcplint\n\n%s\n\n", icon, s)
	if s.Total() == 0 {
		return bw.Flush()
	}
	fmt.Fprint(bw, "| Severity | File | Line | Rule | Tool | Message |\n| --- | --- | ---: | --- | --- | --- |\n")
	rows := 0
	for _, f := range files {
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			if rows == maxRows {
				fmt.Fprintf(bw, "\n%d more not shown; run `mcplint lint` for all.\n", s.Total()-maxRows)
				return bw.Flush()
			}
			rows++
			fmt.Fprintf(bw, "| %s | %s | %d | [%s](%s) | %s | %s |\n",
				d.Severity, guard.Code(githubPath(d.File, "")), d.Line, d.Rule, HelpURI(d.Rule), guard.Code(shown(d.Tool)), guard.Code(fullMessage(d)))
		}
	}
	return bw.Flush()
}
