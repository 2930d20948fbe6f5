package mcplinttest

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
)

// failure words the findings for the author of the Go server: each names
// the tool (the Name of its mcp.Tool) and the property (the JSON name,
// which is the json tag of the input type's field), says who refuses it,
// and what to change in the Go code.
func failure(server string, diags []lint.Diagnostic) string {
	var b strings.Builder
	n := len(diags)
	fmt.Fprintf(&b, "mcplint found %d problem%s in the tools that server %q lists:\n", n, english.Plural(n, "", "s"), server)
	for i := range diags {
		d := &diags[i]
		b.WriteString("\n")
		fmt.Fprintf(&b, "%s: %s %s: %s\n", subject(d), d.Severity, d.Rule, d.Message)
		if note := d.ConsumerNote(); note != "" {
			fmt.Fprintf(&b, "    %s\n", note)
		}
		if d.Fix != nil && d.Fix.Message != "" {
			fmt.Fprintf(&b, "    the published schema needs: %s\n", d.Fix.Message)
		}
		fmt.Fprintf(&b, "    in Go: %s\n", goAdvice(d))
	}
	fmt.Fprintf(&b, "\n`mcplint rules RULE` explains a rule; mcplinttest.Ignore(RULE) accepts its findings.\n")
	return b.String()
}

// subject names what a finding is about as the Go code spells it.
func subject(d *lint.Diagnostic) string {
	if d.ToolIndex < 0 || d.Tool == "" && d.RelPointer == "" {
		return "the tool list"
	}
	s := fmt.Sprintf("tool %q", d.Tool)
	if where, prop := schemaPlace(d.RelPointer); prop != "" {
		s += fmt.Sprintf(", %s property %q (the field tagged json:%q)", where, prop, lastName(prop))
	}
	return s
}

// schemaPlace reads a tool-relative pointer into the schema it is in
// ("input" or "output") and the property's path, such as "filter.limit"
// or "tags[]", "" when it is not inside a property.
func schemaPlace(ptr string) (where, prop string) {
	parts := pointer.Split(ptr)
	if len(parts) == 0 {
		return "", ""
	}
	switch parts[0] {
	case "inputSchema":
		where = "input"
	case "outputSchema":
		where = "output"
	default:
		return "", ""
	}
	var path []string
	for i := 1; i < len(parts); i++ {
		switch parts[i] {
		case "properties":
			if i+1 < len(parts) {
				path = append(path, parts[i+1])
				i++
			}
		case "items":
			if len(path) > 0 {
				path[len(path)-1] += "[]"
			}
		}
	}
	return where, strings.Join(path, ".")
}

func lastName(prop string) string {
	if i := strings.LastIndex(prop, "."); i >= 0 {
		prop = prop[i+1:]
	}
	return strings.TrimSuffix(prop, "[]")
}

// goAdvice says where in a go-sdk server the finding is changed.
func goAdvice(d *lint.Diagnostic) string {
	where, prop := schemaPlace(d.RelPointer)
	switch {
	case d.Rule == "openai-object-properties" && d.RelPointer == "/inputSchema":
		return "the SDK publishes {\"type\": \"object\"} for a tool without arguments (an input type of struct{} or any); " +
			"set the tool's schema yourself, InputSchema: json.RawMessage(`{\"type\": \"object\", \"properties\": {}}`) in its mcp.Tool, " +
			"which mcp.AddTool publishes as written"
	case d.RelPointer == "/name":
		return "change the Name of the tool's mcp.Tool"
	case d.RelPointer == "/description" || d.RelPointer == "/title":
		return "change the " + fieldName(d.RelPointer) + " of the tool's mcp.Tool"
	case strings.HasPrefix(d.RelPointer, "/annotations"):
		return "change the Annotations (*mcp.ToolAnnotations) of the tool's mcp.Tool"
	case where != "" && prop != "" && strings.HasSuffix(d.RelPointer, "/description"):
		return fmt.Sprintf("the description comes from the field's jsonschema struct tag: `json:%q jsonschema:\"...\"`", lastName(prop))
	case where == "input":
		return "the SDK infers the input schema from the handler's input type: change the field's Go type or its jsonschema struct tag, " +
			"or set InputSchema in the tool's mcp.Tool (a *jsonschema.Schema, or json.RawMessage for exact bytes)"
	case where == "output":
		return "the SDK infers the output schema from the handler's output type: change the field's Go type or its jsonschema struct tag, " +
			"or set OutputSchema in the tool's mcp.Tool"
	}
	return "see `mcplint rules " + d.Rule + "`"
}

func fieldName(ptr string) string {
	s := strings.TrimPrefix(ptr, "/")
	return strings.ToUpper(s[:1]) + s[1:]
}
