package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestDocsInstallPinnedServers checks that every `npm install -g` of the
// README and docs/ installs the version of each MCP reference server that
// live/testdata/reference-servers pins, the one the pages' examples were
// run against (see TestDocExamples), and that the examples needing one say
// how to install it.
func TestDocsInstallPinnedServers(t *testing.T) {
	root := testenv.RepoRoot(t)
	var pkg struct{ Dependencies map[string]string }
	src, err := os.ReadFile(filepath.Join(root, "live", "testdata", "reference-servers", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(src, &pkg); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append(pages, filepath.Join(root, "README.md"))
	install := regexp.MustCompile("npm install -g ([^`\n]+)")
	installed := map[string]bool{}
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range install.FindAllStringSubmatch(string(src), -1) {
			for _, spec := range strings.Fields(m[1]) {
				at := strings.LastIndex(spec, "@")
				if at <= 0 {
					t.Errorf("%s: npm install -g %s: no version; the examples were run with %s", filepath.Base(page), spec, pkg.Dependencies[spec])
					continue
				}
				name, version := spec[:at], spec[at+1:]
				if want, ok := pkg.Dependencies[name]; ok && version != want {
					t.Errorf("%s: npm install -g %s, but the examples were run with %s@%s", filepath.Base(page), spec, name, want)
				}
				installed[name] = true
			}
		}
	}
	// The servers the README's and docs/check.md's examples start.
	for _, name := range []string{"@modelcontextprotocol/server-everything", "@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-memory", "@modelcontextprotocol/server-sequential-thinking"} {
		if !installed[name] {
			t.Errorf("no page says npm install -g %s", name)
		}
	}
}
