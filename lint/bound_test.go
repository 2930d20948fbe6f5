package lint_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TestMessagesBounded: whichever way a rule reports (a tool's pass, with a
// fix or a message made later, a list pass, eagerly or lazily, a surface
// pass, or Add), a message that quotes a long string of the manifest is
// cut to MaxMessage, its start and end kept, and a short one is not
// touched.
func TestMessagesBounded(t *testing.T) {
	long := strings.Repeat("n", 100<<10)
	msg := func(kind string) string { return "start " + kind + " " + long + " end" }
	fix := func() *lint.Fix { return &lint.Fix{Message: "rename " + long + " fix-end", Safe: true} }
	tool := &lint.Rule{ID: "tool", Severity: lint.Warning, Check: func(p *lint.Pass) {
		p.Reportf("/name", "%s", msg("reportf"))
		p.ReportFix("/name", fix(), "%s", msg("reportfix"))
		p.Report(lint.Diagnostic{RelPointer: "/name", Complete: func() (string, *lint.Fix) { return msg("complete"), fix() }})
		p.Reportf("/name", "short")
	}}
	list := &lint.Rule{ID: "list", Severity: lint.Warning, CheckList: func(p *lint.ListPass) {
		for _, tl := range p.Manifest.Tools {
			p.Reportf(tl, "/name", "%s", msg("list"))
			p.ReportFunc(tl, func() lint.Diagnostic { return lint.Diagnostic{RelPointer: "/name", Message: msg("listfunc")} })
		}
	}}
	surface := &lint.Rule{ID: "surface", Severity: lint.Warning, CheckSurface: func(p *lint.SurfacePass) {
		for _, e := range p.Entries() {
			p.Reportf(e, "/name", "%s", msg("surface"))
		}
	}}
	src := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t"}]}}
{"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"p"}]}}
`
	m, err := manifest.Load("s.ndjson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	live := &lint.Rule{ID: "live", Severity: lint.Warning}
	l := newLinter(t, []*lint.Rule{tool, list, surface, live}, lint.Config{FixEdits: true})
	ds, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	ds = l.Add(ds, lint.Diagnostic{Rule: "live", File: "s.ndjson", ToolIndex: -1, Message: msg("add")})
	kinds := map[string]bool{}
	for _, d := range ds {
		if d.Message == "short" {
			kinds["short"] = true
			continue
		}
		kind, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "start "), " ")
		kinds[kind] = true
		if len(d.Message) > lint.MaxMessage+64 || !strings.HasSuffix(d.Message, " end") || !strings.Contains(d.Message, " bytes left out]") {
			t.Errorf("%s: a message of %d bytes, ending %q", kind, len(d.Message), d.Message[max(0, len(d.Message)-40):])
		}
		if f := d.Fix; f != nil && (len(f.Message) > lint.MaxMessage+64 || !strings.HasSuffix(f.Message, "fix-end")) {
			t.Errorf("%s: a fix message of %d bytes", kind, len(f.Message))
		}
	}
	for _, k := range []string{"reportf", "reportfix", "complete", "short", "list", "listfunc", "surface", "add"} {
		if !kinds[k] {
			t.Errorf("no finding of %s among %d", k, len(ds))
		}
	}
}

// TestMaxFindingsCountsBytes: MaxFindings bounds what the findings hold,
// not only how many there are: fifty findings under a 100 KB key count as
// thousands, and stop a run bounded at a hundred, while fifty under a
// short key do not; the pointers the findings keep are exact.
func TestMaxFindingsCountsBytes(t *testing.T) {
	for _, c := range []struct {
		key     string
		tooMany bool
	}{{"short", false}, {strings.Repeat("k", 100<<10), true}} {
		base := "/inputSchema/properties/" + c.key + "/properties/p"
		rule := &lint.Rule{ID: "sub", Severity: lint.Warning, Check: func(p *lint.Pass) {
			for i := range 50 {
				p.Reportf(base+strconv.Itoa(i), "sub-property %d", i)
			}
		}}
		src := `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"` + c.key + `":{"type":"object","properties":{"p0":{}}}}}}]}`
		m := load(t, src)
		l := newLinter(t, []*lint.Rule{rule}, lint.Config{MaxFindings: 100})
		ds, err := l.Lint(m)
		var fe *lint.FindingsError
		if got := errors.As(err, &fe); got != c.tooMany {
			t.Errorf("key of %d bytes: %d findings, error %v; want a FindingsError: %v", len(c.key), len(ds), err, c.tooMany)
		}
		for _, d := range ds {
			if !strings.HasPrefix(d.RelPointer, base) || d.Pointer != "/tools/0"+d.RelPointer {
				t.Errorf("pointer %.40q, relative %.40q", d.Pointer, d.RelPointer)
			}
		}
		if !c.tooMany && len(ds) != 50 {
			t.Errorf("%d findings, want 50", len(ds))
		}
	}
}
