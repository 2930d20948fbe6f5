//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckNamesItsConfig: check says, on standard error, from which
// configuration file it runs servers.
func TestCheckNamesItsConfig(t *testing.T) {
	projectWithServers(t, "")
	r := mcplint(t, runOpts{}, "check", "--fail-on=never", "--quiet")
	r.want(t, 0)
	if r.stderr != "mcplint: running the servers of .mcplint.yaml\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	// A name that would steer a terminal is shown escaped.
	dir := t.TempDir()
	odd := filepath.Join(dir, "a\x1b[2Jb")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	server := fmt.Sprintf(`{command: %q, args: ["-test.run=^$"], env: {%s: ok}}`, os.Args[0], checkServerEnv)
	if err := os.WriteFile(filepath.Join(odd, "c.yaml"), []byte("servers:\n  alpha: "+server+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{}, "check", "--fail-on=never", "--quiet", "--config", filepath.Join(odd, "c.yaml"))
	r.want(t, 0)
	if strings.Contains(r.stderr, "\x1b") || !strings.Contains(r.stderr, `a\x1b[2Jb`) {
		t.Errorf("stderr %q", r.stderr)
	}
}

// TestCheckRefusesPlantedConfig: outside a repository, a .mcplint.yaml
// that another user left in a directory every user can write (as /tmp) is
// not read: its server is never started, and the refusal is said.
func TestCheckRefusesPlantedConfig(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root; run the tests as root to cover it")
	}
	shared := filepath.Join(t.TempDir(), "tmp")
	work := filepath.Join(shared, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	planted := filepath.Join(shared, ".mcplint.yaml")
	cfg := fmt.Sprintf("servers:\n  evil: {command: /bin/sh, args: [-c, %q]}\n", "touch "+marker)
	if err := os.WriteFile(planted, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(planted, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	r := mcplint(t, runOpts{}, "check")
	r.want(t, 2)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the planted server ran")
	}
	for _, want := range []string{
		"mcplint: not reading " + planted + ": the directory " + shared + " can be written by other users",
		"nothing to check",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	// lint runs with its defaults, and says the same.
	r = mcplint(t, runOpts{stdin: `{"tools": []}`}, "lint", "-")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "mcplint: not reading "+planted) {
		t.Errorf("lint stderr:\n%s", r.stderr)
	}
}
