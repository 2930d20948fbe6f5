package citest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// goreleaser is the part of .goreleaser.yaml that names and builds what a
// release publishes.
type goreleaser struct {
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		Main    string   `yaml:"main"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Archives []struct {
		NameTemplate    string   `yaml:"name_template"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
}

func loadGoreleaser(t *testing.T) *goreleaser {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var g goreleaser
	if err := yaml.Unmarshal(src, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Builds) != 1 || len(g.Archives) != 1 || g.Builds[0].Main != "./cmd/mcplint" {
		t.Fatalf(".goreleaser.yaml: want one build of ./cmd/mcplint and one archive: %+v", g)
	}
	return &g
}

// template fills the goreleaser templates the configuration uses; any
// other fails the test, so that the names the test serves stay the
// release's.
func template(t *testing.T, s string, vars map[string]string) string {
	t.Helper()
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{{ ."+k+" }}", v)
	}
	if strings.Contains(s, "{{") {
		t.Fatalf("the test does not know the goreleaser template in %q", s)
	}
	return s
}

const (
	releaseTag    = "v0.1.0"
	releaseCommit = "0123456789abcdef0123456789abcdef01234567"
)

// archiveName is what the release publishes for goos/goarch.
func (g *goreleaser) archiveName(t *testing.T, goos, goarch string) string {
	a := g.Archives[0]
	format := a.Formats[0]
	for _, o := range a.FormatOverrides {
		if o.Goos == goos {
			format = o.Formats[0]
		}
	}
	return template(t, a.NameTemplate, map[string]string{
		"ProjectName": g.ProjectName, "Version": strings.TrimPrefix(releaseTag, "v"), "Os": goos, "Arch": goarch,
	}) + "." + format
}

var releaseBuild struct {
	once sync.Once
	path string
	err  error
}

// releaseBinary builds mcplint for this machine as the release build does,
// with the ldflags of .goreleaser.yaml for releaseTag and releaseCommit.
func releaseBinary(t *testing.T) []byte {
	t.Helper()
	g := loadGoreleaser(t)
	releaseBuild.once.Do(func() {
		var flags []string
		for _, f := range g.Builds[0].Ldflags {
			flags = append(flags, template(t, f, map[string]string{"Tag": releaseTag, "FullCommit": releaseCommit}))
		}
		releaseBuild.path = filepath.Join(sharedDir, "release", "mcplint")
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", strings.Join(flags, " "), "-o", releaseBuild.path, "./cmd/mcplint")
		cmd.Dir = testenv.RepoRoot(t)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			releaseBuild.err = fmt.Errorf("build the release binary: %v\n%s", err, out)
		}
	})
	if releaseBuild.err != nil {
		t.Fatal(releaseBuild.err)
	}
	b, err := os.ReadFile(releaseBuild.path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeRelease serves files under /TAG/, as GitHub serves a release's
// assets, and returns the base URL for MCPLINT_RELEASES_URL.
func fakeRelease(t *testing.T, files map[string][]byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/"+releaseTag+"/")
		b, found := files[name]
		if !ok || !found {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func tarGz(t *testing.T, files map[string][]byte) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slicesSorted(files) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(files[name]))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(files[name])
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

func zipOf(t *testing.T, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slicesSorted(files) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func slicesSorted(m map[string][]byte) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// release makes the assets of a release for this machine's Linux build
// and for windows/amd64, with their checksums.txt.
func release(t *testing.T) map[string][]byte {
	g := loadGoreleaser(t)
	bin := releaseBinary(t)
	if runtime.GOOS != "linux" {
		t.Skip("the release archives are made for Linux runners")
	}
	linux := g.archiveName(t, "linux", runtime.GOARCH)
	windows := g.archiveName(t, "windows", "amd64")
	assets := map[string][]byte{
		linux:   tarGz(t, map[string][]byte{"mcplint": bin, "README.md": []byte("readme\n")}),
		windows: zipOf(t, map[string][]byte{"mcplint.exe": bin, "README.md": []byte("readme\n")}),
	}
	var sums strings.Builder
	for _, name := range slicesSorted(assets) {
		fmt.Fprintf(&sums, "%s  %s\n", sha256hex(assets[name]), name)
	}
	assets[g.Checksum.NameTemplate] = []byte(sums.String())
	return assets
}

// pathWithoutGo is $PATH without the folders holding a go command: the
// release download must not need Go.
func pathWithoutGo() string {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// TestActionDownloadsRelease drives the real action with a release
// served from a fake download site: the archive goreleaser names for this
// runner is fetched, checked against checksums.txt, and run, without Go,
// and the version it prints is the release's.
func TestActionDownloadsRelease(t *testing.T) {
	testenv.Command(t, "curl")
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	base := fakeRelease(t, release(t))
	for _, c := range []struct {
		name      string
		inputs    map[string]string
		actionRef string
	}{
		{"version input", map[string]string{"version": releaseTag}, "main"},
		{"the action's release tag", map[string]string{}, releaseTag},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.inputs["files"] = "tools.json"
			r := newRunner(t, a, root, c.inputs, map[string]string{"tools.json": actionManifest})
			r.actionRef, r.path = c.actionRef, pathWithoutGo()
			r.env = append(r.env, "MCPLINT_RELEASES_URL="+base)
			code := r.run()
			if code != 1 {
				t.Fatalf("exit %d, want 1 (the manifest has an error)\n%s", code, r.stdout.String())
			}
			out := r.stdout.String()
			for _, want := range []string{
				"downloading " + base + "/" + releaseTag + "/mcplint_0.1.0_linux_",
				"installed mcplint " + releaseTag + " (" + releaseCommit[:12] + ")",
				"::error file=tools.json,line=3,",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if len(r.ranUses) != 0 {
				t.Errorf("a release download ran %v; it needs neither Go nor a cache", r.ranUses)
			}
		})
	}
}

// TestActionRefusesBadChecksum: an archive that does not match
// checksums.txt, or one checksums.txt does not list, is not installed.
func TestActionRefusesBadChecksum(t *testing.T) {
	testenv.Command(t, "curl")
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	g := loadGoreleaser(t)
	for _, c := range []struct {
		name  string
		alter func(assets map[string][]byte)
		want  string
	}{
		{"tampered archive", func(assets map[string][]byte) {
			name := g.archiveName(t, "linux", runtime.GOARCH)
			assets[name] = append(slices.Clone(assets[name]), 0)
		}, "the download is corrupt or was tampered with"},
		{"unlisted archive", func(assets map[string][]byte) {
			assets[g.Checksum.NameTemplate] = []byte(sha256hex(nil) + "  other.tar.gz\n")
		}, "checksums.txt of " + releaseTag + " has no line for mcplint_0.1.0_linux_"},
		{"no such release", func(assets map[string][]byte) {
			delete(assets, g.archiveName(t, "linux", runtime.GOARCH))
		}, "is " + releaseTag + " a release of mcplint?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assets := release(t)
			c.alter(assets)
			r := newRunner(t, a, root, map[string]string{"version": releaseTag, "files": "tools.json"}, map[string]string{"tools.json": actionManifest})
			r.env = append(r.env, "MCPLINT_RELEASES_URL="+fakeRelease(t, assets))
			if code := r.run(); code == 0 || r.steps["lint"] != nil {
				t.Fatalf("exit %d: the action went on to lint\n%s", code, r.stdout.String())
			}
			if !strings.Contains(r.stdout.String(), c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, r.stdout.String())
			}
			if _, err := os.Stat(filepath.Join(r.temp, "mcplint-bin", "mcplint")); err == nil {
				t.Error("the binary was installed")
			}
		})
	}
}

// TestActionInstallsOnWindows: on a Windows runner the release is the zip
// archive and the binary is mcplint.exe, which the runner finds as
// mcplint on PATH.
func TestActionInstallsOnWindows(t *testing.T) {
	testenv.Command(t, "curl")
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	assets := release(t)
	r := newRunner(t, a, root, map[string]string{"version": releaseTag}, nil)
	r.os, r.arch, r.stopAfter = "Windows", "X64", "install"
	r.env = append(r.env, "MCPLINT_RELEASES_URL="+fakeRelease(t, assets))
	if code := r.run(); code != 0 {
		t.Fatalf("exit %d\n%s", code, r.stdout.String())
	}
	if r.steps["plan"]["exe"] != ".exe" {
		t.Errorf("plan outputs %v, want exe=.exe", r.steps["plan"])
	}
	bin := filepath.Join(r.temp, "mcplint-bin")
	got, err := os.ReadFile(filepath.Join(bin, "mcplint.exe"))
	if err != nil || !bytes.Equal(got, releaseBinary(t)) {
		t.Errorf("mcplint.exe not installed from the zip (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(bin, "mcplint")); err == nil {
		t.Error("a Windows install left a binary without .exe")
	}
	if p, _ := os.ReadFile(r.pathFile); strings.TrimSpace(string(p)) != bin {
		t.Errorf("GITHUB_PATH = %q, want %s", p, bin)
	}
}

// TestActionPlan: which way the action installs mcplint for each version
// input and ref, and when it sets up Go.
func TestActionPlan(t *testing.T) {
	root := testenv.RepoRoot(t)
	a := loadAction(t, root)
	for _, c := range []struct {
		version, ref, os string
		mode, want       string
		noGo             bool
		setupGo          string
	}{
		{version: "v0.1.0", mode: "release", want: "v0.1.0", setupGo: "false"},
		{version: "v1.2.3-rc.1", ref: "main", mode: "release", want: "v1.2.3-rc.1", setupGo: "false"},
		{ref: "v0.2.0", mode: "release", want: "v0.2.0", setupGo: "false", noGo: true},
		{version: "0c1d2e3f4a5b", ref: "v0.2.0", mode: "module", want: "0c1d2e3f4a5b", setupGo: "false"},
		{version: "main", mode: "module", want: "main", setupGo: "true", noGo: true},
		{ref: "main", mode: "source", setupGo: "false"},
		{ref: "", mode: "source", setupGo: "true", noGo: true},
	} {
		t.Run(c.mode+" "+c.version+"@"+c.ref, func(t *testing.T) {
			r := newRunner(t, a, root, map[string]string{"version": c.version}, nil)
			r.actionRef, r.stopAfter = c.ref, "plan"
			if c.noGo {
				r.path = pathWithoutGo()
			}
			if code := r.run(); code != 0 {
				t.Fatalf("exit %d\n%s", code, r.stdout.String())
			}
			out := r.steps["plan"]
			if out["mode"] != c.mode || out["version"] != c.want || out["setup-go"] != c.setupGo || out["exe"] != "" {
				t.Errorf("plan outputs %v, want mode=%s version=%s setup-go=%s", out, c.mode, c.want, c.setupGo)
			}
		})
	}
}
