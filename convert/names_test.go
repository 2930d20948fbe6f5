package convert

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRename(t *testing.T) {
	long := strings.Repeat("a", 70)
	tests := []struct {
		name   string
		policy namePolicy
		in     []string
		want   []string
		warned []int // indexes renamed
	}{
		{"valid names kept", openaiNames, []string{"a", "b-c", "D_9"}, []string{"a", "b-c", "D_9"}, nil},
		{"dots and slashes", openaiNames, []string{"files.read", "git/log"}, []string{"files_read", "git_log"}, []int{0, 1}},
		{"clash with a valid name", openaiNames, []string{"files.read", "files_read"}, []string{"files_read_2", "files_read"}, []int{0}},
		{"duplicates", anthropicNames, []string{"x", "x", "x"}, []string{"x", "x_2", "x_3"}, []int{1, 2}},
		{"empty name", openaiNames, []string{""}, []string{"tool"}, []int{0}},
		{"non-ASCII", openaiNames, []string{"héllo"}, []string{"h_llo"}, []int{0}},
		{"too long", openaiNames, []string{long}, []string{long[:64]}, []int{0}},
		{"too long, clashing", openaiNames, []string{long, long[:64]}, []string{long[:62] + "_2", long[:64]}, []int{0}},
		{"anthropic allows 128", anthropicNames, []string{long}, []string{long}, nil},
		{"gemini keeps dots and colons", geminiNames, []string{"files.read", "ns:tool"}, []string{"files.read", "ns:tool"}, nil},
		{"gemini first character", geminiNames, []string{"3d", "-x", "_ok"}, []string{"_3d", "_-x", "_ok"}, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools := make([]Tool, len(tt.in))
			for i, n := range tt.in {
				tools[i] = Tool{Name: n, Index: i}
			}
			got, warns := rename(tools, tt.policy)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			var warned []int
			for _, w := range warns {
				warned = append(warned, w.Index)
				if w.Pointer != "/name" || !strings.Contains(w.Message, "renamed to "+quote(got[w.Index])) {
					t.Errorf("warning %+v", w)
				}
			}
			if diff := cmp.Diff(tt.warned, warned); diff != "" {
				t.Errorf("renamed tools (-want +got):\n%s", diff)
			}
			seen := map[string]bool{}
			for _, n := range got {
				if seen[n] || !tt.policy.valid(n) {
					t.Errorf("name %q is a duplicate or invalid", n)
				}
				seen[n] = true
			}
		})
	}
}

func quote(s string) string { return `"` + s + `"` }

// TestWarningString: a warning names its tool quoted as Go quotes it (or by
// index when it has no name), then its pointer when it has one; a summary
// over several tools is its message alone.
func TestWarningString(t *testing.T) {
	for _, c := range []struct {
		w    Warning
		want string
	}{
		{Warning{Tool: "files.read", Index: 0, Pointer: "/name", Message: "renamed"}, `tool "files.read" /name: renamed`},
		{Warning{Tool: "a \"b\"\n", Index: 2, Message: "m"}, `tool "a \"b\"\n": m`},
		{Warning{Index: 7, Pointer: "/inputSchema", Message: "m"}, `tool 7 /inputSchema: m`},
		{Warning{Index: 7, Message: "m"}, `tool 7: m`},
		{Warning{Tool: "x", Index: 0, Pointer: "/title", Message: "dropped from 2 tools", Tools: []string{"x", "y"}}, `dropped from 2 tools`},
	} {
		if got := c.w.String(); got != c.want {
			t.Errorf("%+v: got %s, want %s", c.w, got, c.want)
		}
	}
}

// TestWarningStringBounded: a warning shows a long name, pointer or
// message with its middle left out, as the reports show a finding's: a
// 100 KB key in the pointer of every warning under it made megabytes.
func TestWarningStringBounded(t *testing.T) {
	long := strings.Repeat("k", 100<<10)
	w := Warning{Tool: long, Pointer: "/inputSchema/properties/" + long, Message: "dropped " + long}
	got := w.String()
	if len(got) > 8<<10 || strings.Count(got, "bytes left out") != 3 {
		t.Errorf("a warning of %d bytes: %.300s", len(got), got)
	}
	if !strings.HasPrefix(got, `tool "kkk`) || !strings.Contains(got, " /inputSchema/properties/kkk") || !strings.Contains(got, ": dropped kkk") {
		t.Errorf("the warning lost its shape: %.300s", got)
	}
}

// TestQuoteAsStrconv: quoteName is strconv.Quote, on the plain path and off it.
func TestQuoteAsStrconv(t *testing.T) {
	for _, s := range []string{"", "files.read", "a b~", `a"b`, `a\b`, "tab\t", "\x7f", "é", "\u2028", "\xff", "🙂"} {
		if got, want := quoteName(s), strconv.Quote(s); got != want {
			t.Errorf("quoteName(%q) = %s, want %s", s, got, want)
		}
	}
}
