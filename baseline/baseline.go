// Package baseline records the findings a project accepts today so that
// adopting mcplint in an existing project reports only new ones.
//
// A finding is identified by its rule (any of the rules merged into it),
// its file, its tool's name and the JSON Pointer of the finding inside the
// tool, never by line number or by
// the tool's position in the list, so editing or reordering elsewhere does
// not revive it. Identical findings are counted: a baseline holding one
// lets one through, not every later copy.
//
// The file is JSON: {"version": 1, "findings": [{"rule", "file", "tool",
// "pointer", "message"}]}, sorted, one finding an element; "message" is for
// readers and is not matched. Paths are relative to the baseline file's
// directory, with "/" separators, so the file works from any directory and
// on any system.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcpfit/mcplint/atomicfile"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/elide"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Version is the baseline file format's version.
const Version = 1

// Baseline is a set of accepted findings.
type Baseline struct {
	Version  int       `json:"version"`
	Findings []Finding `json:"findings"`
}

// Finding identifies one accepted finding.
type Finding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Tool    string `json:"tool"`
	Pointer string `json:"pointer"`
	Message string `json:"message,omitempty"`
}

func (f Finding) key() Finding { f.Message = ""; return f }

// New records diags; dir is the directory of the baseline file, against
// which file paths are made relative.
func New(dir string, diags []lint.Diagnostic) *Baseline {
	b := &Baseline{Version: Version, Findings: []Finding{}}
	for i := range diags {
		f := identify(dir, &diags[i])
		f.Message = diags[i].Message
		b.Findings = append(b.Findings, f)
	}
	slices.SortFunc(b.Findings, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Tool, y.Tool),
			cmp.Compare(x.Pointer, y.Pointer), cmp.Compare(x.Rule, y.Rule), cmp.Compare(x.Message, y.Message))
	})
	return b
}

func identify(dir string, d *lint.Diagnostic) Finding {
	return Finding{Rule: d.Rule, File: relPath(dir, d.File), Tool: elide.Key(d.Tool, maxKey), Pointer: elide.Key(d.RelPointer, maxKey)}
}

// maxKey bounds the tool name and pointer a baseline stores: a longer one
// is stored as its start and the SHA-256 digest of the whole (elide.Key),
// with the bound SARIF fingerprints key it with, so that a 100 KB name
// repeated in every finding of a tool makes no baseline of hundreds of
// megabytes, and the finding is still known again in the next run.
const maxKey = elide.MaxKey

func relPath(dir, file string) string {
	if file == "" || file == "<stdin>" || dir == "" {
		return filepath.ToSlash(file)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// Filter returns the diagnostics the baseline does not hold; dir is the
// baseline file's directory.
func (b *Baseline) Filter(dir string, diags []lint.Diagnostic) []lint.Diagnostic {
	left := map[Finding]int{}
	for _, f := range b.Findings {
		left[f.key()]++
	}
	var out []lint.Diagnostic
	for i := range diags {
		if b.holds(left, identify(dir, &diags[i]), diags[i].Rules()) {
			continue
		}
		out = append(out, diags[i])
	}
	return out
}

// Limits bound reading a baseline file: the limits of a manifest (its
// nesting), and a size that holds some two hundred thousand findings.
var Limits = func() manifest.Limits {
	l := manifest.DefaultLimits
	l.Size = 64 << 20
	return l
}()

// holds takes from left a finding k under any of the IDs the finding is
// known by (its rule's and those merged into it): which rule keeps a
// merged finding depends on the selection, and the baseline accepts the
// finding, not one of its names.
func (b *Baseline) holds(left map[Finding]int, k Finding, ids []string) bool {
	for _, id := range ids {
		k.Rule = id
		if left[k] > 0 {
			left[k]--
			return true
		}
	}
	return false
}

// Read loads a baseline file. Only a regular file is opened: a baseline
// is one that Write made, and a repository can commit it as a FIFO or a
// link to /dev/stdin, which would hold lint --baseline until input came.
func Read(path string) (*Baseline, error) {
	if err := manifest.Regular(path, "a baseline file"); err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	doc, err := Limits.ReadDocument(path, manifest.JSON)
	if err != nil {
		var me *manifest.Error
		if errors.As(err, &me) {
			return nil, fmt.Errorf("baseline %s: %s", me.Place(), me.Msg)
		}
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(doc.JSON()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline %s: version %d, want %d", path, b.Version, Version)
	}
	return &b, nil
}

// Write saves the baseline, replacing the file atomically. Its tools and
// messages quote manifests a stranger may have written, and a baseline is
// committed and reviewed: the file passes guard.JSON, which spells what a
// terminal or a CI runner would act on as JSON escapes of the same values.
func (b *Baseline) Write(path string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return err
	}
	return atomicfile.Write(path, guard.JSON(buf.Bytes()))
}

// Dir is the directory against which a baseline file's paths are
// relative.
func Dir(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Dir(path)
	}
	return filepath.Dir(abs)
}
