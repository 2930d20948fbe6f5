package report

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/mcpfit/mcplint/guard"
)

// Failure is what a run could not check: a file that could not be read or
// linted, or a server that could not be reached. Path names it as its
// findings would name it (a file's path, a server's name as check reports
// it); Line and Column place the failure in the file, 0 when it has no
// place. Message is the error as mcplint prints it.
//
// A report of a run with failures says that it failed, so that what it
// does not hold is not read as fixed (a run that lints nine files of ten
// must not close the tenth's alerts):
//   - SARIF: runs[0].invocations[0].executionSuccessful is false, each
//     failure an "error" toolExecutionNotification at its place (SARIF
//     2.1.0 §3.20.14, §3.20.21 and appendix I, "detecting incomplete
//     result sets": GitHub code scanning takes such a log for an
//     unsuccessful run). A run without failure has executionSuccessful
//     true.
//   - JSON: an "errors" array of {file, line, column, message}, absent
//     when nothing failed.
//   - JUnit: a test suite for each failure, named after it, whose test
//     case is in error (<error>), counted in the errors attributes.
//   - Checkstyle: an error of severity "error" and source
//     "mcplint.failure" at the failure's file and line.
//   - GitLab Code Quality: an issue of severity "blocker" and check_name
//     "mcplint-failure" at the failure's file and line (1 when it has
//     none).
//
// The text and github formats are read with the run's exit status and its
// standard error, where each failure is printed; they carry nothing more.
type Failure struct {
	Path         string
	Line, Column int
	Message      string
}

// failureCheck is the check name and source of a failure in the formats
// that name a check.
const failureCheck = "mcplint-failure"

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

// sarifInvocations is the invocation of a run with these failures.
func sarifInvocations(failures []Failure, root string) []sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: len(failures) == 0}
	for _, f := range failures {
		n := sarifNotification{Level: "error", Message: sarifMessage{Text: guard.SARIFText(f.Message)}}
		if f.Line > 0 {
			n.Locations = []sarifLocation{{Physical: sarifPhysical{
				Artifact: artifactLocation(f.Path, root),
				Region:   &sarifRegion{StartLine: f.Line, StartColumn: f.Column},
			}}}
		}
		inv.Notifications = append(inv.Notifications, n)
	}
	return []sarifInvocation{inv}
}

// JSONError is a failure in the JSON format.
type JSONError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func jsonErrors(failures []Failure) []JSONError {
	var out []JSONError
	for _, f := range failures {
		out = append(out, JSONError{File: f.Path, Line: f.Line, Column: f.Column, Message: f.Message})
	}
	return out
}

// junitFailed adds a suite in error for each failure.
func junitFailed(doc *junitSuites, failures []Failure) {
	for _, f := range failures {
		name, msg := guard.Text(filepath.ToSlash(f.Path)), guard.Text(f.Message)
		doc.Suites = append(doc.Suites, junitSuite{
			Name: name, Tests: 1, Errors: 1, Time: "0",
			Cases: []junitCase{{Name: "mcplint", Classname: name, Time: "0",
				Error: &junitFailure{Message: msg, Type: "error", Text: msg}}},
		})
		doc.Tests++
		doc.Errors++
	}
}

// checkstyleFailed is a file element for each failure.
func checkstyleFailed(failures []Failure) []checkstyleFile {
	var out []checkstyleFile
	for _, f := range failures {
		out = append(out, checkstyleFile{Name: guard.Text(filepath.ToSlash(f.Path)), Errors: []checkstyleError{{
			Line: f.Line, Column: f.Column, Severity: "error", Message: guard.Text(f.Message), Source: "mcplint.failure",
		}}})
	}
	return out
}

// gitlabFailed is a blocker issue for each failure.
func gitlabFailed(failures []Failure, root string) []gitlabIssue {
	var out []gitlabIssue
	for _, f := range failures {
		path := gitlabPath(f.Path, root)
		sum := sha256.Sum256([]byte(failureCheck + "\x00" + path))
		out = append(out, gitlabIssue{
			Description: guard.Text(f.Message), CheckName: failureCheck,
			Fingerprint: hex.EncodeToString(sum[:16]), Severity: "blocker",
			Location: gitlabLocation{Path: guard.Text(path), Lines: gitlabLines{Begin: max(f.Line, 1)}},
		})
	}
	return out
}
