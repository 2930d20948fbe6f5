package citest

import (
	"github.com/mcplint/mcplint/internal/testenv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestReleaseTargetsMatch keeps the targets CI builds
// (.ci/release-targets.sh) equal to those goreleaser releases.
func TestReleaseTargetsMatch(t *testing.T) {
	root := testenv.RepoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Main   string   `yaml:"main"`
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 || cfg.Builds[0].Main != "./cmd/mcplint" {
		t.Fatalf("builds: %+v", cfg.Builds)
	}
	var release []string
	for _, os := range cfg.Builds[0].Goos {
		for _, arch := range cfg.Builds[0].Goarch {
			release = append(release, os+"/"+arch)
		}
	}
	script, err := os.ReadFile(filepath.Join(root, ".ci", "release-targets.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^targets="([^"]*)"`).FindSubmatch(script)
	if m == nil {
		t.Fatal(`.ci/release-targets.sh has no targets="..." line`)
	}
	built := strings.Fields(string(m[1]))
	slices.Sort(release)
	slices.Sort(built)
	if !slices.Equal(release, built) {
		t.Errorf("goreleaser releases %v but CI builds %v", release, built)
	}
	if len(release) != 6 {
		t.Errorf("%d release targets, want linux, darwin and windows on amd64 and arm64", len(release))
	}
}
