package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputsDoNotFollowLinksOut: a report, a saved listing, a converted
// file, a baseline, a lock file, init's configuration and the proxy's log
// are not written
// through a symbolic link committed in the repository that leads out of
// it (report.txt -> ~/.profile, reports/ -> ~): exit 2, and the file out
// of the tree is untouched. A link inside the tree is followed.
func TestOutputsDoNotFollowLinksOut(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	home := filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "out"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	profile := filepath.Join(home, ".profile")
	const kept = "export PATH=/usr/bin\n"
	if err := os.WriteFile(profile, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile("testdata/warn.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "tools.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"report.txt":    profile,
		"reports":       home,
		".mcplint.yaml": profile,
		"inside.sarif":  filepath.Join("out", "real.sarif"),
	} {
		if err := os.Symlink(target, filepath.Join(repo, name)); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "out", "real.sarif"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	server := []string{serverEnvFlag("ok"), "--", os.Args[0], "-test.run=^$"}
	for _, args := range [][]string{
		{"lint", "--no-config", "--format=text=report.txt", "tools.json"},
		{"lint", "--no-config", "--format=sarif=reports/x.sarif", "tools.json"},
		{"lint", "--no-config", "--write-baseline", "report.txt", "tools.json"},
		{"convert", "--to", "openai", "-o", "report.txt", "tools.json"},
		append([]string{"check", "--no-config", "--save", "report.txt"}, server...),
		append([]string{"check", "--no-config", "--format=json=reports/check.json"}, server...),
		append([]string{"lock", "--no-config", "--lockfile", "report.txt"}, server...),
		{"init", "--force"},
		append([]string{"proxy", "--log", "report.txt"}, server[1:]...),
		append([]string{"proxy", "--log", "reports/proxy.log"}, server[1:]...),
	} {
		r := mcplint(t, runOpts{}, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "out of the work tree") {
			t.Errorf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if b, _ := os.ReadFile(profile); string(b) != kept {
			t.Fatalf("%v wrote through the link:\n%s", args, b)
		}
		if entries, _ := os.ReadDir(home); len(entries) != 1 {
			t.Fatalf("%v created a file out of the tree: %v", args, entries)
		}
	}
	r := mcplint(t, runOpts{}, "lint", "--no-config", "--fail-on=never", "--format=sarif=inside.sarif", "tools.json")
	r.want(t, 0)
	if b, err := os.ReadFile(filepath.Join(repo, "out", "real.sarif")); err != nil || !strings.Contains(string(b), `"version": "2.1.0"`) {
		t.Errorf("a link inside the tree was not followed: %v", err)
	}
}
