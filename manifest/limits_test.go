package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// limitErr checks that err is an *Error for limit, with want in its
// message.
func limitErr(t *testing.T, err error, limit Limit, want string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Limit != limit || !strings.Contains(e.Error(), want) {
		t.Errorf("error %v (limit %q), want limit %q and %q", err, func() Limit {
			if e != nil {
				return e.Limit
			}
			return ""
		}(), limit, want)
	}
}

// TestSizeCheckedBeforeReading: a regular file over the limit is refused
// from its size, without reading it: a sparse file of 4 GiB costs nothing
// to refuse.
func TestSizeCheckedBeforeReading(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadFile(path)
	runtime.ReadMemStats(&after)
	limitErr(t, err, LimitSize, path+": the input is larger than the limit of 32 MiB")
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing the file allocated %d bytes: it was read", n)
	}
	small := filepath.Join(t.TempDir(), "small.json")
	if err := os.WriteFile(small, []byte(`{"name":"t"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = (Limits{Size: 10}).ReadFile(small)
	limitErr(t, err, LimitSize, "small.json: the input is larger than the limit of 10 bytes")
	if _, err := (Limits{Size: 12}).ReadFile(small); err != nil {
		t.Errorf("a file of exactly the limit: %v", err)
	}
}

// zeros is an endless input, as /dev/zero is; it counts what is read.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

func TestEndlessInputStopsAtTheLimit(t *testing.T) {
	z := &zeros{}
	_, err := (Limits{Size: 1 << 20}).Read("<stdin>", z)
	limitErr(t, err, LimitSize, "<stdin>: the input is larger than the limit of 1 MiB")
	if z.n != 1<<20+1 {
		t.Errorf("read %d bytes of an endless input, want the limit and one more", z.n)
	}
	if path := "/dev/zero"; fileExists(path) {
		_, err := (Limits{Size: 1 << 20}).ReadFile(path)
		limitErr(t, err, LimitSize, "/dev/zero: the input is larger than the limit of 1 MiB")
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestDepthLimit(t *testing.T) {
	nest := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	limits := Limits{Depth: 10}
	m, err := limits.Load("d.json", []byte(`{"name":"t","inputSchema":`+nest(9)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Tools[0].Value(); err != nil {
		t.Errorf("a tool 10 levels deep does not decode under a limit of 10: %v", err)
	}
	_, err = limits.Load("d.json", []byte(`{"name":"t","inputSchema":`+nest(10)+`}`))
	limitErr(t, err, LimitDepth, "d.json:1:77: nesting deeper than 10 levels")

	// YAML: past the limit and the levels that hold tools, refused before
	// parsing.
	flow := func(n int) string { return strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) }
	_, err = limits.Load("d.yaml", []byte("tools:\n  - name: t\n    inputSchema: "+flow(40)+"\n"))
	limitErr(t, err, LimitDepth, "d.yaml:3:")
	if m, err = limits.Load("d.yaml", []byte("tools:\n  - name: t\n    inputSchema: "+flow(9)+"\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Tools[0].Value(); err != nil {
		t.Errorf("a YAML tool 10 levels deep: %v", err)
	}
	// The limit survives a reload (the fix loop reloads its result).
	again, err := m.Reload(m.Src)
	if err != nil || again.Limits().Depth != 10 {
		t.Errorf("Reload: %v, limits %+v", err, again.Limits())
	}
}

func TestYAMLSizeLimit(t *testing.T) {
	src := []byte("tools:\n" + strings.Repeat("  - {name: t, inputSchema: {type: object}}\n", 50))
	_, err := (Limits{YAMLSize: 1000}).Load("t.yaml", src)
	limitErr(t, err, LimitYAMLSize, "t.yaml: the YAML source is larger than the limit of 1000 bytes for YAML")
	if _, err := (Limits{YAMLSize: int64(len(src))}).Load("t.yaml", src); err != nil {
		t.Errorf("YAML of exactly the limit: %v", err)
	}
	// JSON is not YAML: only Size bounds it.
	json := []byte(`[` + strings.Repeat(`{"name":"t"},`, 100) + `{"name":"t"}]`)
	if _, err := (Limits{YAMLSize: 100}).Load("t.json", json); err != nil {
		t.Errorf("JSON under a YAML limit: %v", err)
	}
}

func TestYAMLTokenLimit(t *testing.T) {
	src := "tools:\n" + strings.Repeat("  - {name: t, inputSchema: {type: object}}\n", 50)
	if _, err := (Limits{YAMLTokens: 2000}).Load("t.yaml", []byte(src)); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
	_, err := (Limits{YAMLTokens: 200}).Load("t.yaml", []byte(src))
	limitErr(t, err, LimitYAMLTokens, "the YAML source has more than 200 tokens")
	var e *Error
	if errors.As(err, &e) && e.Pos.Line < 10 {
		t.Errorf("the error is at line %d, not where the limit was passed", e.Pos.Line)
	}
}

// TestYAMLExpansionLimit: the bytes aliases stand for are counted, not the
// aliases: one long string aliased a few times passes the limit.
func TestYAMLExpansionLimit(t *testing.T) {
	long := strings.Repeat("x", 1000)
	src := "x: &s " + long + "\ntools:\n  - name: t\n    inputSchema:\n      type: object\n      properties:\n"
	for i := range 100 {
		src += "        p" + string(rune('a'+i%26)) + strings.Repeat("z", i/26) + ": {description: *s}\n"
	}
	if _, err := (Limits{YAMLExpansion: 200 << 10}).Load("a.yaml", []byte(src)); err != nil {
		t.Fatalf("100 KB of expansion under a 200 KiB limit: %v", err)
	}
	_, err := (Limits{YAMLExpansion: 50 << 10}).Load("a.yaml", []byte(src))
	// Each alias stands for 1002 bytes: the 52nd passes 50 KiB.
	limitErr(t, err, LimitYAMLExpansion, "a.yaml:58:")
	limitErr(t, err, LimitYAMLExpansion, "aliases stand for more than 50 KiB of values")

	// Anchors of aliases multiply; the count stays linear in the text.
	bomb := "a: &a [" + strings.Repeat("x, ", 9) + "x]\n"
	for _, l := range "bcdefghij" {
		prev := string(l - 1)
		bomb += string(l) + ": &" + string(l) + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+", ", 10), ", ") + "]\n"
	}
	bomb += "tools: [{name: bomb, inputSchema: {enum: *j}}]\n"
	_, err = Load("b.yaml", []byte(bomb))
	limitErr(t, err, LimitYAMLExpansion, "aliases stand for more than 16 MiB")
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 100: "100 bytes", 1536: "1.5 KiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB"} {
		if got := SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkLimits measures what refusing a hostile input costs (B/op): an
// endless input read to a 64 MiB limit (the chunks read, once), YAML
// nested 9,990 levels deep (30 tools, refused before parsing), and a 1 MiB
// string aliased 4,096 times (refused before decoding).
func BenchmarkLimits(b *testing.B) {
	deep := "tools:\n" + strings.Repeat("  - name: t\n    inputSchema: "+strings.Repeat("{a: ", 9990)+"1"+strings.Repeat("}", 9990)+"\n", 30)
	bomb := "x: &s " + strings.Repeat("a", 1<<20) + "\ntools:\n  - name: t\n    inputSchema:\n      type: object\n      properties:\n"
	for i := range 4096 {
		bomb += "        p" + strings.Repeat("z", i/26) + string(rune('a'+i%26)) + ": {description: *s}\n"
	}
	for _, c := range []struct {
		name string
		load func() error
	}{
		{"endless-64MiB", func() error { _, err := (Limits{Size: 64 << 20}).Read("<stdin>", &zeros{}); return err }},
		{"yaml-nested-9990", func() error { _, err := Load("deep.yaml", []byte(deep)); return err }},
		{"yaml-aliased-4096", func() error { _, err := Load("bomb.yaml", []byte(bomb)); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c.load() == nil {
					b.Fatal("loaded")
				}
			}
		})
	}
}
