// Command npmpack builds mcplint's npm packages (`make npm`): the launcher
// @mcpfit/mcplint from npm/mcplint, whose optionalDependencies are one
// package per platform, and those platform packages, each holding the
// native binary of the release build, with the "os" and "cpu" that make
// npm install only the one for the machine. It writes them as the tarballs
// `npm pack` would (dist/npm/*.tgz), which `npm install` takes as they are
// and `npm publish` publishes. The shape is esbuild's and Biome's: no
// install script, so nothing is downloaded at install time and
// `--ignore-scripts` changes nothing.
//
// Without -binary it builds mcplint for this machine with the flags of
// .goreleaser.yaml's build (the release build) and packs that;
// .github/workflows/release.yml gives it every platform's binary from
// goreleaser's dist/artifacts.json with -goreleaser.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mcpfit/mcplint/internal/home"
)

// Platform is a target of the release, in Go's names and Node.js's.
type Platform struct {
	GOOS, GOARCH string
	// OS and CPU are process.platform and process.arch, and the "os" and
	// "cpu" of the platform package.
	OS, CPU string
}

// Platforms are the release's targets (.goreleaser.yaml's goos and
// goarch; a test keeps them equal).
var Platforms = []Platform{
	{"linux", "amd64", "linux", "x64"},
	{"linux", "arm64", "linux", "arm64"},
	{"darwin", "amd64", "darwin", "x64"},
	{"darwin", "arm64", "darwin", "arm64"},
	{"windows", "amd64", "win32", "x64"},
	{"windows", "arm64", "win32", "arm64"},
}

// PlatformOf finds the platform of GOOS/GOARCH.
func PlatformOf(goos, goarch string) (Platform, bool) {
	for _, p := range Platforms {
		if p.GOOS == goos && p.GOARCH == goarch {
			return p, true
		}
	}
	return Platform{}, false
}

// Package is the npm package of the platform's binary.
func (p Platform) Package() string { return home.NPMPlatformPackage(p.OS, p.CPU) }

// Exe is the binary's file name in its package.
func (p Platform) Exe() string {
	if p.GOOS == "windows" {
		return home.Command + ".exe"
	}
	return home.Command
}

// semver is npm's version syntax (semver 2.0.0, without a leading v).
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// Options say what Pack builds.
type Options struct {
	// Version is the packages' version, semver without "v".
	Version string
	// Template is the folder of the launcher package (npm/mcplint).
	Template string
	// Binaries are the native binaries to pack, by platform.
	Binaries map[Platform]string
	// Out is the folder the tarballs are written to.
	Out string
}

// Pack writes the launcher's tarball and one per binary to o.Out, and
// returns their paths, the launcher's first.
func Pack(o Options) ([]string, error) {
	if !semver.MatchString(o.Version) {
		return nil, fmt.Errorf("version %q is not a semantic version (1.2.3, 1.2.3-rc.1)", o.Version)
	}
	if len(o.Binaries) == 0 {
		return nil, fmt.Errorf("no binary to pack")
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	main, err := packLauncher(o)
	if err != nil {
		return nil, err
	}
	paths := []string{main}
	plats := make([]Platform, 0, len(o.Binaries))
	for p := range o.Binaries {
		plats = append(plats, p)
	}
	sort.Slice(plats, func(i, j int) bool { return plats[i].Package() < plats[j].Package() })
	for _, p := range plats {
		path, err := packPlatform(o, p)
		if err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// packLauncher packs npm/mcplint with the version and every platform
// package as an optional dependency at exactly that version: a launcher
// only ever runs the binary released with it.
func packLauncher(o Options) (string, error) {
	var manifest map[string]any
	src, err := os.ReadFile(filepath.Join(o.Template, "package.json"))
	if err != nil {
		return "", err
	}
	if err := json.Unmarshal(src, &manifest); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(o.Template, "package.json"), err)
	}
	if manifest["name"] != home.NPMPackage {
		return "", fmt.Errorf("%s names %v, not %s", filepath.Join(o.Template, "package.json"), manifest["name"], home.NPMPackage)
	}
	manifest["version"] = o.Version
	deps := map[string]any{}
	for _, p := range Platforms {
		deps[p.Package()] = o.Version
	}
	manifest["optionalDependencies"] = deps
	files := []tarFile{{name: "package.json", data: jsonBytes(manifest), mode: 0o644}}
	for _, name := range []string{"README.md", "bin/mcplint.js"} {
		data, err := os.ReadFile(filepath.Join(o.Template, filepath.FromSlash(name)))
		if err != nil {
			return "", err
		}
		mode := int64(0o644)
		if strings.HasPrefix(name, "bin/") {
			mode = 0o755
		}
		files = append(files, tarFile{name: name, data: data, mode: mode})
	}
	return writeTarball(o.Out, home.NPMPackage, o.Version, files)
}

// packPlatform packs one binary with the "os" and "cpu" npm matches
// against the machine, and no "bin": the launcher's is the command.
func packPlatform(o Options, p Platform) (string, error) {
	bin, err := os.ReadFile(o.Binaries[p])
	if err != nil {
		return "", err
	}
	manifest := map[string]any{
		"name":            p.Package(),
		"version":         o.Version,
		"description":     fmt.Sprintf("The mcplint binary for %s on %s, run by %s", p.OS, p.CPU, home.NPMPackage),
		"homepage":        home.URL,
		"repository":      map[string]any{"type": "git", "url": "git+" + home.URL + ".git"},
		"os":              []string{p.OS},
		"cpu":             []string{p.CPU},
		"files":           []string{"bin/" + p.Exe()},
		"preferUnplugged": true,
	}
	readme := fmt.Sprintf("# %s\n\nThe native mcplint binary for %s on %s. Install %s instead: it runs this binary.\n\n%s\n", p.Package(), p.OS, p.CPU, home.NPMPackage, home.URL)
	return writeTarball(o.Out, p.Package(), o.Version, []tarFile{
		{name: "package.json", data: jsonBytes(manifest), mode: 0o644},
		{name: "README.md", data: []byte(readme), mode: 0o644},
		{name: "bin/" + p.Exe(), data: bin, mode: 0o755},
	})
}

func jsonBytes(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // maps of strings and slices always marshal
	}
	return append(b, '\n')
}

type tarFile struct {
	name string
	data []byte
	mode int64
}

// npmEpoch is the modification time npm pack gives every entry, so that
// a tarball depends on its contents alone.
var npmEpoch = time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC)

// TarballName is the file `npm pack` names the package's tarball:
// @scope/name becomes scope-name-VERSION.tgz.
func TarballName(pkg, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pkg, "@"), "/", "-") + "-" + version + ".tgz"
}

// writeTarball writes the files under package/, as npm expects them, and
// returns the tarball's path.
func writeTarball(dir, pkg, version string, files []tarFile) (string, error) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		hdr := &tar.Header{
			Name: "package/" + f.name, Mode: f.mode, Size: int64(len(f.data)),
			ModTime: npmEpoch, Typeflag: tar.TypeReg, Format: tar.FormatPAX,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return "", err
		}
		if _, err := io.Copy(tw, bytes.NewReader(f.data)); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	if err := gz.Close(); err != nil {
		return "", err
	}
	path := filepath.Join(dir, TarballName(pkg, version))
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}
