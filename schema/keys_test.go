package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSortedKeys(t *testing.T) {
	obj := map[string]any{
		"zeta": 1, "alpha": 1, "required": 1, "type": 1, "properties": 1, "$schema": 1,
		"description": 1, "name": 1, "x-mcp-header": 1, "$defs": 1, "items": 1, "": 1,
	}
	want := []string{"name", "description", "$schema", "type", "items", "properties", "required", "x-mcp-header", "$defs", "", "alpha", "zeta"}
	if diff := cmp.Diff(want, SortedKeys(obj)); diff != "" {
		t.Errorf("SortedKeys (-want +got):\n%s", diff)
	}
	keys := []string{"zeta", "items", "", "name", "required", "alpha"}
	SortKeywords(keys)
	if diff := cmp.Diff([]string{"name", "items", "required", "", "alpha", "zeta"}, keys); diff != "" {
		t.Errorf("SortKeywords (-want +got):\n%s", diff)
	}
	if got := SortedKeys(map[string]any{}); len(got) != 0 {
		t.Errorf("SortedKeys of an empty object = %v", got)
	}
	if got := SortedKeys(map[string]any{"b": 1}); len(got) != 1 || got[0] != "b" {
		t.Errorf("SortedKeys of one key = %v", got)
	}
}
