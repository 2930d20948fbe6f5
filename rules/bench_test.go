package rules_test

import (
	"sync"
	"testing"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// The benchmarks run over one generated manifest of 10,000 tools (about
// 16 MB pretty-printed), built once per process:
//
//	go test ./rules -run '^$' -bench . -benchmem
var benchSrc = sync.OnceValue(func() []byte { return benchgen.Manifest(10000) })

func benchManifest(b *testing.B) *manifest.Manifest {
	b.Helper()
	m, err := manifest.Load("bench.json", benchSrc())
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func benchLinter(b *testing.B, cfg lint.Config) *lint.Linter {
	b.Helper()
	l, err := lint.New(rules.All, cfg)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func BenchmarkLoad(b *testing.B) {
	src := benchSrc()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := manifest.Load("bench.json", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode decodes every tool, as a lint run does once.
func BenchmarkDecode(b *testing.B) {
	m := benchManifest(b)
	b.SetBytes(int64(len(m.Src)))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range m.Tools {
			if _, err := t.Value(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLint is what `mcplint lint` does after reading the file: the
// default rules with a fresh linter (and so a cold cache) each time.
func BenchmarkLint(b *testing.B) {
	m := benchManifest(b)
	b.SetBytes(int64(len(m.Src)))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		ds, err := benchLinter(b, lint.Config{}).Lint(m)
		if err != nil {
			b.Fatal(err)
		}
		n = len(ds)
	}
	b.ReportMetric(float64(n), "findings")
}

// BenchmarkLintRule runs each rule of the catalogue alone, to show which
// ones cost the time.
func BenchmarkLintRule(b *testing.B) {
	m := benchManifest(b)
	for _, r := range rules.All {
		b.Run(r.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := benchLinter(b, lint.Config{Select: []string{r.ID}}).Lint(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFix fixes the manifest with the default rules (safe fixes), and
// with every rule and unsafe fixes.
func BenchmarkFix(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  lint.Config
	}{
		{"default", lint.Config{}},
		{"all-unsafe", lint.Config{Select: []string{"all"}, UnsafeFixes: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := benchSrc()
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var applied int
			for b.Loop() {
				m, err := manifest.Load("bench.json", src)
				if err != nil {
					b.Fatal(err)
				}
				res, err := benchLinter(b, c.cfg).Fix(m)
				if err != nil {
					b.Fatal(err)
				}
				applied = res.Applied
			}
			b.ReportMetric(float64(applied), "fixes")
		})
	}
}
