package breaking

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/mcplint/mcplint/manifest"
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
// "../". The manifest is named s.
func ReadGit(ctx context.Context, dir, s string) (*manifest.Manifest, error) {
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
	cmd := exec.CommandContext(ctx, "git", "show", "--no-textconv", ref+":"+path)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
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
	if out.Len() > manifest.MaxSize {
		return nil, &manifest.Error{Path: s, Msg: fmt.Sprintf("input is larger than %d MiB; split the tool list", manifest.MaxSize>>20)}
	}
	return manifest.Load(s, out.Bytes())
}
