package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// diffCase is an old and a new text of one file.
type diffCase struct {
	name     string
	old, new []byte
}

// fixCases are the input and fixed files of every rule case with a fix
// that changes something.
func fixCases(t *testing.T) []diffCase {
	t.Helper()
	root := filepath.Join(testenv.RepoRoot(t), "rules", "testdata", "cases")
	inputs, err := filepath.Glob(filepath.Join(root, "*", "*", "input.*"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []diffCase
	for _, in := range inputs {
		fixed := filepath.Join(filepath.Dir(in), "fixed"+filepath.Ext(in))
		old, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		new, err := os.ReadFile(fixed)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, new) {
			rel, _ := filepath.Rel(root, in)
			cases = append(cases, diffCase{filepath.ToSlash(rel), old, new})
		}
	}
	if len(cases) < 50 {
		t.Fatalf("only %d fix cases under %s", len(cases), root)
	}
	return cases
}

// edgeCases are the shapes a fix's edits can take that the rule cases may
// not all show: the hunks of nearby edits joined (the first hunk holding
// two edits, which shifted every later "+" start), edits at either end, a
// last line without a newline changed or kept, a file emptied or filled.
func edgeCases() []diffCase {
	six := func(fixed bool) []byte {
		var b strings.Builder
		b.WriteString("{\n  \"tools\": [\n")
		for i := range 6 {
			schema := `{"type": "object", "properties": {"q": {"type": "string"}}}`
			if i == 0 || i == 1 || i == 5 {
				schema = "{}"
				if fixed {
					schema = `{"type": "object", "properties": {}}`
				}
			}
			fmt.Fprintf(&b, "    {\n      \"name\": \"tool_%d\",\n      \"description\": \"Tool %d.\",\n", i, i)
			if !fixed || i != 1 {
				// The fix of tool 1 also drops a line, so that the old
				// and new line numbers part.
				fmt.Fprintf(&b, "      \"title\": \"Tool %d\",\n", i)
			}
			fmt.Fprintf(&b, "      \"inputSchema\": %s\n    }", schema)
			if i < 5 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("  ]\n}")
		return []byte(b.String())
	}
	lines := func(n int, f func(i int) string) []byte {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i) + "\n")
		}
		return []byte(b.String())
	}
	plain := lines(30, func(i int) string { return fmt.Sprint("line ", i) })
	return []diffCase{
		{"six tools, two edits in the first hunk", six(false), six(true)},
		{"first line", plain, append([]byte("new first\n"), plain[len("line 0\n"):]...)},
		{"inserted at the start", plain, append([]byte("before\n"), plain...)},
		{"appended", plain, append(bytes.Clone(plain), "after\n"...)},
		{"last line loses its newline", plain, plain[:len(plain)-1]},
		{"last line gains a newline", plain[:len(plain)-1], plain},
		{"last line without newline, kept", []byte("a\nb\nc\nd\ne"), []byte("A\nb\nc\nd\ne")},
		{"last line without newline, changed", []byte("a\nb\nc\nd\ne"), []byte("a\nb\nc\nd\nE")},
		{"emptied", plain, nil},
		{"filled", nil, plain},
		{"one line", []byte("x\n"), []byte("y\n")},
		{"seven lines apart", plain, lines(30, func(i int) string {
			if i == 5 || i == 13 {
				return "changed"
			}
			return fmt.Sprint("line ", i)
		})},
		{"six lines apart", plain, lines(30, func(i int) string {
			if i == 5 || i == 12 {
				return "changed"
			}
			return fmt.Sprint("line ", i)
		})},
	}
}

// TestDiffMatchesDiffU checks that the hunks of Diff are those of GNU
// `diff -u`, header for header and line for line, on every rule case's fix.
func TestDiffMatchesDiffU(t *testing.T) {
	diffu := testenv.Command(t, "diff")
	dir := t.TempDir()
	for _, c := range append(fixCases(t), edgeCases()...) {
		got, err := Diff("m.json", c.old, c.new)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		oldPath, newPath := filepath.Join(dir, "old"), filepath.Join(dir, "new")
		writeFile(t, oldPath, c.old)
		writeFile(t, newPath, c.new)
		out, err := exec.Command(diffu, "-u", oldPath, newPath).Output()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s: diff -u: %v", c.name, err)
		}
		want := hunks(string(out))
		if g := hunks(got); g != want {
			t.Errorf("%s: the hunks differ from diff -u's\n%s", c.name, firstDifference(g, want))
		}
	}
}

// hunks drops the two file header lines of a unified diff.
func hunks(d string) string {
	for range 2 {
		_, d, _ = strings.Cut(d, "\n")
	}
	return d
}

// firstDifference shows the first line where two texts differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, gl, wl)
		}
	}
	return ""
}

// TestDiffApplies applies each patch with `patch -p1` and `git apply`,
// which must find every hunk at the lines its header names (no offset, no
// fuzz) and produce the fixed file; on the rule cases' fixes and on random
// edits of a manifest.
func TestDiffApplies(t *testing.T) {
	patch := testenv.Command(t, "patch")
	git := testenv.Command(t, "git")
	cases := append(fixCases(t), edgeCases()...)
	cases = append(cases, randomEdits(40)...)
	for _, c := range cases {
		d, err := Diff("dir/m.json", c.old, c.new)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, tool := range []struct {
			name string
			args []string
		}{
			{"patch -p1", []string{patch, "-p1", "--fuzz=0", "--no-backup-if-mismatch", "--batch"}},
			{"git apply", []string{git, "apply", "--verbose", "-"}},
		} {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "dir", "m.json"), c.old)
			cmd := exec.Command(tool.args[0], tool.args[1:]...)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(d)
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "LC_ALL=C")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s: %s: %v\n%s\n%s", c.name, tool.name, err, out, d)
				continue
			}
			if s := strings.ToLower(string(out)); strings.Contains(s, "offset") || strings.Contains(s, "fuzz") {
				t.Errorf("%s: %s applied the patch elsewhere than its headers say:\n%s\n%s", c.name, tool.name, out, d)
			}
			got, err := os.ReadFile(filepath.Join(dir, "dir", "m.json"))
			if err != nil && !(os.IsNotExist(err) && len(c.new) == 0) {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.new) {
				t.Errorf("%s: %s made\n%q\nwant\n%q", c.name, tool.name, got, c.new)
			}
		}
	}
}

// randomEdits are n versions of a manifest-like text with a few lines
// replaced, dropped or added at random places, seeded for repeatability.
func randomEdits(n int) []diffCase {
	r := rand.New(rand.NewPCG(1, 2))
	var cases []diffCase
	for k := range n {
		var old []string
		for i := range 20 + r.IntN(60) {
			old = append(old, fmt.Sprintf("  \"key%d\": %d,", i, r.IntN(5)))
		}
		new := append([]string(nil), old...)
		for range 1 + r.IntN(6) {
			i := r.IntN(len(new) + 1)
			switch r.IntN(3) {
			case 0:
				new = append(new[:i:i], append([]string{"  \"added\": true,"}, new[i:]...)...)
			case 1:
				if i < len(new) {
					new = append(new[:i:i], new[i+1:]...)
				}
			default:
				if i < len(new) {
					new[i] = "  \"changed\": {},"
				}
			}
		}
		join := func(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }
		if a, b := join(old), join(new); !bytes.Equal(a, b) {
			cases = append(cases, diffCase{fmt.Sprint("random ", k), a, b})
		}
	}
	return cases
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzDiff checks that the lines Diff keeps are those both texts share, in
// order, and that each hunk's header counts its lines.
func FuzzDiff(f *testing.F) {
	for _, c := range edgeCases() {
		f.Add(c.old, c.new)
	}
	f.Fuzz(func(t *testing.T, old, new []byte) {
		a, _ := splitLines(string(old))
		b, _ := splitLines(string(new))
		ca, cb := lineDiff(a, b, diffContext)
		var keptA, keptB []string
		for i, l := range a {
			if !ca[i] {
				keptA = append(keptA, l)
			}
		}
		for i, l := range b {
			if !cb[i] {
				keptB = append(keptB, l)
			}
		}
		if strings.Join(keptA, "") != strings.Join(keptB, "") || len(keptA) != len(keptB) {
			t.Fatalf("the unchanged lines differ:\n%q\n%q", keptA, keptB)
		}
		d, err := Diff("m", old, new)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range strings.Split(d, "\n@@ ")[1:] {
			header, body, _ := strings.Cut(h, "\n")
			var from, to int
			for _, l := range strings.SplitAfter(body, "\n") {
				switch {
				case strings.HasPrefix(l, "-"):
					from++
				case strings.HasPrefix(l, "+"):
					to++
				case strings.HasPrefix(l, " "):
					from, to = from+1, to+1
				}
			}
			var oldRange, newRange string
			if _, err := fmt.Sscanf(header, "-%s +%s @@", &oldRange, &newRange); err != nil {
				t.Fatalf("header %q: %v", header, err)
			}
			if rangeCount(oldRange) != from || rangeCount(newRange) != to {
				t.Fatalf("header %q for %d old and %d new lines", header, from, to)
			}
		}
	})
}

// rangeCount is the count of a hunk range, "start,count" or "start".
func rangeCount(r string) int {
	_, n, ok := strings.Cut(r, ",")
	if !ok {
		return 1
	}
	var c int
	fmt.Sscan(n, &c)
	return c
}

// BenchmarkDiff is the patch of a fix run on a large manifest: 20,000
// lines, one change in every 50.
func BenchmarkDiff(b *testing.B) {
	var old, new strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&old, "      \"p%d\": {\"type\": \"string\"},\n", i)
		if i%50 == 0 {
			fmt.Fprintf(&new, "      \"p%d\": {\"type\": \"object\", \"properties\": {}},\n", i)
		} else {
			fmt.Fprintf(&new, "      \"p%d\": {\"type\": \"string\"},\n", i)
		}
	}
	o, n := []byte(old.String()), []byte(new.String())
	b.SetBytes(int64(len(o)))
	for b.Loop() {
		if _, err := Diff("m.json", o, n); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDiffHostileNames: a file name is a stranger's, and the headers of a
// diff are printed into terminals and CI logs. Whatever the name holds
// (a line break, ESC, a bidi override, a runner's "##[" command), the
// headers are printable ASCII without "##", and git apply still finds the
// file by its name.
func TestDiffHostileNames(t *testing.T) {
	git := testenv.Command(t, "git")
	names := []string{"##[error]x.json", "a ##vso[task.complete]b.json", "###[group].json", "a\n::error::x.json",
		"b\x1b]0;T\x07.json", "d\u202e.json", "e\r::error::R.json", "\u2028::warning::x.json", "é\u0085.json", "plain.json"}
	for _, name := range names {
		d, err := Diff(name, []byte("{\n  \"a\": 1\n}\n"), []byte("{\n  \"a\": 2\n}\n"))
		if err != nil {
			t.Fatal(err)
		}
		headers := d[:strings.Index(d, "@@")]
		for _, r := range headers {
			if r != '\n' && (r < 0x20 || r > 0x7e) {
				t.Errorf("%q: the headers hold %U:\n%s", name, r, headers)
			}
		}
		if strings.Contains(headers, "##") {
			t.Errorf("%q: the headers hold a runner's marker:\n%s", name, headers)
		}
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, name), []byte("{\n  \"a\": 1\n}\n"))
		cmd := exec.Command(git, "apply", "-")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(d)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "LC_ALL=C")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: git apply: %v\n%s\n%s", name, err, out, d)
			continue
		}
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != "{\n  \"a\": 2\n}\n" {
			t.Errorf("%q: git apply made %q (%v)", name, got, err)
		}
	}
}
