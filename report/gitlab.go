package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
)

// GitLab Code Quality (https://docs.gitlab.com/ci/testing/code_quality/,
// "Code Quality report format"): a JSON array with one object a finding,
// each with the fields GitLab requires: description, check_name,
// fingerprint, severity (info, minor, major, critical or blocker) and
// location.path (relative to the repository) with location.lines.begin.
// GitLab shows it in merge requests when a job names the file under
// artifacts:reports:codequality.
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// GitLabOptions describe the run for WriteGitLab.
type GitLabOptions struct {
	// SourceRoot is the absolute path of the repository's root, to which
	// paths are made relative; "" is the current directory.
	SourceRoot string
	// Failures are what the run could not check (see Failure).
	Failures []Failure
}

// WriteGitLab writes the findings as a GitLab Code Quality report. Errors
// are "major", warnings "minor" and infos "info". The fingerprint hashes
// the rule, the path, the tool and the pointer inside it, so a finding
// keeps its fingerprint when lines move; identical findings are told apart
// by their order. A finding without a line (a whole conversation's, from
// check) is placed on line 1. The description and the path, which GitLab
// shows, pass guard.Text.
func WriteGitLab(w io.Writer, files []File, opt GitLabOptions) error {
	root, err := sourceRoot(opt.SourceRoot)
	if err != nil {
		return err
	}
	issues := []gitlabIssue{}
	seen := map[string]int{}
	for _, f := range files {
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			path := gitlabPath(d.File, root)
			key := d.Rule + "\x00" + path + "\x00" + findingKey(d.Tool) + "\x00" + findingKey(d.RelPointer)
			seen[key]++
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, seen[key])))
			msg := fullMessage(d)
			if d.Tool != "" {
				msg = fmt.Sprintf("tool %q: %s", shown(d.Tool), msg)
			}
			issues = append(issues, gitlabIssue{
				Description: guard.Text(msg),
				CheckName:   d.Rule,
				Fingerprint: hex.EncodeToString(sum[:16]),
				Severity:    gitlabSeverity(d.Severity),
				Location:    gitlabLocation{Path: guard.Text(path), Lines: gitlabLines{Begin: max(d.Line, 1)}},
			})
		}
	}
	return writeJSON(w, append(issues, gitlabFailed(opt.Failures, root)...))
}

func gitlabSeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "major"
	case lint.Warning:
		return "minor"
	}
	return "info"
}

// gitlabPath writes path relative to root with forward slashes, as GitLab
// matches it against the repository's files.
func gitlabPath(path, root string) string {
	if rel, ok := underRoot(path, root); ok && path != "<stdin>" {
		return rel
	}
	return filepath.ToSlash(path)
}
