package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/benchgen"
)

// The benchmarks run the commands as a user does, on generated manifests
// (internal/benchgen), and report each run's time as a multiple of the
// floor: one pass of a JSON tokenizer over the same input, measured in the
// same run ("floors"). A ratio, unlike a time, holds on a machine shared
// with other work. Sizes go from 1,000 to 50,000 tools so that the time
// per tool ("ns/tool") shows whether a command stays linear:
//
//	go test ./cmd/mcplint -run '^$' -bench 'Command/^lint$/^10k$' -benchtime 5x -count 6
//
// Each part of -bench matches anywhere in a name: without the anchors,
// "lint" also runs lint-json, lint-sarif and lint-all.
//
// BenchmarkProcess runs the command in a process of its own, for what
// only a process shows: start-up (50 tools end to end) and peak memory
// ("rss/input", the peak resident set over the input's size).

var sizes = []struct {
	name  string
	tools int
}{{"1k", 1000}, {"10k", 10000}, {"50k", 50000}}

// benchFiles are the files the benchmarks write, once per process, by
// name: generated inputs and the programs they build. They share one
// directory, removed when the tests end (removeBenchFiles): each run left
// its own in the temporary directory, the 50k-tool input alone 82 MB.
var benchFiles = struct {
	sync.Mutex
	dir   string
	paths map[string]string
}{paths: map[string]string{}}

func removeBenchFiles() {
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
}

// benchFile returns the path of the file name, made by write (which gets
// the path) if this process has not made it yet.
func benchFile(b *testing.B, name string, write func(path string) error) string {
	b.Helper()
	benchFiles.Lock()
	defer benchFiles.Unlock()
	if p, ok := benchFiles.paths[name]; ok {
		return p
	}
	if benchFiles.dir == "" {
		dir, err := os.MkdirTemp("", "mcplint-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchFiles.dir = dir
	}
	p := filepath.Join(benchFiles.dir, name)
	if err := write(p); err != nil {
		b.Fatal(err)
	}
	benchFiles.paths[name] = p
	return p
}

// input writes src under name, once.
func input(b *testing.B, name string, src func() []byte) string {
	return benchFile(b, name, func(p string) error { return os.WriteFile(p, src(), 0o644) })
}

func generated(b *testing.B, tools int) string {
	return input(b, fmt.Sprintf("tools-%d.json", tools), func() []byte { return benchgen.Manifest(tools) })
}

// floor is the time of one token pass over src: the least of a few, so
// that a busy moment does not lower the ratios.
func floor(b *testing.B, src []byte) time.Duration {
	b.Helper()
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		dec := jsontext.NewDecoder(bytes.NewReader(src))
		for {
			if _, err := dec.ReadToken(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
		best = min(best, time.Since(start))
	}
	return best
}

// commands are what BenchmarkCommand runs; FILE stands for the input.
var commands = []struct {
	name string
	args []string
}{
	{"lint", []string{"lint", "FILE"}},
	{"lint-json", []string{"lint", "--format", "json", "FILE"}},
	{"lint-sarif", []string{"lint", "--format", "sarif", "FILE"}},
	{"lint-all", []string{"lint", "--select", "all", "FILE"}},
	{"fix", []string{"fix", "FILE"}},
	{"fix-all-unsafe", []string{"fix", "--select", "all", "--unsafe-fixes", "FILE"}},
	{"convert-mcp", []string{"convert", "--to", "mcp", "FILE"}},
	{"convert-openai", []string{"convert", "--to", "openai", "FILE"}},
	{"convert-openai-strict", []string{"convert", "--to", "openai", "--strict", "FILE"}},
	{"convert-anthropic", []string{"convert", "--to", "anthropic", "FILE"}},
	{"convert-gemini", []string{"convert", "--to", "gemini", "FILE"}},
	{"convert-gemini-json", []string{"convert", "--to", "gemini", "--gemini-json-schema", "FILE"}},
	{"convert-zod", []string{"convert", "--to", "zod", "FILE"}},
}

func withFile(args []string, path string) []string {
	out := []string{"mcplint", "--no-config"}
	if args[0] == "convert" {
		out = out[:1] // convert reads no configuration
	}
	for _, a := range args {
		if a == "FILE" {
			a = path
		}
		out = append(out, a)
	}
	// --no-config goes after the command's name.
	if out[1] == "--no-config" {
		out[1], out[2] = out[2], out[1]
	}
	return out
}

// runIn runs the command line in this process, its output discarded.
func runIn(b *testing.B, args []string) {
	e := &env{stdin: bytes.NewReader(nil), stdout: io.Discard, stderr: io.Discard,
		getenv: func(string) string { return "" }, catalogue: catalogue()}
	if code := e.run(context.Background(), args); code == exitError {
		b.Fatalf("%v: exit status %d", args, code)
	}
}

// bench times fn, one run of the command on the input at path of so many
// tools, and reports it as floors and per tool. The floor is measured
// before each run, outside the timer, and "floors" is the median of the
// runs' ratios: on a machine shared with other work, slow spells last
// longer than a run, and a floor measured once, at a quiet moment or a
// busy one, moved every ratio of the benchmark with it.
func bench(b *testing.B, path string, tools int, fn func()) {
	b.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	var (
		ratios []float64
		total  time.Duration
	)
	for b.Loop() {
		b.StopTimer()
		fl := floor(b, src)
		b.StartTimer()
		start := time.Now()
		fn()
		d := time.Since(start)
		total += d
		ratios = append(ratios, float64(d)/float64(fl))
	}
	slices.Sort(ratios)
	mid := len(ratios) / 2
	median := ratios[mid]
	if len(ratios)%2 == 0 {
		median = (ratios[mid-1] + ratios[mid]) / 2
	}
	b.ReportMetric(median, "floors")
	if tools > 0 {
		b.ReportMetric(float64(total.Nanoseconds())/float64(b.N)/float64(tools), "ns/tool")
	}
}

// BenchmarkCommand runs each command on the generated manifests.
func BenchmarkCommand(b *testing.B) {
	for _, c := range commands {
		b.Run(c.name, func(b *testing.B) {
			for _, sz := range sizes {
				b.Run(sz.name, func(b *testing.B) {
					path := generated(b, sz.tools)
					args := withFile(c.args, path)
					bench(b, path, sz.tools, func() { runIn(b, args) })
				})
			}
		})
	}
}

// BenchmarkPathology runs lint on the shapes that once cost out of
// proportion: a chain of $refs, thousands of findings on one minified
// line (text output, which quotes the line, against JSON), and YAML nested
// hundreds deep (900 levels at most: the default limit is 1,000). Each
// comes in two sizes ten times apart: linear means the same time per unit
// ("ns/unit").
func BenchmarkPathology(b *testing.B) {
	for _, p := range []struct {
		name  string
		ext   string
		gen   func(n int) []byte
		sizes []int
		args  []string
	}{
		{"ref-chain", "json", benchgen.RefChain, []int{1000, 10000}, []string{"lint", "--select", "all", "FILE"}},
		{"ref-chain-fix", "json", benchgen.RefChain, []int{1000, 10000}, []string{"fix", "--select", "all", "--unsafe-fixes", "FILE"}},
		{"ref-chain-gemini", "json", benchgen.RefChain, []int{1000, 10000}, []string{"convert", "--to", "gemini", "FILE"}},
		{"one-line-text", "json", benchgen.OneLineFindings, []int{400, 4000}, []string{"lint", "FILE"}},
		{"one-line-json", "json", benchgen.OneLineFindings, []int{400, 4000}, []string{"lint", "--format", "json", "FILE"}},
		{"deep-yaml", "yaml", func(n int) []byte { return benchgen.DeepYAML(30, n) }, []int{45, 450}, []string{"lint", "--select", "all", "FILE"}},
		{"deep-yaml-fix", "yaml", func(n int) []byte { return benchgen.DeepYAML(30, n) }, []int{45, 450}, []string{"fix", "--select", "all", "--unsafe-fixes", "FILE"}},
		// One list of entries, once gone through pair by pair.
		{"required", "json", benchgen.RequiredAll, []int{10000, 100000}, []string{"lint", "--select", "all", "FILE"}},
		{"required-strict", "json", benchgen.RequiredAll, []int{10000, 100000}, []string{"convert", "--to", "openai", "--strict", "FILE"}},
		{"enum", "json", benchgen.EnumValues, []int{10000, 100000}, []string{"lint", "--select", "all", "FILE"}},
		{"anyof-root", "json", benchgen.AnyOfMembers, []int{10000, 100000}, []string{"lint", "--select", "all", "FILE"}},
		{"allof", "json", benchgen.AllOfBranches, []int{10000, 100000}, []string{"lint", "--select", "all", "FILE"}},
		{"allof-gemini", "json", benchgen.AllOfBranches, []int{10000, 100000}, []string{"convert", "--to", "gemini", "FILE"}},
		{"oneof", "json", benchgen.OneOfConsts, []int{10000, 100000}, []string{"lint", "--select", "all", "FILE"}},
		{"one-line-sarif", "json", benchgen.OneLineFindings, []int{10000, 100000}, []string{"lint", "--format", "sarif", "--max-findings", "1000000", "FILE"}},
		{"one-line-fix", "json", benchgen.OneLineFindings, []int{10000, 100000}, []string{"fix", "--max-findings", "1000000", "FILE"}},
	} {
		b.Run(p.name, func(b *testing.B) {
			for _, n := range p.sizes {
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					path := input(b, fmt.Sprintf("%s-%d.%s", p.name, n, p.ext), func() []byte { return p.gen(n) })
					args := withFile(p.args, path)
					start := time.Now()
					for b.Loop() {
						runIn(b, args)
					}
					b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/float64(n), "ns/unit")
				})
			}
		})
	}
}

// BenchmarkProcess runs mcplint in a process of its own, built as a release
// is (.goreleaser.yaml: no cgo, -trimpath, -s -w), and reports its time
// and then its peak resident set over the size of its input. "50" is the
// pre-commit case: 50 tools end to end, start-up included. Two programs
// that do nothing give the least it can take: "start/go", a Go program,
// and "start/jsonschema", one that links the JSON Schema library mcplint
// validates with, whose package initialisation compiles five metaschemas
// (bench/libstart).
func BenchmarkProcess(b *testing.B) {
	bin := releaseBinary(b)
	for _, c := range []struct {
		name  string
		tools int
		args  []string
		prog  []string // package and build flags; mcplint if empty
	}{
		{"start/go", 0, nil, []string{"../../bench/libstart", "-tags", "bare"}},
		{"start/jsonschema", 0, nil, []string{"../../bench/libstart"}},
		{"version", 0, []string{"--version"}, nil}, // mcplint's start-up alone
		{"lint/50", 50, []string{"lint", "FILE"}, nil},
		{"fix/50", 50, []string{"fix", "FILE"}, nil},
		{"lint/10k", 10000, []string{"lint", "FILE"}, nil},
		{"lint-json/10k", 10000, []string{"lint", "--format", "json", "FILE"}, nil},
		{"lint-all/10k", 10000, []string{"lint", "--select", "all", "FILE"}, nil},
		{"fix/10k", 10000, []string{"fix", "FILE"}, nil},
		{"convert-openai-strict/10k", 10000, []string{"convert", "--to", "openai", "--strict", "FILE"}, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			bin := bin
			if c.prog != nil {
				bin = released(b, c.prog[0], c.prog[1:]...)
			}
			args := c.args
			var size int64
			if c.tools > 0 {
				path := generated(b, c.tools)
				info, err := os.Stat(path)
				if err != nil {
					b.Fatal(err)
				}
				args, size = withFile(c.args, path)[1:], info.Size()
			}
			run := func(cmd *exec.Cmd) {
				cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
				if err := cmd.Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == exitError {
						b.Fatalf("%s: %v", args, err)
					}
				}
			}
			for b.Loop() {
				run(exec.Command(bin, args...))
			}
			// A child forked from this process inherits its peak resident
			// set (Linux keeps the high-water mark across exec), and this
			// one holds the generated inputs: GNU time, small, forks the
			// child instead, and tells its peak alone. Untimed, since it
			// adds a process of its own.
			var peak int64
			gnuTime, _ := exec.LookPath("/usr/bin/time")
			rssFile := filepath.Join(b.TempDir(), "rss")
			for range 3 {
				if gnuTime == "" {
					cmd := exec.Command(bin, args...)
					run(cmd)
					peak = max(peak, maxRSS(cmd.ProcessState))
					continue
				}
				run(exec.Command(gnuTime, append([]string{"-f", "%M", "-o", rssFile, bin}, args...)...))
				out, err := os.ReadFile(rssFile)
				if err != nil {
					b.Fatal(err)
				}
				lines := strings.Split(strings.TrimSpace(string(out)), "\n")
				kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
				if err != nil {
					b.Fatalf("GNU time: %q", out)
				}
				peak = max(peak, kib*1024)
			}
			if size > 0 {
				b.ReportMetric(float64(peak)/float64(size), "rss/input")
			}
			b.ReportMetric(float64(peak)/(1<<20), "MiB-rss")
		})
	}
}

// releaseBinary builds mcplint once per process as .goreleaser.yaml does.
func releaseBinary(b *testing.B) string { return released(b, ".") }

// released builds the package at pkg (relative to this one), with the
// extra go build flags, once per process, as .goreleaser.yaml builds
// mcplint: no cgo, -trimpath, -s -w.
func released(b *testing.B, pkg string, flags ...string) string {
	b.Helper()
	key := strings.Join(append([]string{pkg}, flags...), " ")
	// The name keeps the key's letters, digits and dashes: a path's
	// separators would put the file elsewhere.
	name := "bin-" + strings.Map(func(r rune) rune {
		if r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, key)
	return benchFile(b, name, func(path string) error {
		args := append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", path}, flags...)
		cmd := exec.Command("go", append(args, pkg)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", key, err, out)
		}
		return nil
	})
}
