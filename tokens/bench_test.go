package tokens_test

import (
	"testing"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/tokens"
)

// BenchmarkManifest measures the estimate every run adds to its summary,
// on the 10,000 generated tools (16 MB) of lint's benchmarks.
func BenchmarkManifest(b *testing.B) {
	src := benchgen.Manifest(10000)
	m, err := manifest.Load("tools.json", src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		tokens.Manifest(m)
	}
}
