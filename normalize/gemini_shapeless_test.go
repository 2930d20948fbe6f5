package normalize

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

func TestGeminiDropShapeless(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
		// dropped are the pointers left out, in order.
		dropped []string
	}{
		{
			name:    "optional free-form map, array without items and untyped value are left out",
			in:      `{"type": "object", "properties": {"q": {"type": "string"}, "headers": {"type": "object"}, "tags": {"type": "array"}, "value": {"description": "anything"}}, "required": ["q"], "propertyOrdering": ["q", "headers", "tags", "value"]}`,
			want:    `{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "propertyOrdering": ["q"]}`,
			dropped: []string{"/properties/headers", "/properties/tags", "/properties/value"},
		},
		{
			name: "required ones stay, for the caller to report",
			in:   `{"type": "object", "properties": {"query": {"type": "object"}, "texts": {"type": "array"}}, "required": ["query", "texts"]}`,
			want: `{"type": "object", "properties": {"query": {"type": "object"}, "texts": {"type": "array"}}, "required": ["query", "texts"]}`,
		},
		{
			name:    "the nearest optional property above a required one goes",
			in:      `{"type": "object", "properties": {"opts": {"type": "object", "properties": {"meta": {"type": "object"}, "n": {"type": "integer"}}, "required": ["meta"]}}}`,
			want:    `{"type": "object", "properties": {}}`,
			dropped: []string{"/properties/opts"},
		},
		{
			name:    "an object emptied by a drop goes in turn",
			in:      `{"type": "object", "properties": {"a": {"type": "string"}, "opts": {"type": "object", "properties": {"meta": {"type": "object"}}}}, "required": ["a"]}`,
			want:    `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			dropped: []string{"/properties/opts/properties/meta", "/properties/opts"},
		},
		{
			name:    "an anyOf branch goes while another remains",
			in:      `{"type": "object", "properties": {"v": {"anyOf": [{"type": "object"}, {"type": "string"}]}}, "required": ["v"]}`,
			want:    `{"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}]}}, "required": ["v"]}`,
			dropped: []string{"/properties/v/anyOf/0"},
		},
		{
			name:    "through items",
			in:      `{"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "object", "properties": {"cells": {"type": "array"}}, "required": ["cells"]}}}}`,
			want:    `{"type": "object", "properties": {}}`,
			dropped: []string{"/properties/rows"},
		},
		{
			name:    "names with slashes and tildes",
			in:      `{"type": "object", "properties": {"a/b~c": {"type": "object"}}}`,
			want:    `{"type": "object", "properties": {}}`,
			dropped: []string{"/properties/a~1b~0c"},
		},
		{
			name: "typed and combined schemas stay",
			in:   `{"type": "object", "properties": {"e": {"enum": ["x"]}, "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "o": {"type": "object", "properties": {"k": {"type": "string"}}}}}`,
			want: `{"type": "object", "properties": {"e": {"enum": ["x"]}, "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "o": {"type": "object", "properties": {"k": {"type": "string"}}}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got, losses := GeminiDropShapeless(in)
			if d := cmp.Diff(testenv.JSON(t, tt.want), got); d != "" {
				t.Errorf("schema (-want +got):\n%s", d)
			}
			var dropped []string
			for _, l := range losses {
				dropped = append(dropped, l.Pointer)
				if !strings.Contains(l.What, "left out") {
					t.Errorf("loss %q does not say what is left out", l.What)
				}
			}
			if d := cmp.Diff(tt.dropped, dropped); d != "" {
				t.Errorf("dropped (-want +got):\n%s", d)
			}
			if d := cmp.Diff(before, in); d != "" {
				t.Errorf("modified its input:\n%s", d)
			}
			again, more := GeminiDropShapeless(got)
			if d := cmp.Diff(got, again); d != "" || len(more) > 0 {
				t.Errorf("not idempotent: %s %v", d, more)
			}
		})
	}
}
