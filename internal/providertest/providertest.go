// Package providertest judges converted schemas by what the model
// providers' APIs refuse, for the tests of everything that writes a schema
// for a provider: convert's documents, the adapted tools of the proxy.
package providertest

import (
	"strings"

	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// Refused lists what target's documented rules refuse in a converted
// input schema s: the checks the transforms in package normalize exist to
// pass. Targets are convert's ("mcp", "anthropic", "openai",
// "openai-strict", "openai-responses-strict", "gemini",
// "gemini-json-schema", ...): the root checks hold for every target but
// mcp and Gemini's, the keyword checks for gemini and the strict ones.
func Refused(target string, s any) []string {
	var out []string
	root, _ := s.(map[string]any)
	if target != "mcp" && target != "gemini" && target != "gemini-json-schema" {
		if root["type"] != "object" {
			out = append(out, "root type is not object")
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "enum"} {
			if _, ok := root[k]; ok && !(target == "anthropic" && (k == "not" || k == "enum")) {
				out = append(out, "root "+k)
			}
		}
	}
	schema.Walk(s, "", func(node *schema.Node) bool {
		n, ptr := node.Value, node.Pointer()
		switch target {
		case "gemini":
			for k := range n {
				if !normalize.GeminiSupports(k) {
					out = append(out, ptr+": keyword "+k)
				}
			}
		case "openai-strict", "openai-responses-strict":
			if schema.HasType(n, "object") {
				if n["additionalProperties"] != false {
					out = append(out, ptr+": object not closed")
				}
				if missing := normalize.MissingRequired(n); len(missing) > 0 {
					out = append(out, ptr+": not required: "+strings.Join(missing, ", "))
				}
			}
		}
		return true
	})
	return out
}
