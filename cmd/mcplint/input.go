package main

import (
	"github.com/mcpfit/mcplint/manifest"
)

// paths returns the files named on the command line; none means standard
// input, unless it is a terminal (a forgotten argument, not a manifest about
// to be typed). Standard input can be read only once.
func (e *env) paths(args []string) ([]string, error) {
	if len(args) == 0 {
		if e.stdinTTY {
			return nil, usagef("no FILE given and standard input is a terminal: name the manifests, pipe one in, or give - to type one")
		}
		return []string{"-"}, nil
	}
	stdin := 0
	for _, a := range args {
		if a == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return nil, usagef("standard input (-) is named %d times; it can be read only once", stdin)
	}
	return args, nil
}

// load reads a manifest from a file, or from the run's standard input for
// "-" (manifest.ReadFile would read the process's).
func (e *env) load(path string) (*manifest.Manifest, error) {
	m, err := e.read(path)
	if err == nil {
		limitMemory(m.Src)
	}
	return m, err
}

func (e *env) read(path string) (*manifest.Manifest, error) {
	if path != "-" {
		return e.fileLimits.ReadFile(path)
	}
	return e.fileLimits.Read("<stdin>", e.stdin)
}
