package rules

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

// surfaceSamples are results with every member their definitions name, so
// that mutating each member tries every part of a definition.
func surfaceSamples(version string) map[string]string {
	icon := `{"src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark"}`
	cacheable := ""
	if lint.AtLeast(version, "2026-07-28") {
		cacheable = `, "resultType": "complete", "ttlMs": 0, "cacheScope": "public"`
	}
	annotations := `{"audience": ["user", "assistant"], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z"}`
	caps := `{"prompts": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": false}, "tools": {"listChanged": true},
		"logging": {}, "completions": {}, "experimental": {}, "tasks": {}, "extensions": {}}`
	impl := `{"name": "s", "version": "1.0.0", "title": "S", "description": "d", "websiteUrl": "https://example.com", "icons": [` + icon + `]}`
	out := map[string]string{
		"ListPromptsResult": `{"prompts": [{"name": "p", "title": "P", "description": "d", "_meta": {}, "icons": [` + icon + `],
			"arguments": [{"name": "a", "title": "A", "description": "d", "required": true}]}], "nextCursor": "c", "_meta": {}` + cacheable + `}`,
		"ListResourcesResult": `{"resources": [{"uri": "file:///a.txt", "name": "a", "title": "A", "description": "d", "mimeType": "text/plain",
			"size": 3, "annotations": ` + annotations + `, "icons": [` + icon + `], "_meta": {}}], "nextCursor": "c", "_meta": {}` + cacheable + `}`,
		"ListResourceTemplatesResult": `{"resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "t", "title": "T", "description": "d",
			"mimeType": "text/plain", "annotations": ` + annotations + `, "icons": [` + icon + `], "_meta": {}}], "nextCursor": "c", "_meta": {}` + cacheable + `}`,
	}
	if lint.AtLeast(version, "2025-03-26") {
		out["ToolAnnotations"] = `{"title": "T", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}`
	}
	if version == "2025-11-25" {
		out["ToolExecution"] = `{"taskSupport": "optional"}`
	}
	if lint.AtLeast(version, "2026-07-28") {
		out["DiscoverResult"] = `{"supportedVersions": ["2026-07-28"], "capabilities": ` + caps + `, "instructions": "i",
			"_meta": {"io.modelcontextprotocol/serverInfo": ` + impl + `}` + cacheable + `}`
	} else {
		out["InitializeResult"] = `{"protocolVersion": "` + version + `", "capabilities": ` + caps + `, "serverInfo": ` + impl + `, "instructions": "i", "_meta": {}}`
	}
	return out
}

// replacements are the values each member is replaced with in turn. The
// string is a valid URI and URI template, so that no "format" decides.
var replacements = []string{`"file:///x"`, `5`, `1.5`, `-1`, `2`, `true`, `null`, `{}`, `[]`}

// mutations returns doc with each member and element removed, then
// replaced by each replacement.
func mutations(doc any) []any {
	var out []any
	var walk func(v any, set func(any), del func())
	walk = func(v any, set func(any), del func()) {
		if del != nil {
			del()
			out = append(out, schema.Clone(doc))
		}
		for _, r := range replacements {
			if set != nil {
				rv, _ := testenv.ParseJSON(r)
				set(rv)
				out = append(out, schema.Clone(doc))
			}
		}
		if set != nil {
			set(v)
		}
		switch t := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				child := t[k]
				walk(child, func(x any) { t[k] = x }, func() { delete(t, k); defer func() { t[k] = child }(); out = append(out, schema.Clone(doc)) })
			}
		case []any:
			for i := range t {
				walk(t[i], func(x any) { t[i] = x }, nil)
			}
		}
	}
	walk(doc, nil, nil)
	return out
}

// TestSurfaceDefsMatchSpec holds surface-result-valid's definitions to the
// official schemas: for every version, every sample result and every
// mutation of it, the rule finds a problem exactly when the official
// definition refuses the result.
func TestSurfaceDefsMatchSpec(t *testing.T) {
	checked := 0
	for _, version := range lint.Protocols {
		defs := surfaceDefs(version)
		for def, src := range surfaceSamples(version) {
			official := testenv.SpecDefinition(t, version, def)
			doc := testenv.JSON(t, src)
			for i, m := range append([]any{schema.Clone(doc)}, mutations(doc)...) {
				b, _ := json.Marshal(m)
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				specErr := official.Validate(inst)
				var problems []surfaceProblem
				checkDef(defs, m, def, "", "the result", &problems)
				if (specErr == nil) != (len(problems) == 0) {
					t.Errorf("%s %s, mutation %d: %s\n  official: %v\n  mcplint: %v", version, def, i, b, specErr, problems)
				}
				if i == 0 && specErr != nil {
					t.Fatalf("%s %s: the sample itself is invalid: %v", version, def, specErr)
				}
				checked++
			}
		}
	}
	t.Logf("%d results judged alike by mcplint and the official schemas", checked)
}
