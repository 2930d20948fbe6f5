package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpfit/mcplint/manifest"
)

// Source is a tool list given to a tool: as text, or as a file of the
// workspace.
type Source struct {
	Manifest string `json:"manifest,omitempty" jsonschema:"The tool list itself: a tools/list result, an array of tools or one tool (also OpenAI, Anthropic or Gemini function tools), as JSON or YAML. Give this or path."`
	Path     string `json:"path,omitempty" jsonschema:"A file of the workspace holding the tool list, relative to the workspace folder (an absolute path must lie inside it). Give this or manifest."`
}

// load reads the tool list of s within the limits.
func (h *handlers) load(s Source) (*manifest.Manifest, error) {
	switch {
	case s.Manifest != "" && s.Path != "":
		return nil, errors.New("give manifest or path, not both")
	case s.Manifest != "":
		// Load fills the default limits and refuses an oversized text
		// before parsing it, in the command line's words.
		return h.o.Limits.Load("manifest", []byte(s.Manifest))
	case s.Path != "":
		rel, err := h.inside(s.Path)
		if err != nil {
			return nil, err
		}
		// Stat first: opening a FIFO waits for a writer, and the tool call
		// with it.
		if fi, err := h.root.Stat(rel); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", s.Path)
		}
		f, err := h.root.Open(rel)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Path, cleanPathError(err))
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", s.Path)
		}
		return h.o.Limits.Read(filepath.ToSlash(rel), f)
	}
	return nil, errors.New("give the tool list as manifest (its text) or path (a file of the workspace)")
}

// inside turns a path given to a tool into one relative to the workspace;
// an absolute path must lie in it. The os.Root the file is then opened in
// refuses what leaves the workspace on the way: "..", and symbolic links
// to outside.
func (h *handlers) inside(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", errors.New("path: holds a NUL byte")
	}
	if !filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	ws, err := filepath.Abs(h.o.Workspace)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	rel, err := filepath.Rel(ws, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: outside the workspace %s", p, ws)
	}
	return rel, nil
}

// cleanPathError says why a file could not be opened, without the
// os.Root's wording of the full path.
func cleanPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, os.ErrNotExist) {
			return errors.New("no such file in the workspace")
		}
		if strings.Contains(pe.Err.Error(), "escapes") {
			return errors.New("outside the workspace (through \"..\" or a symbolic link)")
		}
		return pe.Err
	}
	return err
}
