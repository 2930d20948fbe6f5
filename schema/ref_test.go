package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
)

func TestClassifyRef(t *testing.T) {
	tests := []struct {
		ref, rootID string
		want        RefKind
	}{
		{"#/$defs/a", "", RefLocal},
		{"#anchor", "", RefLocal},
		{"", "", RefLocal},
		{"https://example.com/s.json", "", RefRemote},
		{"urn:example:thing", "", RefRemote},
		{"other.json#/a", "", RefRelative},
		{"//example.com/s.json", "", RefRelative},
		{"https://example.com/tool.json#/$defs/a", "https://example.com/tool.json", RefLocal},
		{"tool.json#/$defs/a", "https://example.com/tool.json", RefLocal},
		{"other.json", "https://example.com/tool.json", RefRelative},
		{"https://example.com/tool.json/", "https://example.com/tool.json", RefRemote},
		{"%zz", "", RefInvalid},
	}
	for _, tt := range tests {
		if got := ClassifyRef(tt.ref, tt.rootID); got != tt.want {
			t.Errorf("ClassifyRef(%q, %q) = %d, want %d", tt.ref, tt.rootID, got, tt.want)
		}
	}
}

func TestResolverResolve(t *testing.T) {
	root := testenv.JSON(t, `{
		"$defs": {
			"a": {"type": "string"},
			"a b": {"type": "integer"},
			"slash/tilde~": {"type": "boolean"},
			"anchored": {"$anchor": "named", "type": "null"},
			"dyn": {"$dynamicAnchor": "node"},
			"legacy": {"$id": "#old"},
			"embedded": {
				"$id": "https://example.com/item.json",
				"$defs": {"inner": {"type": "number"}},
				"properties": {"x": {"$ref": "#/$defs/inner"}, "y": {"$ref": "#here"}},
				"$anchor": "here"
			}
		},
		"properties": {"list": {"items": [{"type": "string"}]}}
	}`)
	r := NewResolver(root)
	tests := []struct {
		from, ref string
		want      Ref
	}{
		{"", "#/$defs/a", Ref{Kind: RefLocal, Pointer: "/$defs/a", Found: true}},
		{"", "#", Ref{Kind: RefLocal, Pointer: "", Found: true}},
		{"", "", Ref{Kind: RefLocal, Pointer: "", Found: true}},
		{"", "#/$defs/a%20b", Ref{Kind: RefLocal, Pointer: "/$defs/a b", Found: true}},
		{"", "#/$defs/slash~1tilde~0", Ref{Kind: RefLocal, Pointer: "/$defs/slash~1tilde~0", Found: true}},
		{"", "#/$defs/missing", Ref{Kind: RefLocal, Pointer: "/$defs/missing"}},
		{"", "#named", Ref{Kind: RefLocal, Pointer: "/$defs/anchored", Found: true, Anchor: "named"}},
		{"", "#node", Ref{Kind: RefLocal, Pointer: "/$defs/dyn", Found: true, Anchor: "node"}},
		{"", "#old", Ref{Kind: RefLocal, Pointer: "/$defs/legacy", Found: true, Anchor: "old"}},
		{"", "#nowhere", Ref{Kind: RefLocal, Anchor: "nowhere"}},
		{"", "#/properties/list/items/0", Ref{Kind: RefLocal, Pointer: "/properties/list/items/0", Found: true}},
		{"", "#/properties/list/items/01", Ref{Kind: RefLocal, Pointer: "/properties/list/items/01"}},
		// Inside the embedded resource, fragments are relative to it.
		{"/$defs/embedded/properties/x", "#/$defs/inner", Ref{Kind: RefLocal, Pointer: "/$defs/embedded/$defs/inner", Found: true}},
		{"/$defs/embedded/properties/y", "#here", Ref{Kind: RefLocal, Pointer: "/$defs/embedded", Found: true, Anchor: "here"}},
		// The embedded resource is reachable by its $id from anywhere.
		{"", "https://example.com/item.json#/$defs/inner", Ref{Kind: RefLocal, Pointer: "/$defs/embedded/$defs/inner", Found: true}},
		// A relative reference inside it resolves against its $id.
		{"/$defs/embedded/properties/x", "other.json", Ref{Kind: RefRelative, URI: "https://example.com/other.json", Network: true}},
		{"", "https://example.com/s.json", Ref{Kind: RefRemote, URI: "https://example.com/s.json", Network: true}},
		{"", "urn:example:s", Ref{Kind: RefRemote, URI: "urn:example:s"}},
		{"", "other.json#/a", Ref{Kind: RefRelative, URI: "other.json#/a"}},
		{"", "//example.com/s.json", Ref{Kind: RefRelative, URI: "//example.com/s.json", Network: true}},
		{"", "%zz", Ref{Kind: RefInvalid}},
	}
	for _, tt := range tests {
		got := r.Resolve(tt.from, tt.ref)
		got.Target = nil
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Resolve(%q, %q) (-want +got):\n%s", tt.from, tt.ref, diff)
		}
	}
}

func TestResolverRootID(t *testing.T) {
	root := testenv.JSON(t, `{"$id": "https://example.com/tools/run.json", "$defs": {"a": {}}}`)
	r := NewResolver(root)
	for _, ref := range []string{"run.json#/$defs/a", "https://example.com/tools/run.json#/$defs/a", "#/$defs/a"} {
		if got := r.Resolve("", ref); !got.Found || got.Pointer != "/$defs/a" {
			t.Errorf("Resolve(%q) = %+v, want /$defs/a", ref, got)
		}
	}
	if got := r.Resolve("", "./other.json"); got.Kind != RefRelative || !got.Network || got.URI != "https://example.com/tools/other.json" {
		t.Errorf("relative reference under an http $id: got %+v", got)
	}
}

func TestResolverDraft7IgnoresIDBesideRef(t *testing.T) {
	// In draft-07 keywords beside $ref are ignored, $id included, so the
	// reference below resolves against the root, not against the $id.
	root := testenv.JSON(t, `{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"definitions": {"a": {"type": "string"}},
		"properties": {"p": {"$id": "https://example.com/p.json", "$ref": "#/definitions/a"}}
	}`)
	got := NewResolver(root).Resolve("/properties/p", "#/definitions/a")
	if !got.Found || got.Pointer != "/definitions/a" {
		t.Errorf("got %+v, want /definitions/a", got)
	}
}

func TestResolve(t *testing.T) {
	root := testenv.JSON(t, `{"$defs": {"a": {"type": "string"}}, "properties": {"b": {"$anchor": "bee"}}}`)
	if got, ok := Resolve(root, "#/$defs/a"); !ok || !cmp.Equal(got, map[string]any{"type": "string"}) {
		t.Errorf("Resolve #/$defs/a = %v, %v", got, ok)
	}
	if _, ok := Resolve(root, "#bee"); !ok {
		t.Error("Resolve #bee: not found")
	}
	if _, ok := Resolve(root, "https://example.com/x"); ok {
		t.Error("Resolve of a remote reference succeeded")
	}
}
