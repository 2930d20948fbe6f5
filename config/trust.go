package config

import (
	"os"
	"path/filepath"
)

// Who may have written a configuration file matters, because it names
// commands that `mcplint check` runs (its servers). So the search that
// finds one is bounded as git bounds the repositories it will use
// (safe.directory, git-config(1): a repository owned by someone else is
// refused, since a crafted .git/config runs commands) and as OpenSSH
// bounds the files it reads (a file, and each directory above it, owned
// by the user or root and writable by no one else):
//
//   - the search starts in the given directory and goes up, and stops at
//     the root of the git work tree (a directory holding .git): above it
//     is no longer the project;
//   - a directory is searched only when it is the user's: owned by the
//     user (or root) and writable by no other user (a group write bit is
//     allowed for a user private group, the group of the user's own name,
//     as login.defs' USERGROUPS_ENAB creates them). The search stops at
//     the first directory that is not, such as /tmp, so a file another
//     user left there is never taken;
//   - a file found is taken only when it, and the file a symbolic link
//     leads to and the directory holding that, pass the same test.
//
// A file that is not a regular file once links are followed (a pipe, a
// device) is refused too. A file the search refuses is named in Found.Refused with the reason,
// and nothing above it is taken instead. A file given explicitly
// (--config) is the user's choice and is read as it is. On Windows the
// owner and mode are not examined (its ACLs say who may write; git's
// check there compares owners' SIDs): the repository bound applies.

// Refusal is a configuration file the search would have taken but did
// not trust, and why.
type Refusal struct {
	Path, Reason string
}

// Found is the outcome of Search: the file to read ("" for none), and the
// files refused on the way.
type Found struct {
	Path    string
	Refused []Refusal
}

// Search looks for the configuration file of dir: in dir and its parents,
// up to the root of the git work tree and no further than the user's own
// directories (see above). It stops at the first directory that has one.
func Search(dir string) (Found, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Found{}, err
	}
	for {
		dirWhy := untrustedDir(dir)
		for _, n := range Names {
			p := filepath.Join(dir, n)
			fi, err := os.Stat(p)
			if err != nil || fi.IsDir() {
				continue
			}
			why := dirWhy
			if why == "" && !fi.Mode().IsRegular() {
				// A link committed to /dev/stdin, or a pipe, would hold the
				// run until input comes (on Windows too, where owners are
				// not examined).
				why = "it is not a regular file (a pipe or a device)"
			}
			if why == "" {
				why = untrustedFile(p)
			}
			if why != "" {
				return Found{Refused: []Refusal{{Path: p, Reason: why}}}, nil
			}
			return Found{Path: p}, nil
		}
		if dirWhy != "" {
			return Found{}, nil // not the user's: nothing above it is either
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return Found{}, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Found{}, nil
		}
		dir = parent
	}
}

// untrustedDir says why dir is not the user's, "" when it is.
func untrustedDir(dir string) string {
	fi, err := os.Stat(dir)
	if err != nil {
		return err.Error()
	}
	if why := untrusted(fi); why != "" {
		return "the directory " + dir + " " + why
	}
	return ""
}

// untrustedFile says why the file at path is not to be read, "" when it
// may be: it, and the file a link leads to and that file's directory.
func untrustedFile(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err.Error()
	}
	fi, err := os.Stat(real)
	if err != nil {
		return err.Error()
	}
	what := "it"
	if real != path {
		what = "the file it links to, " + real + ","
		if why := untrustedDir(filepath.Dir(real)); why != "" {
			return why
		}
	}
	if why := untrusted(fi); why != "" {
		return what + " " + why
	}
	return ""
}
