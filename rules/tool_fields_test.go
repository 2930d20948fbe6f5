package rules

import (
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/lint"
)

// TestToolFieldsConsumersByID: where no version checked defines a member,
// the finding leaves out the specification by its ID, whatever order the
// rule declares its consumers in.
func TestToolFieldsConsumersByID(t *testing.T) {
	r := *ToolFieldsValid
	r.Consumers = slices.Clone(r.Consumers)
	slices.Reverse(r.Consumers)
	src := `{"tools": [{"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "true"}}]}`
	ds := linttest.Source(t, []*lint.Rule{&r}, lint.Config{Select: []string{r.ID}, Protocol: "2024-11-05"}, "t.json", []byte(src))
	if len(ds) != 1 {
		t.Fatalf("%d findings, want 1", len(ds))
	}
	var got []consumer.ID
	for _, c := range ds[0].Consumers {
		got = append(got, c.Consumer)
	}
	if !slices.Equal(got, []consumer.ID{consumer.TSSDK}) {
		t.Errorf("consumers %v, want only %s (2024-11-05 does not define annotations)", got, consumer.TSSDK)
	}
}
