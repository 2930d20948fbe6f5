package citest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestReleaseNotes runs scripts/release-notes.sh, which the release
// workflow takes the notes from, on a changelog with a released section.
func TestReleaseNotes(t *testing.T) {
	root := testenv.RepoRoot(t)
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join(root, "scripts", "release-notes.sh"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "scripts", "release-notes.sh"), string(script))
	write(t, filepath.Join(dir, "CHANGELOG.md"), `# Changelog

## Releasing

How.

## Unreleased

- next

## [0.2.0] - 2026-12-01

### Added

- two

## [0.1.0] - 2026-11-30

- one
`)
	notes := func(tag string) (string, error) {
		out, err := exec.Command("bash", filepath.Join(dir, "scripts", "release-notes.sh"), tag).CombinedOutput()
		return string(out), err
	}
	if out, err := notes("v0.2.0"); err != nil || strings.TrimSpace(out) != "### Added\n\n- two" {
		t.Errorf("notes of v0.2.0 (%v):\n%s", err, out)
	}
	if out, err := notes("v0.1.0"); err != nil || strings.TrimSpace(out) != "- one" {
		t.Errorf("notes of v0.1.0 (%v):\n%s", err, out)
	}
	if out, err := notes("v0.3.0"); err == nil || !strings.Contains(out, `CHANGELOG.md has no section "## [0.3.0]" for the tag v0.3.0`) {
		t.Errorf("a tag without its section (%v):\n%s", err, out)
	}
}

// TestDocsPinReleasedVersions: every version the README and docs pin for
// the Action, pre-commit or go install is one the release process creates:
// a released section of CHANGELOG.md, or the first release its
// "Releasing" section says how to cut.
func TestDocsPinReleasedVersions(t *testing.T) {
	root := testenv.RepoRoot(t)
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\]`).FindAllSubmatch(changelog, -1) {
		known["v"+string(m[1])] = true
	}
	first := regexp.MustCompile(`pin the first release, (v\d+\.\d+\.\d+), which is cut so`).FindSubmatch(changelog)
	if first == nil {
		t.Fatal("CHANGELOG.md's Releasing section names no first release")
	}
	known[string(first[1])] = true
	pin := regexp.MustCompile(`mcpfit/mcplint@([^\s"'` + "`" + `)]+)|cmd/mcplint@([^\s"'` + "`" + `]+)|rev: (\S+)`)
	pins := 0
	for _, doc := range []string{"README.md", "docs/ci.md"} {
		src, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range pin.FindAllStringSubmatch(string(src), -1) {
			v := m[1] + m[2] + m[3]
			if v == "latest" || v == "VERSION" {
				continue
			}
			pins++
			if !known[v] {
				t.Errorf("%s pins %q (%s), which no release creates (known: %v)", doc, v, m[0], known)
			}
		}
	}
	if pins < 3 {
		t.Errorf("only %d pinned versions found: the test no longer reads the docs", pins)
	}
}
