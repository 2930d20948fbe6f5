package convert

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/schema"
)

// TestAdaptPassesProviderChecks: what an Adapter makes for gemini and
// openai-strict passes the checks the golden conversions are held to
// (refused), its input schemas compile, and the client's rules refuse
// nothing in it; names are the client's and unique; output schemas are
// left as they were.
func TestAdaptPassesProviderChecks(t *testing.T) {
	tools := loadTools(t, "testdata/tools.json")
	for _, client := range append([]string{""}, Clients...) {
		t.Run(client, func(t *testing.T) {
			a, err := NewAdapter(client)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := a.Adapt(tools)
			var sources, adapted []Tool
			seen := map[string]bool{}
			for i, ad := range out {
				if ad.Err != nil {
					t.Fatalf("tool %d: %v", i, ad.Err)
				}
				if seen[ad.Name] || !a.names.p.valid(ad.Name) {
					t.Errorf("tool %d: name %q is a duplicate or one %s refuses", i, ad.Name, client)
				}
				seen[ad.Name] = true
				if _, err := schema.Compile(ad.InputSchema); err != nil {
					t.Errorf("tool %q: the adapted input schema does not compile: %v", ad.Name, err)
				}
				if !schema.Equal(ad.OutputSchema, tools[i].OutputSchema) {
					t.Errorf("tool %q: output schema changed", ad.Name)
				}
				check := map[string]string{"gemini": "gemini", "openai-strict": "openai-strict"}[client]
				if check != "" {
					for _, p := range refused(check, ad.InputSchema) {
						t.Errorf("tool %q: %s would refuse the schema: %s", ad.Name, client, p)
					}
				}
				sources, adapted = append(sources, tools[i]), append(adapted, ad.Tool)
			}
			refusals, err := a.Refusals(sources, adapted)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range refusals {
				if client == "gemini" && strings.Contains(w.Message, "should be non-empty for OBJECT") {
					continue // a tool without arguments: Gemini takes it without parameters
				}
				t.Errorf("still refused: %s", w)
			}
		})
	}
}

// TestAdaptRenamesAndMarksChanges: a name the client refuses is renamed,
// a tool whose schema the transform leaves alone is not marked changed,
// and a schema without an object root gets one.
func TestAdaptRenamesAndMarksChanges(t *testing.T) {
	a, err := NewAdapter("openai")
	if err != nil {
		t.Fatal(err)
	}
	plain := decodeTool(t, "plain", `{"type": "object", "properties": {"q": {"type": "string"}}}`)
	dotted := decodeTool(t, "a.b", `{"type": "object", "properties": {"q": {"type": "string"}}}`)
	dotted.Index = 1
	rooted := Tool{Name: "bare", Index: 2}
	out, warns := a.Adapt([]Tool{plain, dotted, rooted})
	if out[0].Renamed || out[0].SchemaChanged || out[0].Name != "plain" {
		t.Errorf("plain: %+v", out[0])
	}
	if !out[1].Renamed || out[1].Name != "a_b" || out[1].SchemaChanged {
		t.Errorf("dotted: %+v", out[1])
	}
	if !out[2].SchemaChanged || out[2].InputSchema["type"] != "object" {
		t.Errorf("bare: %+v", out[2])
	}
	if len(warns) != 1 || warns[0].Pointer != "/name" || warns[0].Index != 1 {
		t.Errorf("warnings %v", warns)
	}
	none := decodeTool(t, "never", `{"type": "string"}`)
	if out, _ := a.Adapt([]Tool{none}); out[0].Err == nil {
		t.Error("a schema that admits no object was adapted")
	}
	if _, err := NewAdapter("netscape"); err == nil {
		t.Error("an unknown client was accepted")
	}
}

// TestRenamerStable: over pages and listings, a tool keeps the name it
// was given, a new tool never takes a name given to another, and a valid
// name that a rename took is renamed in its turn.
func TestRenamerStable(t *testing.T) {
	r := newRenamer(openaiNames)
	got, _ := r.Names([]string{"files.read", "x", "x"})
	want := []string{"files_read", "x", "x_2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("first page (-want +got):\n%s", diff)
	}
	// The next page has a valid name that a rename already took.
	got, why := r.Names([]string{"files_read", "y"})
	if diff := cmp.Diff([]string{"files_read_2", "y"}, got); diff != "" {
		t.Errorf("second page (-want +got):\n%s", diff)
	}
	if why[0] != "another tool has that name" || why[1] != "" {
		t.Errorf("why %q", why)
	}
	// Listed again, in another order, with a new tool: the same names.
	r.Restart()
	got, _ = r.Names([]string{"y", "files_read", "new.tool", "x", "files.read", "x"})
	if diff := cmp.Diff([]string{"y", "files_read_2", "new_tool", "x", "files_read", "x_2"}, got); diff != "" {
		t.Errorf("listed again (-want +got):\n%s", diff)
	}
}

// TestMCPToolJSON: one line, members kept, properties in source order.
func TestMCPToolJSON(t *testing.T) {
	tools := loadTools(t, "testdata/tools.json")
	b, err := MCPToolJSON(tools[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(string(b), "\n\r") {
		t.Errorf("not one line: %s", b)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"} {
		if _, ok := v[k]; !ok {
			t.Errorf("%q lost: %s", k, b)
		}
	}
	if q, l := strings.Index(string(b), `"query"`), strings.Index(string(b), `"limit"`); q < 0 || l < q {
		t.Errorf("properties out of source order: %s", b)
	}
}
