package benchgen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
)

// Write a manifest to a file for measuring the command by hand:
//
//	go test ./internal/benchgen -run TestWriteFile -benchgen.out "$PWD/tools.json" -benchgen.tools 10000
var (
	outFile  = flag.String("benchgen.out", "", "write a generated manifest to this file")
	outTools = flag.Int("benchgen.tools", 10000, "number of tools for -benchgen.out")
)

func TestWriteFile(t *testing.T) {
	path, n := *outFile, *outTools
	if path == "" {
		path, n = filepath.Join(t.TempDir(), "tools.json"), 50
	}
	src := Manifest(n)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) != n {
		t.Errorf("%d tools, want %d", len(m.Tools), n)
	}
	t.Logf("wrote %s: %d tools, %d bytes", path, n, len(src))
}

func TestDeterministic(t *testing.T) {
	a, b := Manifest(200), Manifest(200)
	if !bytes.Equal(a, b) {
		t.Error("the same size and seed give different bytes")
	}
	if bytes.Equal(Generate(Options{Tools: 200, Seed: 2}), a) {
		t.Error("another seed gives the same bytes")
	}
	// A manifest's first tools do not depend on how many follow.
	small := Generate(Options{Tools: 10, Seed: 1, Compact: true})
	large := Generate(Options{Tools: 20, Seed: 1, Compact: true})
	ms, err := manifest.Load("s.json", small)
	if err != nil {
		t.Fatal(err)
	}
	ml, err := manifest.Load("l.json", large)
	if err != nil {
		t.Fatal(err)
	}
	for i, tool := range ms.Tools {
		s1, e1, _ := tool.Span("")
		s2, e2, _ := ml.Tools[i].Span("")
		if !bytes.Equal(small[s1:e1], large[s2:e2]) {
			t.Fatalf("tool %d differs between a manifest of 10 and one of 20", i)
		}
	}
}

func TestShapes(t *testing.T) {
	for _, opts := range []Options{
		{Tools: 300, Seed: 7},
		{Tools: 300, Seed: 7, Compact: true},
		{Tools: 300, Seed: 7, Broken: -1},
		{Tools: 0, Seed: 1},
	} {
		src := Generate(opts)
		m, err := manifest.Load("g.json", src)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if m.Shape != manifest.ShapeListResult || len(m.Tools) != opts.Tools {
			t.Errorf("%+v: shape %q, %d tools", opts, m.Shape, len(m.Tools))
		}
		if opts.Compact && bytes.Count(src, []byte("\n")) != 1 {
			t.Errorf("compact output has %d lines", bytes.Count(src, []byte("\n")))
		}
		var refs, defs, noType, noDesc int
		for _, tool := range m.Tools {
			v, err := tool.Value()
			if err != nil {
				t.Fatal(err)
			}
			obj := v.(map[string]any)
			s := obj["inputSchema"].(map[string]any)
			if s["type"] == nil {
				noType++
			}
			if obj["description"] == nil {
				noDesc++
			}
			if s["$defs"] != nil {
				defs++
			}
			if bytes.Contains(src[tool.Locate("").Offset:], []byte(`"$ref"`)) {
				refs++
			}
		}
		if opts.Tools == 0 {
			continue
		}
		if defs == 0 || refs == 0 {
			t.Errorf("%+v: no $defs or $ref (%d, %d)", opts, defs, refs)
		}
		broken := noType + noDesc
		if opts.Broken < 0 && broken != 0 {
			t.Errorf("%+v: %d broken tools, want none", opts, broken)
		}
		if opts.Broken == 0 && broken == 0 {
			t.Errorf("%+v: no tool lacks a type or a description", opts)
		}
	}
}

// TestSize keeps the benchmark's input at the size the figures quote.
func TestSize(t *testing.T) {
	n := len(Manifest(1000))
	// 10,000 tools should make about 15 MB: 1,000 about 1.5 MB.
	if n < 1_300_000 || n > 1_700_000 {
		t.Errorf("1000 tools make %d bytes, want about 1.5 MB", n)
	}
}

// TestPathologies checks that the pathological manifests load and are the
// size they promise.
func TestPathologies(t *testing.T) {
	m, err := manifest.Load("chain.json", RefChain(100))
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Tools[0].Value()
	if err != nil {
		t.Fatal(err)
	}
	defs := v.(map[string]any)["inputSchema"].(map[string]any)["$defs"].(map[string]any)
	if len(defs) != 100 || defs["d98"].(map[string]any)["$ref"] != "#/$defs/d99" {
		t.Errorf("RefChain(100): %d definitions", len(defs))
	}
	src := OneLineFindings(50)
	if bytes.Count(src, []byte("\n")) != 1 {
		t.Errorf("OneLineFindings spans %d lines", bytes.Count(src, []byte("\n")))
	}
	if m, err = manifest.Load("line.json", src); err != nil || len(m.Tools) != 50 {
		t.Fatalf("OneLineFindings(50): %v", err)
	}
	if m, err = manifest.Load("deep.yaml", DeepYAML(3, 40)); err != nil || len(m.Tools) != 3 {
		t.Fatalf("DeepYAML(3, 40): %v", err)
	}
	v, err = m.Tools[2].Value()
	if err != nil {
		t.Fatal(err)
	}
	s := v.(map[string]any)["inputSchema"].(map[string]any)
	depth := 0
	for {
		props, ok := s["properties"].(map[string]any)
		if !ok {
			break
		}
		s = props["p"].(map[string]any)
		depth++
	}
	if depth != 40 || s["type"] != "string" {
		t.Errorf("DeepYAML(3, 40) nests %d objects, want 40 around a string", depth)
	}
}

// Write the long-string manifests for measuring the reports by hand:
//
//	go test ./internal/benchgen -run TestWriteLongStrings -benchgen.long "$PWD"
var longDir = flag.String("benchgen.long", "", "write long-name.json and long-key.json to this directory")

func TestWriteLongStrings(t *testing.T) {
	dir := *longDir
	n, props := 100<<10, 1000
	if dir == "" {
		dir, n, props = t.TempDir(), 1000, 10
	}
	for name, src := range map[string][]byte{"long-name.json": LongName(n, props), "long-key.json": LongKey(n, props)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := manifest.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Tools) != 1 {
			t.Errorf("%s: %d tools, want 1", name, len(m.Tools))
		}
	}
}
