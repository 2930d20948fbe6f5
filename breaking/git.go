package breaking

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/mcpfit/mcplint/manifest"
)

// GitPrefix starts a source that names a file in a git revision:
// "git:REF:PATH".
const GitPrefix = "git:"

// ParseGitSource splits "git:REF:PATH" into REF and PATH; ok is false when s
// does not start with "git:". REF ends at the first colon, so a revision
// name cannot contain one (git forbids it in branch and tag names).
func ParseGitSource(s string) (ref, path string, ok bool, err error) {
	rest, ok := strings.CutPrefix(s, GitPrefix)
	if !ok {
		return "", "", false, nil
	}
	ref, path, found := strings.Cut(rest, ":")
	if !found || ref == "" || path == "" {
		return "", "", true, fmt.Errorf("%q: want git:REF:PATH, such as git:main:tools.json", s)
	}
	return ref, path, true, nil
}

// ReadGit loads the manifest that "git:REF:PATH" names: PATH as committed
// in revision REF of the git repository that contains dir ("" for the
// current directory), read with `git show REF:PATH`. As for git, PATH is
// relative to the top of the repository unless it starts with "./" or
// "../". The manifest is named s and loaded under limits; git's output is
// read no further than their size.
func ReadGit(ctx context.Context, dir, s string, limits manifest.Limits) (*manifest.Manifest, error) {
	ref, path, ok, err := ParseGitSource(s)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%q is not a git:REF:PATH source", s)
	}
	if strings.HasPrefix(ref, "-") {
		return nil, fmt.Errorf("%q: a revision cannot start with \"-\"", s)
	}
	if limits.Size <= 0 {
		limits.Size = manifest.DefaultLimits.Size
	}
	// Cancelled when the output passes the limit, so that git, blocked on
	// a full pipe, is stopped.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "show", "--no-textconv", ref+":"+path)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: cannot run git: %w", s, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: cannot run git: %w", s, err)
	}
	out, readErr := manifest.ReadAll(stdout, s, limits.Size)
	if readErr != nil {
		cancel()
		_ = cmd.Wait()
		return nil, readErr
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := strings.TrimSpace(errb.String())
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			return nil, fmt.Errorf("%s: git show %s:%s failed: %s", s, ref, path, msg)
		}
		return nil, fmt.Errorf("%s: cannot run git: %w", s, err)
	}
	return limits.Load(s, out)
}
