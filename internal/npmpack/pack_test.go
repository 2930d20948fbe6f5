package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/mcpfit/mcplint/internal/home"
	"github.com/mcpfit/mcplint/internal/testenv"
)

// readTarball returns the entries of an npm tarball: name to contents and
// mode.
func readTarball(t *testing.T, path string) map[string]*tar.Header {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]*tar.Header{}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return entries
		}
		if err != nil {
			t.Fatal(err)
		}
		entries[hdr.Name] = hdr
		var b bytes.Buffer
		if _, err := io.Copy(&b, tr); err != nil {
			t.Fatal(err)
		}
		hdr.PAXRecords = map[string]string{"contents": b.String()}
	}
}

func manifestOf(t *testing.T, entries map[string]*tar.Header) map[string]any {
	t.Helper()
	hdr := entries["package/package.json"]
	if hdr == nil {
		t.Fatal("no package/package.json")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(hdr.PAXRecords["contents"]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPlatformsAreTheRelease: there is a platform package for every
// target .goreleaser.yaml builds, and none other.
func TestPlatformsAreTheRelease(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Builds []struct {
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(src, &g); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, goos := range g.Builds[0].Goos {
		for _, goarch := range g.Builds[0].Goarch {
			want = append(want, goos+"/"+goarch)
		}
	}
	for _, p := range Platforms {
		got = append(got, p.GOOS+"/"+p.GOARCH)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("npm platforms %v, release targets %v", got, want)
	}
}

// TestPack: the launcher names every platform package at its own version
// and has no install script; a platform package holds the executable
// binary, matched by npm through "os" and "cpu".
func TestPack(t *testing.T) {
	root := testenv.RepoRoot(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake-mcplint")
	if err := os.WriteFile(bin, []byte("\x7fELF not really"), 0o755); err != nil {
		t.Fatal(err)
	}
	win, _ := PlatformOf("windows", "arm64")
	lin, _ := PlatformOf("linux", "amd64")
	paths, err := Pack(Options{Version: "1.2.3-rc.1", Template: filepath.Join(root, "npm", "mcplint"),
		Binaries: map[Platform]string{win: bin, lin: bin}, Out: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	if want := []string{"mcpfit-mcplint-1.2.3-rc.1.tgz", "mcpfit-mcplint-linux-x64-1.2.3-rc.1.tgz", "mcpfit-mcplint-win32-arm64-1.2.3-rc.1.tgz"}; !slices.Equal(names, want) {
		t.Fatalf("tarballs %v, want %v", names, want)
	}

	launcher := readTarball(t, paths[0])
	m := manifestOf(t, launcher)
	if m["name"] != home.NPMPackage || m["version"] != "1.2.3-rc.1" {
		t.Errorf("launcher %v@%v", m["name"], m["version"])
	}
	if _, ok := m["scripts"]; ok {
		t.Errorf("the launcher has scripts: %v", m["scripts"])
	}
	if bins, _ := m["bin"].(map[string]any); bins["mcplint"] != "bin/mcplint.js" {
		t.Errorf("bin %v", m["bin"])
	}
	deps, _ := m["optionalDependencies"].(map[string]any)
	if len(deps) != len(Platforms) {
		t.Errorf("optionalDependencies %v, want one per platform", deps)
	}
	for _, p := range Platforms {
		if deps[p.Package()] != "1.2.3-rc.1" {
			t.Errorf("optionalDependencies[%s] = %v", p.Package(), deps[p.Package()])
		}
	}
	if h := launcher["package/bin/mcplint.js"]; h == nil || h.Mode&0o111 == 0 || !strings.HasPrefix(h.PAXRecords["contents"], "#!/usr/bin/env node") {
		t.Errorf("launcher script: %+v", h)
	}

	plat := readTarball(t, paths[2])
	pm := manifestOf(t, plat)
	if pm["name"] != home.NPMPackage+"-win32-arm64" || !slices.Equal(strs(pm["os"]), []string{"win32"}) || !slices.Equal(strs(pm["cpu"]), []string{"arm64"}) {
		t.Errorf("platform package %v", pm)
	}
	if _, ok := pm["bin"]; ok {
		t.Error("a platform package declares a bin, which would clash with the launcher's")
	}
	if h := plat["package/bin/mcplint.exe"]; h == nil || h.Mode&0o111 == 0 || h.PAXRecords["contents"] != "\x7fELF not really" {
		t.Errorf("binary entry: %+v", h)
	}

	if _, err := Pack(Options{Version: "v1.2", Template: filepath.Join(root, "npm", "mcplint"), Binaries: map[Platform]string{lin: bin}, Out: dir}); err == nil {
		t.Error("a version npm refuses was packed")
	}
}

func strs(v any) []string {
	var out []string
	for _, e := range v.([]any) {
		out = append(out, e.(string))
	}
	return out
}

// TestNPXOffline is what a user of npx does, offline: `make npm` builds
// the launcher and this machine's package from the release build; npm
// installs the two tarballs into an empty folder with an empty cache, no
// network and --ignore-scripts (the other platforms' optional packages
// cannot be fetched, and need not be); `npx @mcpfit/mcplint lint` then
// prints what mcplint itself prints and exits as it does.
func TestNPXOffline(t *testing.T) {
	root := testenv.RepoRoot(t)
	if _, ok := PlatformOf(runtime.GOOS, runtime.GOARCH); !ok {
		t.Skip("mcplint is not released for this platform")
	}
	mk := testenv.Command(t, "make")
	npm := testenv.Command(t, "npm")
	npx := testenv.Command(t, "npx")
	out := t.TempDir()
	build := exec.Command(mk, "npm", "NPM_OUT="+out, "NPM_VERSION=1.0.0-test")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make npm: %v\n%s", err, b)
	}
	tarballs, _ := filepath.Glob(filepath.Join(out, "*.tgz"))
	p, _ := PlatformOf(runtime.GOOS, runtime.GOARCH)
	want := []string{filepath.Join(out, TarballName(home.NPMPackage, "1.0.0-test")), filepath.Join(out, TarballName(p.Package(), "1.0.0-test"))}
	slices.Sort(want)
	if !slices.Equal(tarballs, want) {
		t.Fatalf("make npm wrote %v, want %v", tarballs, want)
	}

	prefix, cache := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "npm_config_cache="+cache, "npm_config_offline=true", "npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false")
	install := exec.Command(npm, append([]string{"install", "--ignore-scripts", "--no-package-lock"}, tarballs...)...)
	install.Dir, install.Env = prefix, env
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, b)
	}

	manifest := filepath.Join(root, "testdata", "example", "manifest.json")
	run := func(name string, args ...string) (string, int) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = prefix, append(env, "NO_COLOR=1")
		b, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(b), code
	}
	got, code := run(npx, "--offline", home.NPMPackage, "lint", manifest)
	direct, directCode := run(filepath.Join(out, "build", p.GOOS+"-"+p.GOARCH, p.Exe()), "lint", manifest)
	if code != 1 || directCode != 1 || got != direct {
		t.Errorf("npx %s lint exited %d:\n%s\nmcplint itself exited %d:\n%s", home.NPMPackage, code, got, directCode, direct)
	}
	if !strings.Contains(got, "error input-schema-root-object") {
		t.Errorf("npx lint printed no finding:\n%s", got)
	}
	if v, code := run(npx, "--offline", home.NPMPackage, "--version"); code != 0 || !strings.Contains(v, "v1.0.0-test") {
		t.Errorf("npx --version exited %d: %s", code, v)
	}
}
