package citest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// goVersion compares Go versions ("1.26", "1.26.0", "1.25.3") by number;
// "1.26" counts as "1.26.0".
func goVersion(t *testing.T, v string) [3]int {
	var out [3]int
	for i, p := range strings.SplitN(v, ".", 3) {
		n, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("Go version %q: %v", v, err)
		}
		out[i] = n
	}
	return out
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// TestGoLineIsTheLowestPossible: go.mod's go line is the highest go line
// of the modules it builds with, no higher (the code itself compiles at
// that language version, or go vet fails), and the README's install line
// names it.
func TestGoLineIsTheLowestPossible(t *testing.T) {
	root := testenv.RepoRoot(t)
	out := run(t, root, []string{"GOFLAGS=-mod=mod"}, "go", "list", "-m", "-json", "all")
	dec := json.NewDecoder(strings.NewReader(out))
	var main string
	var need [3]int
	var needBy string
	for {
		var m struct {
			Path, GoVersion string
			Main            bool
		}
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if m.Main {
			main = m.GoVersion
			continue
		}
		if m.GoVersion != "" && less(need, goVersion(t, m.GoVersion)) {
			need, needBy = goVersion(t, m.GoVersion), m.Path
		}
	}
	if got := goVersion(t, main); got != need {
		t.Errorf("go.mod says go %s; the lowest its dependencies allow is %d.%d.%d (%s)", main, need[0], need[1], need[2], needBy)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Go (\d+\.\d+) or newer`).FindSubmatch(readme)
	if m == nil || !bytes.HasPrefix([]byte(main), append(m[1], '.')) && string(m[1]) != main {
		t.Errorf("the README's install line says %q; go.mod says go %s", m, main)
	}
}
