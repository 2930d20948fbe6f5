package home_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/mcpfit/mcplint/internal/home"
	"github.com/mcpfit/mcplint/internal/testenv"
)

// trackedFile is one text file of the repository, with its path from the
// root.
type trackedFile struct {
	path string
	text []byte
}

// tracked reads every text file git tracks (the work tree's files when
// git cannot list them, as in an exported tree), skipping binaries.
func tracked(t *testing.T) []trackedFile {
	t.Helper()
	root := testenv.RepoRoot(t)
	var paths []string
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" {
				paths = append(paths, p)
			}
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case ".git", "node_modules", "dist", ".bin", ".venv":
					return filepath.SkipDir
				}
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, rel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var files []trackedFile
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			if os.IsNotExist(err) { // deleted in the work tree, not yet committed
				continue
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		files = append(files, trackedFile{filepath.ToSlash(p), b})
	}
	if len(files) < 100 {
		t.Fatalf("only %d files read: the test no longer sees the repository", len(files))
	}
	return files
}

// asciiLower lowers A-Z only, so that offsets stay those of b.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// nameLines calls f with each line of the file (1-based) that holds
// "mcplint", "tap" or "ghcr" in any case: every pattern here does, and
// running them over every line of the corpus took seconds.
func nameLines(file trackedFile, f func(n int, line []byte)) {
	lower := asciiLower(file.text)
	for n, start := 1, 0; start < len(lower); n++ {
		end := bytes.IndexByte(lower[start:], '\n')
		if end < 0 {
			end = len(lower)
		} else {
			end += start
		}
		l := lower[start:end]
		if bytes.Contains(l, []byte("mcplint")) || bytes.Contains(l, []byte("tap")) || bytes.Contains(l, []byte("ghcr")) {
			f(n, file.text[start:end])
		}
		start = end + 1
	}
}

// TestNoOldHome: no file names the home that belongs to another project:
// the GitHub repository, Action and Go module path of the Rust MCP linter
// that ships as mcplint on crates.io, and its npm scope. The strings are
// built from parts, so this file does not hold them either.
func TestNoOldHome(t *testing.T) {
	name := "mcp" + "lint"
	old := name + "/" + name
	forbidden := []*regexp.Regexp{
		regexp.MustCompile(`(?i)github\.com/` + old + `\b`),
		// As an Action or a repository reference: not part of a longer
		// path, as the module's own mcplinttest package is.
		regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_./-])` + old + `\b`),
		// The npm scope of that project, and images and taps of its owner.
		regexp.MustCompile(`(?i)(^|[\s"'(` + "`" + `])@` + name + `/`),
		regexp.MustCompile(`(?i)(ghcr\.io|docker\.io)/` + name + `/`),
		regexp.MustCompile(`(?i)\b` + name + `/(homebrew-)?tap\b`),
	}
	for _, f := range tracked(t) {
		nameLines(f, func(n int, line []byte) {
			for _, re := range forbidden {
				for _, loc := range re.FindAllIndex(line, -1) {
					t.Errorf("%s:%d: names another project's home: %q", f.path, n, line[loc[0]:loc[1]])
				}
			}
		})
	}
}

// TestOneHome: every home a file names, in any of the channels' forms, is
// the one of package home.
func TestOneHome(t *testing.T) {
	checks := []struct {
		what string
		re   *regexp.Regexp
		want string
	}{
		{"GitHub repository or module path", regexp.MustCompile(`github\.com/([A-Za-z0-9_.-]+)/mcplint\b`), home.Owner},
		{"Action", regexp.MustCompile(`uses:\s*([A-Za-z0-9_.-]+)/mcplint@`), home.Owner},
		{"Homebrew tap", regexp.MustCompile(`\b([A-Za-z0-9_.-]+)/(?:homebrew-)?tap(?:/mcplint|\b)`), home.Owner},
		{"container image", regexp.MustCompile(`ghcr\.io/([A-Za-z0-9_.-]+)/mcplint\b`), home.Owner},
		{"npm scope", regexp.MustCompile(`(?:^|[\s"'(` + "`" + `])@([a-z0-9][a-z0-9._-]*)/mcplint\b`), home.Owner},
		{"go install path", regexp.MustCompile(`go install "?(\S+?)/cmd/mcplint@`), home.Module},
	}
	seen := map[string]int{}
	for _, f := range tracked(t) {
		if strings.HasPrefix(f.path, "internal/home/") {
			continue // where the home is defined, and these patterns
		}
		nameLines(f, func(n int, line []byte) {
			for _, c := range checks {
				for _, m := range c.re.FindAllSubmatchIndex(line, -1) {
					got := string(line[m[2]:m[3]])
					if strings.Contains(got, "$") || strings.Contains(got, "{{") {
						continue // a template or a variable
					}
					seen[c.what]++
					if got != c.want {
						t.Errorf("%s:%d: %s %q, want %q (package home)", f.path, n, c.what, line[m[0]:m[1]], c.want)
					}
				}
			}
		})
	}
	for _, c := range checks {
		if seen[c.what] == 0 {
			t.Errorf("no file names the %s: the pattern no longer finds it", c.what)
		}
	}
}

// TestChannels: each channel's own file names the home where the channel
// reads it.
func TestChannels(t *testing.T) {
	root := testenv.RepoRoot(t)
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var g struct {
		Release struct {
			GitHub struct{ Owner, Name string } `yaml:"github"`
		} `yaml:"release"`
		Casks []struct {
			Name       string                       `yaml:"name"`
			Homepage   string                       `yaml:"homepage"`
			Repository struct{ Owner, Name string } `yaml:"repository"`
		} `yaml:"homebrew_casks"`
		Dockers []struct {
			Images []string          `yaml:"images"`
			Labels map[string]string `yaml:"labels"`
		} `yaml:"dockers_v2"`
	}
	if err := yaml.Unmarshal([]byte(read(".goreleaser.yaml")), &g); err != nil {
		t.Fatal(err)
	}
	if r := g.Release.GitHub; r.Owner+"/"+r.Name != home.Action {
		t.Errorf(".goreleaser.yaml releases to %s/%s, want %s", r.Owner, r.Name, home.Action)
	}
	if len(g.Casks) != 1 || g.Casks[0].Name != home.Command || g.Casks[0].Homepage != home.URL ||
		g.Casks[0].Repository.Owner+"/"+g.Casks[0].Repository.Name != home.TapRepo {
		t.Errorf(".goreleaser.yaml's cask: %+v, want %s in %s", g.Casks, home.Command, home.TapRepo)
	}
	if len(g.Dockers) != 1 || len(g.Dockers[0].Images) != 1 || g.Dockers[0].Images[0] != home.Image ||
		g.Dockers[0].Labels["org.opencontainers.image.source"] != home.URL {
		t.Errorf(".goreleaser.yaml's image: %+v, want %s from %s", g.Dockers, home.Image, home.URL)
	}
	var pkg struct {
		Name       string `json:"name"`
		Homepage   string `json:"homepage"`
		Repository struct {
			URL string `json:"url"`
		} `json:"repository"`
	}
	if err := json.Unmarshal([]byte(read("npm/mcplint/package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != home.NPMPackage || pkg.Homepage != home.URL || pkg.Repository.URL != "git+"+home.URL+".git" {
		t.Errorf("npm/mcplint/package.json: %+v, want %s of %s", pkg, home.NPMPackage, home.URL)
	}
	if first, _, _ := strings.Cut(read("go.mod"), "\n"); first != "module "+home.Module {
		t.Errorf("go.mod: %q, want module %s", first, home.Module)
	}
	for file, wants := range map[string][]string{
		"scripts/action-install.sh":  {home.URL + "/releases/download", home.Module + "/cmd/mcplint@"},
		"npm/mcplint/bin/mcplint.js": {"`" + home.NPMPackage + "-${process.platform}-${process.arch}`"},
		"Dockerfile":                 {home.Image},
		"README.md":                  {"uses: " + home.Action + "@", "repo: " + home.URL, "go install " + home.Module + "/cmd/mcplint@latest"},
		"docs/install.md": {"uses: " + home.Action + "@", "repo: " + home.URL, "go install " + home.Module + "/cmd/mcplint@latest",
			"npx " + home.NPMPackage, "brew install --cask " + home.Tap + "/" + home.Command, home.Image, home.URL + "/releases"},
	} {
		text := read(file)
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not name %q", file, want)
			}
		}
	}
}
