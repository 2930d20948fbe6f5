package main

import (
	"bytes"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
)

// TestOneIsSingular checks the counts of check's summary of several
// servers, and of what a server publishes, at one of each.
func TestOneIsSingular(t *testing.T) {
	m, err := manifest.Load("tools.json", []byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := report.Counts(m); got != "1 tool, 0 prompts, 0 resources, 0 resource templates" {
		t.Errorf("report.Counts = %q", got)
	}
	var b bytes.Buffer
	one := []checked{{name: "s", listing: &live.Listing{Manifest: m}, diags: []lint.Diagnostic{
		{Rule: "r1", Severity: lint.Error}, {Rule: "r2", Severity: lint.Warning},
	}}}
	if err := writeManyText(&b, one, false, true, false); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "s: 1 tool, 0 prompts, 0 resources, 0 resource templates; 1 error, 1 warning\n" {
		t.Errorf("summary %q", got)
	}
}
