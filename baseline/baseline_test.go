package baseline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
)

func TestFilterIgnoresLinesAndOrder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tools.json")
	old := []lint.Diagnostic{
		{Rule: "r1", File: file, Tool: "a", RelPointer: "/name", Line: 3, Pointer: "/tools/0/name"},
		{Rule: "r2", File: file, Tool: "b", RelPointer: "/inputSchema", Line: 9, Pointer: "/tools/1/inputSchema"},
	}
	path := filepath.Join(dir, "baseline.json")
	if err := New(dir, old).Write(path); err != nil {
		t.Fatal(err)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// A tool was inserted before: lines and indexes moved, identities
	// did not; one finding is new, and a second copy of an old one too.
	now := []lint.Diagnostic{
		{Rule: "r1", File: file, Tool: "new", RelPointer: "/name", Line: 3},
		{Rule: "r1", File: file, Tool: "a", RelPointer: "/name", Line: 12, Pointer: "/tools/1/name"},
		{Rule: "r2", File: file, Tool: "b", RelPointer: "/inputSchema", Line: 20, Pointer: "/tools/2/inputSchema"},
		{Rule: "r2", File: file, Tool: "b", RelPointer: "/inputSchema", Line: 20, Pointer: "/tools/2/inputSchema"},
	}
	got := b.Filter(dir, now)
	if len(got) != 2 || got[0].Tool != "new" || got[1].Tool != "b" {
		t.Errorf("Filter = %+v, want the new tool's finding and the second copy", got)
	}
	if b.Findings[0].File != "tools.json" {
		t.Errorf("file recorded as %q, want it relative to the baseline", b.Findings[0].File)
	}
}

func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"version":  `{"version": 2, "findings": []}`,
		"key":      `{"version": 1, "x": 1}`,
		"trailing": "{\"version\": 1, \"findings\": []}\n=======\n{\"version\": 1, \"findings\": []}",
	} {
		p := filepath.Join(dir, name)
		if err := (&Baseline{}).Write(p); err != nil {
			t.Fatal(err)
		}
		if err := writeFile(p, src); err != nil {
			t.Fatal(err)
		}
		_, err := Read(p)
		if err == nil {
			t.Errorf("%s: accepted %s", name, src)
		} else if name == "trailing" && !strings.Contains(err.Error(), p+":2:1: data after") {
			t.Errorf("%s: %v, want the line and column of the extra data", name, err)
		}
	}
}

// TestReadFolderOrNothing: a folder named as the baseline is refused in
// words; a missing baseline stays an error that says the file does not
// exist.
func TestReadFolderOrNothing(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "a folder, not a baseline file") {
		t.Errorf("a folder: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func writeFile(p, s string) error { return os.WriteFile(p, []byte(s), 0o644) }

// TestReadLimits: a baseline is read under a manifest's limits: nesting,
// and a size (checked before reading a regular file).
func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "deep.json")
	if err := writeFile(deep, `{"version": 1, "findings": `+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`}`); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(deep); err == nil || !strings.Contains(err.Error(), deep+":1:1036: nesting deeper than 1000 levels") {
		t.Errorf("deep: %v", err)
	}
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(Limits.Size + 1); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	if _, err := Read(huge); err == nil || !strings.Contains(err.Error(), huge+": the file is larger than the limit of 64 MiB") {
		t.Errorf("huge: %v", err)
	}
}

// TestLongValuesKeyed: a long tool name or pointer is stored as a digest,
// so that a baseline of thousands of findings under a 100 KB key stays
// small (and under the size Read takes), and the findings are still known
// again, while two that differ only past the start are told apart.
func TestLongValuesKeyed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tools.json")
	name, key := strings.Repeat("n", 100<<10), "/inputSchema/properties/"+strings.Repeat("k", 100<<10)
	var old []lint.Diagnostic
	for i := range 1000 {
		old = append(old, lint.Diagnostic{Rule: "r", File: file, Tool: name, RelPointer: key + "/properties/p" + strconv.Itoa(i)})
	}
	path := filepath.Join(dir, "baseline.json")
	if err := New(dir, old).Write(path); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() > 1<<20 {
		t.Fatalf("a baseline of %d findings under a long key: %v bytes (%v)", len(old), fi.Size(), err)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	now := append(old[:len(old):len(old)], lint.Diagnostic{Rule: "r", File: file, Tool: name, RelPointer: key + "/properties/new"})
	if got := b.Filter(dir, now); len(got) != 1 || !strings.HasSuffix(got[0].RelPointer, "/new") {
		t.Errorf("Filter kept %d findings, want only the new one", len(got))
	}
}
