package manifest

import (
	"fmt"
	"os"
)

// Regular refuses, before it is opened, a path that is not a regular file
// once its links are followed; what names what the file should be ("a
// lock file"). A file mcplint only ever writes itself (a lock, a
// baseline) or finds in a cloned repository (a client's .mcp.json) is
// never a pipe or a device, and opening one waits: a FIFO blocks the open
// until a writer comes, and a repository can commit the name as a link to
// /dev/stdin or /dev/tty, which holds the run until input comes. An error
// from Stat (a missing file) is returned as it is.
//
// Manifests are not held to this: reading one from a pipe (standard input,
// a process substitution) is how they are piped in, under Limits.Size.
func Regular(path, what string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s: a folder, not %s", path, what)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (a pipe or a device), so not %s; it was not read", path, what)
	}
	return nil
}
