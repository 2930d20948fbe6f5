package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/goccy/go-yaml"
)

// binaryFlags collects -binary GOOS/GOARCH=PATH.
type binaryFlags map[Platform]string

func (b binaryFlags) String() string { return fmt.Sprint(map[Platform]string(b)) }

func (b binaryFlags) Set(s string) error {
	target, path, ok := strings.Cut(s, "=")
	goos, goarch, ok2 := strings.Cut(target, "/")
	if !ok || !ok2 || path == "" {
		return fmt.Errorf("want GOOS/GOARCH=PATH, got %q", s)
	}
	p, ok := PlatformOf(goos, goarch)
	if !ok {
		return fmt.Errorf("%s/%s is not a platform of the release", goos, goarch)
	}
	b[p] = path
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("npmpack", flag.ContinueOnError)
	out := fs.String("out", "dist/npm", "write the tarballs to this `folder`")
	version := fs.String("version", "0.0.0-dev", "the packages' `version` (semver; a leading v is dropped)")
	template := fs.String("template", "npm/mcplint", "the launcher package's `folder`")
	release := fs.String("goreleaser", "", "pack every binary of goreleaser's `dist` folder (its artifacts.json)")
	binaries := binaryFlags{}
	fs.Var(binaries, "binary", "pack this binary, as `GOOS/GOARCH=PATH` (repeatable); with neither -binary nor -goreleaser, the release build for this machine")
	if err := fs.Parse(args); err != nil {
		return err
	}
	v := strings.TrimPrefix(*version, "v")
	if *release != "" {
		if err := goreleaserBinaries(*release, binaries); err != nil {
			return err
		}
	}
	if len(binaries) == 0 {
		p, ok := PlatformOf(runtime.GOOS, runtime.GOARCH)
		if !ok {
			return fmt.Errorf("%s/%s is not a platform of the release", runtime.GOOS, runtime.GOARCH)
		}
		path := filepath.Join(*out, "build", p.GOOS+"-"+p.GOARCH, p.Exe())
		if err := releaseBuild(path, "v"+v); err != nil {
			return err
		}
		binaries[p] = path
	}
	paths, err := Pack(Options{Version: v, Template: *template, Binaries: binaries, Out: *out})
	for _, p := range paths {
		fmt.Println(p)
	}
	return err
}

// goreleaser is the build of .goreleaser.yaml.
type goreleaser struct {
	Builds []struct {
		Main    string   `yaml:"main"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
}

// releaseBuild builds mcplint for this machine as .goreleaser.yaml's
// build does, for the tag and the commit checked out.
func releaseBuild(path, tag string) error {
	src, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		return fmt.Errorf("run from the repository's root: %w", err)
	}
	var g goreleaser
	if err := yaml.Unmarshal(src, &g); err != nil {
		return fmt.Errorf(".goreleaser.yaml: %w", err)
	}
	if len(g.Builds) != 1 {
		return fmt.Errorf(".goreleaser.yaml: want one build, found %d", len(g.Builds))
	}
	b := g.Builds[0]
	commit, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		commit = []byte("unknown")
	}
	vars := strings.NewReplacer("{{ .Tag }}", tag, "{{ .FullCommit }}", strings.TrimSpace(string(commit)))
	var ldflags []string
	for _, f := range b.Ldflags {
		ldflags = append(ldflags, vars.Replace(f))
	}
	args := append([]string{"build"}, b.Flags...)
	args = append(args, "-ldflags", strings.Join(ldflags, " "), "-o", path, b.Main)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), b.Env...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// goreleaserBinaries reads the binaries of a goreleaser dist folder from
// its artifacts.json.
func goreleaserBinaries(dist string, into binaryFlags) error {
	src, err := os.ReadFile(filepath.Join(dist, "artifacts.json"))
	if err != nil {
		return err
	}
	var artifacts []struct {
		Type   string `json:"type"`
		Path   string `json:"path"`
		Goos   string `json:"goos"`
		Goarch string `json:"goarch"`
	}
	if err := json.Unmarshal(src, &artifacts); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dist, "artifacts.json"), err)
	}
	for _, a := range artifacts {
		if a.Type != "Binary" {
			continue
		}
		if p, ok := PlatformOf(a.Goos, a.Goarch); ok {
			into[p] = a.Path
		}
	}
	if len(into) != len(Platforms) {
		return fmt.Errorf("%s: %d of the %d platforms' binaries found", filepath.Join(dist, "artifacts.json"), len(into), len(Platforms))
	}
	return nil
}
