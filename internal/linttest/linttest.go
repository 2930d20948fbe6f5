// Package linttest lints for the tests of the packages around the linter
// (rules, realworld, the proxy, the oracles): one call from a manifest, or
// its source, to the findings, failing the test where the linter refuses
// the configuration or the manifest.
package linttest

import (
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Lint returns the findings of the rules of catalogue that cfg selects on m.
func Lint(t testing.TB, catalogue []*lint.Rule, cfg lint.Config, m *manifest.Manifest) []lint.Diagnostic {
	t.Helper()
	l, err := lint.New(catalogue, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// Source loads src as the manifest file name and lints it, as Lint.
func Source(t testing.TB, catalogue []*lint.Rule, cfg lint.Config, name string, src []byte) []lint.Diagnostic {
	t.Helper()
	m, err := manifest.Load(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return Lint(t, catalogue, cfg, m)
}
