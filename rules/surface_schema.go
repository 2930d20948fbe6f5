package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// surfaceDef is the shape of one definition of the MCP schema that a
// server's results are made of: the members it requires and the type of
// each member it names. Types are spelled "string", "boolean", "integer",
// "integer>=0", "number[0,1]", "object", "enum:a|b", "[]T" (an array of T),
// or the name of another definition. Members a definition does not name
// are allowed, as the published schemas allow them.
type surfaceDef struct {
	required []string
	members  map[string]string
}

// surfaceDefs returns the definitions of protocol version v, as its
// schema.json publishes them (ListPromptsResult, Prompt, PromptArgument,
// ListResourcesResult, Resource, ListResourceTemplatesResult,
// ResourceTemplate, InitializeResult or DiscoverResult, Implementation,
// ServerCapabilities, Annotations, Icon, and a tool's ToolAnnotations and
// ToolExecution). The rules' test holds them to the official files.
func surfaceDefs(v string) map[string]surfaceDef {
	since := func(version string) bool { return lint.AtLeast(v, version) }
	meta := "object"
	defs := map[string]surfaceDef{
		"ListPromptsResult":           {[]string{"prompts"}, map[string]string{"_meta": meta, "nextCursor": "string", "prompts": "[]Prompt"}},
		"Prompt":                      {[]string{"name"}, map[string]string{"name": "string", "description": "string", "arguments": "[]PromptArgument"}},
		"PromptArgument":              {[]string{"name"}, map[string]string{"name": "string", "description": "string", "required": "boolean"}},
		"ListResourcesResult":         {[]string{"resources"}, map[string]string{"_meta": meta, "nextCursor": "string", "resources": "[]Resource"}},
		"Resource":                    {[]string{"name", "uri"}, map[string]string{"name": "string", "uri": "string", "description": "string", "mimeType": "string", "size": "integer", "annotations": "Annotations"}},
		"ListResourceTemplatesResult": {[]string{"resourceTemplates"}, map[string]string{"_meta": meta, "nextCursor": "string", "resourceTemplates": "[]ResourceTemplate"}},
		"ResourceTemplate":            {[]string{"name", "uriTemplate"}, map[string]string{"name": "string", "uriTemplate": "string", "description": "string", "mimeType": "string", "annotations": "Annotations"}},
		"InitializeResult":            {[]string{"capabilities", "protocolVersion", "serverInfo"}, map[string]string{"_meta": meta, "capabilities": "ServerCapabilities", "instructions": "string", "protocolVersion": "string", "serverInfo": "Implementation"}},
		"Implementation":              {[]string{"name", "version"}, map[string]string{"name": "string", "version": "string"}},
		"ServerCapabilities":          {nil, map[string]string{"experimental": "object", "logging": "object", "prompts": "PromptsCapability", "resources": "ResourcesCapability", "tools": "ToolsCapability"}},
		"PromptsCapability":           {nil, map[string]string{"listChanged": "boolean"}},
		"ResourcesCapability":         {nil, map[string]string{"listChanged": "boolean", "subscribe": "boolean"}},
		"ToolsCapability":             {nil, map[string]string{"listChanged": "boolean"}},
		// 2024-11-05 gives annotations as a plain object with these
		// members, later versions as the Annotations definition.
		"Annotations": {nil, map[string]string{"audience": "[]enum:assistant|user", "priority": "number[0,1]"}},
	}
	set := func(def, member, typ string) { defs[def].members[member] = typ }
	if since("2025-03-26") {
		set("ServerCapabilities", "completions", "object")
		// A tool's (tool-fields-valid reads the tool's own members).
		defs["ToolAnnotations"] = surfaceDef{nil, map[string]string{"title": "string", "readOnlyHint": "boolean", "destructiveHint": "boolean",
			"idempotentHint": "boolean", "openWorldHint": "boolean"}}
	}
	if since("2025-06-18") {
		for _, d := range []string{"Prompt", "PromptArgument", "Resource", "ResourceTemplate", "Implementation"} {
			set(d, "title", "string")
		}
		for _, d := range []string{"Prompt", "Resource", "ResourceTemplate"} {
			set(d, "_meta", "object")
		}
		set("Annotations", "lastModified", "string")
	}
	if since("2025-11-25") {
		for _, d := range []string{"Prompt", "Resource", "ResourceTemplate", "Implementation"} {
			set(d, "icons", "[]Icon")
		}
		set("Implementation", "description", "string")
		set("Implementation", "websiteUrl", "string")
		defs["Icon"] = surfaceDef{[]string{"src"}, map[string]string{"src": "string", "mimeType": "string", "sizes": "[]string", "theme": "enum:dark|light"}}
	}
	if v == "2025-11-25" {
		set("ServerCapabilities", "tasks", "object")
		defs["ToolExecution"] = surfaceDef{nil, map[string]string{"taskSupport": "enum:forbidden|optional|required"}}
	}
	if since("2026-07-28") {
		// Results are typed and cacheable; the handshake is
		// server/discover, which names the server in its _meta.
		delete(defs, "InitializeResult")
		defs["DiscoverResult"] = surfaceDef{[]string{"cacheScope", "capabilities", "resultType", "supportedVersions", "ttlMs"}, map[string]string{
			"_meta": "ResultMetaObject", "capabilities": "ServerCapabilities", "instructions": "string", "supportedVersions": "[]string"}}
		defs["ResultMetaObject"] = surfaceDef{nil, map[string]string{"io.modelcontextprotocol/serverInfo": "Implementation"}}
		for _, d := range []string{"ListPromptsResult", "ListResourcesResult", "ListResourceTemplatesResult", "DiscoverResult"} {
			def := defs[d]
			def.required = append(def.required, "cacheScope", "resultType", "ttlMs")
			defs[d] = surfaceDef{def.required, def.members}
			set(d, "_meta", "ResultMetaObject")
			set(d, "cacheScope", "enum:private|public")
			set(d, "resultType", "string")
			set(d, "ttlMs", "integer>=0")
		}
		set("ServerCapabilities", "extensions", "object")
	}
	for name, d := range defs {
		slices.Sort(d.required)
		d.required = slices.Compact(d.required)
		defs[name] = d
	}
	return defs
}

// resultDefinition names the definition of a method's result.
func resultDefinition(method string) string {
	switch method {
	case manifest.MethodPrompts:
		return "ListPromptsResult"
	case manifest.MethodResources:
		return "ListResourcesResult"
	case manifest.MethodTemplates:
		return "ListResourceTemplatesResult"
	case manifest.MethodInitialize:
		return "InitializeResult"
	case manifest.MethodDiscover:
		return "DiscoverResult"
	}
	return ""
}

// surfaceProblem is a value that breaks its definition, at a pointer
// relative to the result.
type surfaceProblem struct {
	ptr, msg string
}

// checkDef validates v against type typ of defs, appending what is wrong.
// what names v for messages ("prompts[2]", "the result").
func checkDef(defs map[string]surfaceDef, v any, typ, ptr, what string, out *[]surfaceProblem) {
	bad := func(want string) {
		*out = append(*out, surfaceProblem{ptr, fmt.Sprintf("%s is %s, not %s", what, describeValue(v), want)})
	}
	switch {
	case strings.HasPrefix(typ, "[]"):
		list, ok := v.([]any)
		if !ok {
			bad("an array")
			return
		}
		for i, e := range list {
			checkDef(defs, e, typ[2:], ptr+"/"+strconv.Itoa(i), fmt.Sprintf("%s[%d]", what, i), out)
		}
	case strings.HasPrefix(typ, "enum:"):
		s, ok := v.(string)
		allowed := strings.Split(typ[5:], "|")
		if !ok || !slices.Contains(allowed, s) {
			bad(`one of "` + strings.Join(allowed, `", "`) + `"`)
		}
	case typ == "string":
		if _, ok := v.(string); !ok {
			bad("a string")
		}
	case typ == "boolean":
		if _, ok := v.(bool); !ok {
			bad("a boolean")
		}
	case typ == "object":
		if _, ok := v.(map[string]any); !ok {
			bad("an object")
		}
	case typ == "integer", typ == "integer>=0":
		_, isNumber := v.(json.Number)
		f, ok := schema.Number(v)
		if !isNumber || !ok || f != float64(int64(f)) {
			bad("an integer")
		} else if typ == "integer>=0" && f < 0 {
			bad("a non-negative integer")
		}
	case typ == "number[0,1]":
		f, ok := schema.Number(v)
		if _, isNum := v.(json.Number); !isNum || !ok || f < 0 || f > 1 {
			bad("a number from 0 to 1")
		}
	default:
		def, known := defs[typ]
		if !known {
			return
		}
		obj, ok := v.(map[string]any)
		if !ok {
			bad("an object")
			return
		}
		for _, k := range def.required {
			if _, ok := obj[k]; !ok {
				*out = append(*out, surfaceProblem{ptr, fmt.Sprintf("%s has no %q, which %s requires", what, k, typ)})
			}
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if mt, named := def.members[k]; named {
				checkDef(defs, obj[k], mt, ptr+"/"+pointer.Escape(k), memberLabel(what, k), out)
			}
		}
	}
}

func memberLabel(what, k string) string {
	if what == "the result" {
		return k
	}
	return what + "." + k
}

// describeValue names a JSON value's kind for messages.
func describeValue(v any) string {
	switch t := v.(type) {
	case string:
		return "a string " + clipQuote(t)
	case json.Number:
		return "the number " + t.String()
	case nil:
		return "null"
	case map[string]any, []any:
		return "an " + schema.Kind(v)
	}
	return "a " + schema.Kind(v)
}

func clipQuote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
}
