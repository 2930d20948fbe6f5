package realworld

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/manifest"
)

// consumers are the consumer IDs every case gives a verdict for: the
// matrix's, so a consumer added there needs a verdict in every case.
var consumers = func() []string {
	var ids []string
	for _, c := range consumer.All {
		ids = append(ids, string(c.ID))
	}
	return ids
}()

var verdicts = []string{"accept", "refuse", "mangle", "unknown"}

// TestCasesWellFormed checks every case of the corpus (thread-*, gen-*,
// server-*): exactly tools.json and case.yaml, a tools list mcplint
// reads, a verdict from every consumer, and a reason with its source for
// every verdict that is not accept.
func TestCasesWellFormed(t *testing.T) {
	dirs, err := Dirs(filepath.Join(testenv.RepoRoot(t), "testdata", "realworld"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkCase(t, dir) })
	}
	if len(dirs) < 40 {
		t.Errorf("%d cases, want at least 40", len(dirs))
	}
}

func checkCase(t *testing.T, dir string) {
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if !slices.Equal(names, []string{"case.yaml", "tools.json"}) {
		t.Errorf("files %v, want exactly case.yaml and tools.json", names)
	}
	m, err := manifest.ReadFile(filepath.Join(dir, "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) == 0 {
		t.Error("tools.json has no tools")
	}

	c, err := ReadCaseFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Title == "" || c.Reduced == "" {
		t.Error("title and reduced must not be empty")
	}
	prefix := map[string]string{"thread": "thread-", "generator": "gen-", "server": "server-"}[c.Kind]
	if prefix == "" || !strings.HasPrefix(filepath.Base(dir), prefix) {
		t.Errorf("kind %q does not match the directory name", c.Kind)
	}
	switch {
	case c.Kind == "generator" && c.Generator == "":
		t.Error("a generator case names its generator and version")
	case c.Kind == "thread" && c.Generator != "":
		t.Errorf("generator %q: a thread case leaves it empty", c.Generator)
	}
	if len(c.Source) == 0 {
		t.Error("no source")
	}
	for _, s := range c.Source {
		if !strings.HasPrefix(s, "https://") {
			t.Errorf("source %q is not a public URL", s)
		}
	}
	for id := range c.Verdicts {
		if !slices.Contains(consumers, id) {
			t.Errorf("verdict for unknown consumer %q", id)
		}
	}
	for id := range c.Errors {
		if !slices.Contains(consumers, id) {
			t.Errorf("error for unknown consumer %q", id)
		}
	}
	reasons := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(c.Basis), "\n") {
		if line == "" {
			continue
		}
		id, reason, ok := strings.Cut(line, ": ")
		if !ok || !slices.Contains(consumers, id) || strings.TrimSpace(reason) == "" {
			t.Errorf("basis line %q is not \"<consumer>: <reason and source>\"", line)
			continue
		}
		reasons[id] = true
	}
	for _, id := range consumers {
		v, ok := c.Verdicts[id]
		switch {
		case !ok:
			t.Errorf("no verdict for %s", id)
		case !slices.Contains(verdicts, v):
			t.Errorf("%s: verdict %q is not one of %v", id, v, verdicts)
		case v != "accept" && !reasons[id]:
			t.Errorf("%s: verdict %s has no basis line", id, v)
		}
	}
}
