package realworld

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/goccy/go-yaml"

	"github.com/mcpfit/mcplint/manifest"
)

// Case is one case of the corpus: a folder of testdata/realworld with its
// tool list (tools.json) and what is known of it (case.yaml).
type Case struct {
	// Name is the folder's name: thread-*, gen-* or server-*.
	Name     string
	File     CaseFile
	Manifest *manifest.Manifest
}

// CaseFile is case.yaml.
type CaseFile struct {
	Title     string            `yaml:"title"`
	Kind      string            `yaml:"kind"`
	Source    []string          `yaml:"source"`
	Generator string            `yaml:"generator"`
	Reduced   string            `yaml:"reduced"`
	Verdicts  map[string]string `yaml:"verdicts"`
	Errors    map[string]string `yaml:"errors"`
	Basis     string            `yaml:"basis"`
}

// ReadCaseFile decodes the case.yaml of the case in dir strictly: an
// unknown key is an error, so a misspelt verdict cannot pass unread.
func ReadCaseFile(dir string) (CaseFile, error) {
	path := filepath.Join(dir, "case.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		return CaseFile{}, err
	}
	var c CaseFile
	if err := yaml.NewDecoder(bytes.NewReader(b), yaml.DisallowUnknownField()).Decode(&c); err != nil {
		return CaseFile{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Dirs are the folders of the cases in root (testdata/realworld), in name
// order.
func Dirs(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs, nil
}

// Corpus reads every case in root (testdata/realworld), in name order.
func Corpus(root string) ([]Case, error) {
	dirs, err := Dirs(root)
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, dir := range dirs {
		m, err := manifest.ReadFile(filepath.Join(dir, "tools.json"))
		if err != nil {
			return nil, err
		}
		c, err := ReadCaseFile(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, Case{Name: filepath.Base(dir), File: c, Manifest: m})
	}
	return out, nil
}
