package manifest

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// shapeReader is what shape recognition needs from a syntax, so that JSON
// and YAML sources are recognised by the same rules and refused with the same
// messages.
type shapeReader interface {
	// members reads the members of the object v.
	members(v member) (map[string]member, error)
	// tools reads the entries of the array v, at ptr, into the list l.
	tools(l *toolList, v member, ptr string) error
	// toolMembers reads the members of the object v as a tool's.
	toolMembers(v member) (map[string]member, error)
	// place locates the object v at ptr, whose members are mem, as a tool.
	place(doc int, ptr string, v member, mem map[string]member, s slot) (*Tool, error)
	// inner is the slot of a tool that is the member key of the entry v at
	// s.
	inner(v member, key string, s slot) slot
	// tool locates the object v, whose members are mem, as a single tool.
	tool(doc int, v member, mem map[string]member) (*Tool, error)
	// quoted spells v on one line for a message.
	quoted(v member) string
}

// objectShape recognises the shape of document doc, the object v with
// members mem, and locates its tools.
func (m *Manifest) objectShape(r shapeReader, doc int, v member, mem map[string]member) error {
	if res, ok := mem["result"]; ok && (mem["jsonrpc"].kind != 0 || mem["id"].kind != 0) {
		if res.kind != '{' {
			return m.errorAt(res.start, "JSON-RPC result is %s, not a tools/list result", aKind(res.kind))
		}
		rmem, err := r.members(res)
		if err != nil {
			return err
		}
		_, isJSON := r.(jsonShapes)
		tools, ok := rmem["tools"]
		if !ok || tools.kind != '[' {
			if method := resultMethodOf(rmem, mem["id"]); isJSON && method != "" && !ok {
				return m.setShape(doc, ShapeJSONRPC, m.readSurface(doc, method, res, rmem, "/result"))
			}
			return m.errorAt(res.start, "JSON-RPC result has no \"tools\" array: not a tools/list result")
		}
		if isJSON {
			m.Results = append(m.Results, &Entry{M: m, Kind: KindResult, Index: len(m.Results), Doc: doc, Pointer: "/result", Name: MethodTools, start: res.start, end: res.end})
		}
		return m.readList(r, doc, tools, "/result/tools", ShapeJSONRPC)
	}
	if e, ok := mem["error"]; ok && mem["jsonrpc"].kind != 0 {
		if _, isJSON := r.(jsonShapes); isJSON && m.refusal(doc, mem["id"], e) {
			return m.setShape(doc, ShapeJSONRPC, nil)
		}
		return m.errorAt(e.start, "the document is a JSON-RPC error response, not a tool list: %s", r.quoted(e))
	}
	if tools, ok := mem["tools"]; ok {
		if tools.kind != '[' {
			return m.errorAt(tools.start, "\"tools\" is %s, not an array", aKind(tools.kind))
		}
		if _, isJSON := r.(jsonShapes); isJSON {
			m.Results = append(m.Results, &Entry{M: m, Kind: KindResult, Index: len(m.Results), Doc: doc, Name: MethodTools, start: v.start, end: v.end})
		}
		return m.readList(r, doc, tools, "/tools", ShapeListResult)
	}
	if _, isJSON := r.(jsonShapes); isJSON {
		if method := resultMethod(mem); method != "" {
			return m.setShape(doc, ShapeListResult, m.readSurface(doc, method, v, mem, ""))
		}
	}
	if classify(mem).foreign() {
		return m.readSingle(r, doc, v)
	}
	if registryServerJSON(mem) {
		return m.errorAt(v.start, "%s", registryServerError)
	}
	if _, ok := mem["name"]; ok {
		t, err := r.tool(doc, v, mem)
		if err != nil {
			return err
		}
		shape := ShapeTool
		if t.SchemaKey == "schema" {
			shape = ShapePluginContract
		}
		return m.setShape(doc, shape, nil)
	}
	return m.errorAt(v.start, "document of no known shape (an object without \"tools\", \"result\" or \"name\"); %s", acceptedShapes)
}

// notManifest refuses a document that is neither an object nor an array.
func (m *Manifest) notManifest(off int, k jsontext.Kind) error {
	return m.errorAt(off, "%s is not a tool manifest; %s", aKind(k), acceptedShapes)
}

// finishStream accepts several documents only as pages of one tool list.
// joined qualifies how the syntax puts documents one after the other
// ("newline-delimited ").
func (m *Manifest) finishStream(f Format, joined string) error {
	if len(m.Docs) > 1 {
		if m.Shape != ShapeJSONRPC && m.Shape != ShapeListResult {
			return m.errorAt(m.Docs[1], "several %s documents: only %stools/list results or JSON-RPC responses can be concatenated", strings.ToUpper(f.String()), joined)
		}
		m.Shape = ShapeStream
	}
	return nil
}

// duplicateKey is the message for a key written twice in one object.
func duplicateKey(f Format, key string) string {
	return fmt.Sprintf("duplicate key %q (%s parsers disagree on which value wins; keep one)", key, strings.ToUpper(f.String()))
}

// jsonShapes reads a JSON document for shape recognition.
type jsonShapes struct{ m *Manifest }

// members reads the members of an object whose bytes the loader has
// validated, in place and without checking them again.
func (r jsonShapes) members(v member) (map[string]member, error) {
	if mem := r.m.pre.object(v.start); mem != nil {
		return mem, nil
	}
	rd := rereader(r.m.Src[v.start:v.end])
	defer rd.release()
	return r.m.readMembers(rd.Decoder, v.start)
}

func (r jsonShapes) tools(l *toolList, v member, ptr string) error {
	return r.m.collectTools(l, v.start, v.end, ptr)
}

func (r jsonShapes) toolMembers(v member) (map[string]member, error) { return r.members(v) }

func (r jsonShapes) place(doc int, ptr string, v member, mem map[string]member, _ slot) (*Tool, error) {
	return r.m.newTool(doc, ptr, v.start, v.end, mem), nil
}

func (jsonShapes) inner(member, string, slot) slot { return slot{dash: -1} }

func (r jsonShapes) tool(doc int, v member, mem map[string]member) (*Tool, error) {
	return r.m.newTool(doc, "", v.start, v.end, mem), nil
}

func (r jsonShapes) quoted(v member) string { return oneLine(r.m.Src[v.start:v.end]) }
