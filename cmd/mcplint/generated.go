package main

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/internal/worktree"
)

// generatedPath refuses, before anything runs, a path where mcplint would
// write a file it generates (a report, a saved listing, a converted file,
// a baseline, a lock file) when a symbolic link in the work tree leads it
// out of the tree (package worktree). flag names the path in the error.
func generatedPath(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := worktree.Output(path); err != nil {
		sep := " "
		if strings.HasSuffix(flag, "=") {
			sep = ""
		}
		return &inputErrors{errs: []error{fmt.Errorf("%s%s%s: %w", flag, sep, shownPath(path), err)}}
	}
	return nil
}
