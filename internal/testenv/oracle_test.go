package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// ending records how Missing ends a test, in place of *testing.T (whose
// Skip and Fatal stop the goroutine).
type ending struct {
	testing.TB
	skipped, failed string
}

func (e *ending) Helper() {}
func (e *ending) Skip(args ...any) {
	e.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}
func (e *ending) Fatalf(format string, args ...any) {
	e.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func end(f func(t testing.TB)) *ending {
	e := &ending{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(e)
	}()
	<-done
	return e
}

func TestMissingSkipsOrFails(t *testing.T) {
	why := "node is missing; `make test` installs it"
	t.Setenv(RequireOraclesVar, "")
	if e := end(func(t testing.TB) { Missing(t, why) }); e.skipped != why || e.failed != "" {
		t.Errorf("without %s: skipped %q, failed %q; want a skip saying %q", RequireOraclesVar, e.skipped, e.failed, why)
	}
	t.Setenv(RequireOraclesVar, "1")
	if e := end(func(t testing.TB) { Missing(t, why) }); e.skipped != "" || !strings.HasPrefix(e.failed, why) {
		t.Errorf("with %s=1: skipped %q, failed %q; want a failure", RequireOraclesVar, e.skipped, e.failed)
	}
}

func TestMissingIsOneLine(t *testing.T) {
	t.Setenv(RequireOraclesVar, "")
	t.Setenv("PATH", t.TempDir()) // no node, no pre-commit
	t.Setenv(MCPSpecVar, filepath.Join(t.TempDir(), "absent"))
	for name, f := range map[string]func(testing.TB){
		"NPM":     func(t testing.TB) { NPM(t, "testdata/oracles") },
		"Command": func(t testing.TB) { Command(t, "pre-commit") },
		"MCPSpec": func(t testing.TB) { MCPSpec(t) },
	} {
		e := end(f)
		if e.skipped == "" || strings.Contains(e.skipped, "\n") {
			t.Errorf("%s: skipped with %q; want one line", name, e.skipped)
		}
		if name != "MCPSpec" && !strings.Contains(e.skipped, "make test") {
			t.Errorf("%s: %q does not say that `make test` installs it", name, e.skipped)
		}
		if name == "MCPSpec" && !strings.Contains(e.skipped, MCPSpecVar) {
			t.Errorf("%s: %q does not name %s", name, e.skipped, MCPSpecVar)
		}
	}
}

func TestMCPSpecFollowsTheVariable(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(MCPSpecVar, dir)
	if got := MCPSpec(t); got != dir {
		t.Errorf("MCPSpec = %s, want %s", got, dir)
	}
}

// TestMakefileInstallsEveryFolder keeps the Makefile's npm folders equal to
// NPMFolders, so that `make test` installs what the tests look for.
func TestMakefileInstallsEveryFolder(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(RepoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^NPM_FOLDERS := (.*)$`).FindSubmatch(src)
	if m == nil {
		t.Fatal("the Makefile has no NPM_FOLDERS := line")
	}
	got := strings.Fields(string(m[1]))
	want := slices.Clone(NPMFolders)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the Makefile installs %v; the tests read %v", got, want)
	}
	if !regexp.MustCompile(`(?m)^\t` + RequireOraclesVar + `=1 .*go test`).Match(src) {
		t.Errorf("make test does not run go test with %s=1", RequireOraclesVar)
	}
	for _, f := range NPMFolders {
		if _, err := os.Stat(filepath.Join(RepoRoot(t), f, "package-lock.json")); err != nil {
			t.Errorf("%s has no lock file for npm ci: %v", f, err)
		}
	}
}
