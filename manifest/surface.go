package manifest

import (
	"encoding/json"
	"strconv"
	"strings"
)

// A server publishes more than tools: prompts, resources, resource
// templates, and in its handshake result (initialize, or server/discover
// from protocol 2026-07-28) its identity, capabilities and instructions. A
// JSON source may carry them as further pages of a stream, JSON-RPC
// responses or bare results, each recognised by its result's members:
// "prompts" (prompts/list), "resources" (resources/list),
// "resourceTemplates" (resources/templates/list), "protocolVersion"
// (initialize), "supportedVersions", "capabilities" or "serverInfo"
// (server/discover). `mcplint check --save` writes them so. YAML sources
// carry tools only.

// Kind is what a surface entry is.
type Kind string

const (
	KindPrompt   Kind = "prompt"
	KindResource Kind = "resource"
	KindTemplate Kind = "resource template"
	// KindResult is a whole result: a page of a list (tools/list
	// included), or the handshake's.
	KindResult Kind = "result"
)

// The methods whose results a surface holds.
const (
	MethodTools      = "tools/list"
	MethodPrompts    = "prompts/list"
	MethodResources  = "resources/list"
	MethodTemplates  = "resources/templates/list"
	MethodInitialize = "initialize"
	MethodDiscover   = "server/discover"
)

// ListMethods are the list methods of a surface, in the order a saved
// surface holds them.
var ListMethods = []string{MethodTools, MethodPrompts, MethodResources, MethodTemplates}

// listMembers names the array each list method's result carries.
var listMembers = map[string]string{
	MethodTools: "tools", MethodPrompts: "prompts", MethodResources: "resources", MethodTemplates: "resourceTemplates",
}

// ListMember returns the member of a list method's result that holds its
// entries ("prompts" for prompts/list).
func ListMember(method string) string { return listMembers[method] }

// Entry is a prompt, a resource, a resource template, or a whole result of
// a JSON source: located, and decoded on demand (Value).
type Entry struct {
	M    *Manifest
	Kind Kind
	// Index is the entry's position among the manifest's entries of its
	// kind.
	Index int
	// Doc is the document (stream line) the entry belongs to.
	Doc int
	// Pointer locates the entry in its document: "/result/prompts/3".
	Pointer string
	// Name is a prompt's, resource's or template's "name" (when a string),
	// or a result's method.
	Name string
	// Key is what identifies the entry among its kind: a prompt's name, a
	// resource's "uri", a template's "uriTemplate" ("" when not a string).
	Key string

	start, end int
}

// Refusal is a list request that a saved surface records as answered with
// a JSON-RPC error: a response whose "id" is the method's name
// ("tools/list" too).
type Refusal struct {
	Method  string
	Code    int64
	Message string
	Doc     int
}

// Handshake reports whether method is the handshake's: initialize or
// server/discover.
func Handshake(method string) bool { return method == MethodInitialize || method == MethodDiscover }

// resultMethod tells the method of a result from its members, "" when it
// is no surface result.
func resultMethod(mem map[string]member) string {
	for _, m := range []string{MethodPrompts, MethodTemplates, MethodResources} {
		if _, ok := mem[listMembers[m]]; ok {
			return m
		}
	}
	if _, ok := mem["protocolVersion"]; ok {
		return MethodInitialize
	}
	for _, k := range []string{"supportedVersions", "capabilities", "serverInfo"} {
		if _, ok := mem[k]; ok {
			return MethodDiscover
		}
	}
	return ""
}

// resultMethodOf is resultMethod for a JSON-RPC response, whose "id", when
// it names a method of the surface (as a saved surface's do), says more
// than the members of a result that may be malformed.
func resultMethodOf(mem map[string]member, id member) string {
	if id.kind == '"' {
		if _, list := listMembers[id.str]; (list && id.str != MethodTools) || Handshake(id.str) {
			return id.str
		}
	}
	return resultMethod(mem)
}

// readSurface records the result v (whose members are mem) of method, at
// ptr in document doc, and the entries of its list.
func (m *Manifest) readSurface(doc int, method string, v member, mem map[string]member, ptr string) error {
	res := &Entry{M: m, Kind: KindResult, Index: len(m.Results), Doc: doc, Pointer: ptr, Name: method, start: v.start, end: v.end}
	m.Results = append(m.Results, res)
	if Handshake(method) {
		m.Server = res
		return nil
	}
	key := listMembers[method]
	arr, ok := mem[key]
	if !ok || arr.kind != '[' {
		return nil // not a list: the validity rule says so
	}
	dec := newDecoder(m.Src[arr.start:arr.end])
	if _, err := dec.ReadToken(); err != nil {
		return m.jsonError(arr.start, err)
	}
	for i := 0; dec.PeekKind() != ']'; i++ {
		start := arr.start + skipSpace(m.Src[arr.start:arr.end], int(dec.InputOffset()))
		raw, err := dec.ReadValue()
		if err != nil {
			return m.jsonError(arr.start, err)
		}
		if raw.Kind() != '{' {
			continue // not an entry: the validity rule says so
		}
		e := &Entry{M: m, Doc: doc, Pointer: ptr + "/" + key + "/" + strconv.Itoa(i), start: start, end: start + len(raw)}
		var ids struct {
			Name        any `json:"name"`
			URI         any `json:"uri"`
			URITemplate any `json:"uriTemplate"`
		}
		_ = json.Unmarshal(raw, &ids)
		e.Name, _ = ids.Name.(string)
		switch method {
		case MethodPrompts:
			e.Kind, e.Index, e.Key = KindPrompt, len(m.Prompts), e.Name
			m.Prompts = append(m.Prompts, e)
		case MethodResources:
			e.Kind, e.Index = KindResource, len(m.Resources)
			e.Key, _ = ids.URI.(string)
			m.Resources = append(m.Resources, e)
		case MethodTemplates:
			e.Kind, e.Index = KindTemplate, len(m.Templates)
			e.Key, _ = ids.URITemplate.(string)
			m.Templates = append(m.Templates, e)
		}
	}
	return nil
}

// refusal records a JSON-RPC error response whose id names a list method
// (tools/list included: a server that declares tools and refuses to list
// them); ok is false for any other error response.
func (m *Manifest) refusal(doc int, id, e member) bool {
	if id.kind != '"' || !strings.HasSuffix(id.str, "/list") {
		return false
	}
	if _, known := listMembers[id.str]; !known {
		return false
	}
	var body struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	if e.kind != '{' || json.Unmarshal(m.Src[e.start:e.end], &body) != nil {
		return false
	}
	m.Refusals = append(m.Refusals, Refusal{Method: id.str, Code: body.Code, Message: body.Message, Doc: doc})
	return true
}

// Value decodes the entry, as Tool.Value decodes a tool.
func (e *Entry) Value() (any, error) {
	return e.M.decodeJSON(e.start, e.end)
}

// Raw is the entry's bytes as the source spells them.
func (e *Entry) Raw() []byte { return e.M.Src[e.start:e.end] }

// Locate gives the position of the value at an entry-relative pointer, as
// Tool.Locate does.
func (e *Entry) Locate(rel string) Position {
	return e.M.Position(e.M.placeJSON(e.start, e.end, []string{rel}, make([]Place, 1))[0].Offset())
}

// DocPointer is the pointer, within the entry's document, of an
// entry-relative pointer.
func (e *Entry) DocPointer(rel string) string { return e.Pointer + rel }

// Describe names the entry for messages: `prompt "greet"`, `resource
// "file:///a"`, `the prompts/list result`.
func (e *Entry) Describe() string {
	switch {
	case e.Kind == KindResult && Handshake(e.Name):
		return "the " + e.Name + " result"
	case e.Kind == KindResult:
		return "the " + e.Name + " result (page " + strconv.Itoa(e.page()) + ")"
	case e.Key != "":
		return string(e.Kind) + " " + strconv.Quote(e.Key)
	}
	return string(e.Kind) + " " + strconv.Itoa(e.Index)
}

// page is the 1-based position of a result among the results of its
// method.
func (e *Entry) page() int {
	n := 0
	for _, r := range e.M.Results {
		if r.Name == e.Name {
			n++
		}
		if r == e {
			break
		}
	}
	return n
}
