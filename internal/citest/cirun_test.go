package citest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestCIDocsNameTheRacePackages checks that docs/ci.md lists the packages
// .ci/run tests under the race detector, no more and no fewer.
func TestCIDocsNameTheRacePackages(t *testing.T) {
	root := testenv.RepoRoot(t)
	run, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, line := range strings.Split(string(run), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "go" && f[1] == "test" && slices.Contains(f, "-race") {
			for _, a := range f {
				if strings.HasPrefix(a, "./") {
					ran = append(ran, strings.TrimPrefix(a, "./"))
				}
			}
		}
	}
	m := regexp.MustCompile(`race detector on the concurrent packages \(([^)]*)\)`).FindSubmatch(doc)
	if len(ran) == 0 || m == nil {
		t.Fatalf(".ci/run names %q under -race; docs/ci.md: %q", ran, m)
	}
	var documented []string
	for _, b := range regexp.MustCompile("`([^`]+)`").FindAllSubmatch(m[1], -1) {
		documented = append(documented, string(b[1]))
	}
	slices.Sort(ran)
	slices.Sort(documented)
	if !slices.Equal(ran, documented) {
		t.Errorf("docs/ci.md names %q under the race detector, .ci/run runs %q", documented, ran)
	}
}
