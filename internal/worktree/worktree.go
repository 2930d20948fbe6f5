// Package worktree owns what mcplint knows of the work tree it runs in:
// where its root is (the nearest directory up that holds .git, or the
// current directory outside a repository), and whether a file mcplint
// generates may be written at a path.
//
// # Generated files and symbolic links
//
// A repository can commit a symbolic link, and a link named like a report
// (report.sarif -> ~/.profile, or a reports/ folder -> ~/.ssh) would have
// mcplint overwrite a file of the user's out of the tree when it writes
// the report there. So a file mcplint generates (a report of --format
// FORMAT=PATH, check --save, convert -o, lint --write-baseline, lock's
// --lockfile, init's .mcplint.yaml) is not written through a link found
// inside the work tree that leads out of it: Output refuses the path. A
// link that stays inside the tree is followed, and a path the user gives
// outside the tree is the user's to name (its links are the user's, like
// /var -> /private/var on macOS). The manifests fix -w rewrites are a
// different case: each is the user's file, rewritten from its own
// contents, and a link to it is followed and stays a link, as gofmt and
// ruff do.
package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Root returns the root of the git work tree holding dir (the nearest
// directory, dir included, that holds .git), and false when there is none.
func Root(dir string) (string, bool) {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// LinkError is a generated file's path that leads, through a symbolic
// link inside the work tree, out of it.
type LinkError struct {
	Path   string // as given
	Link   string // the link met on the way
	Target string // where the link leads
	Tree   string // the work tree's root
}

func (e *LinkError) Error() string {
	what := e.Link + " is a symbolic link"
	if filepath.Clean(e.Link) != filepath.Clean(e.Path) {
		what = e.Path + " goes through " + e.Link + ", a symbolic link"
	}
	return fmt.Sprintf("%s to %s, out of the work tree %s: mcplint does not write what it generates through a link that leads out of the work tree (remove the link, or name a file out of the tree yourself)", what, e.Target, e.Tree)
}

// Output checks that a file mcplint generates may be written at path: no
// symbolic link met on the way to it, inside the work tree of the current
// directory, leads out of that tree (see the package documentation). A
// path outside the tree is not examined.
func Output(path string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	tree, ok := Root(wd)
	if !ok {
		tree = wd
	}
	abs := filepath.Clean(path)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	rel, err := filepath.Rel(tree, abs)
	if err != nil || !inside(rel) {
		return nil
	}
	realTree, err := filepath.EvalSymlinks(tree)
	if err != nil {
		return err
	}
	at := tree
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // created as a plain directory or file
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := resolve(at)
		if err != nil {
			return err
		}
		if r, err := filepath.Rel(realTree, target); err != nil || !inside(r) {
			if at == abs {
				at = path // the link is the file named
			}
			return &LinkError{Path: path, Link: at, Target: target, Tree: tree}
		}
	}
	return nil
}

// inside says whether a relative path stays in its base.
func inside(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolve is where the link at path leads, every link followed, whether
// or not the file it names exists: a link to a missing ~/.profile would
// create it.
func resolve(path string) (string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	target, err := os.Readlink(path)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	// The longest part that exists, resolved, and the rest as it is.
	rest := ""
	for dir := target; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return target, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
