// Package manifest turns a source (a file, standard input, the bytes a server
// sent) into the tools it publishes, and keeps the original bytes with an
// index from JSON Pointer to byte span and line:column.
//
// It owns every accepted shape: a tools/list result, a JSON-RPC response
// carrying one, newline-delimited streams of those (one page per line), a
// bare array of tools, a single tool, and the plugin-contract shape
// {"name", "description", "schema"} whose schema stands for inputSchema. It
// also reads the tool formats of other consumers (OpenAI Chat Completions and
// Responses function tools, Anthropic tools, Gemini function declarations;
// see foreign.go), whose schema member stands for inputSchema the same way.
// JSON and YAML are both accepted; YAML keeps its own positions and is edited
// as YAML. A JSON stream may also carry the rest of a server's surface:
// prompts, resources, resource templates and the handshake result, read as
// Entry values (surface.go).
//
// Nothing downstream re-parses the source: rules read decoded tool values,
// diagnostics are placed through Tool.Locate, and fixes are applied with
// Manifest.Apply, which splices bytes so that everything outside an edit stays
// byte-identical.
//
// Tools are decoded one at a time (Tool.Value) so a large manifest is never
// held as one decoded tree: the loader only records where each tool starts and
// ends.
//
// Every source is read and loaded under Limits (limits.go): its size, the
// nesting of a tool, and for YAML its size, its tokens and what its aliases
// stand for, each checked before the work it bounds, so that a hostile file
// fails with an *Error naming the limit instead of exhausting memory. The
// other JSON and YAML files mcplint reads (its configuration, lock and
// baseline files, the clients' configurations) are read as a Document, by
// the same code under the same Limits.
package manifest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Format is the syntax of a source.
type Format int

const (
	JSON Format = iota
	YAML
)

func (f Format) String() string {
	if f == YAML {
		return "yaml"
	}
	return "json"
}

// Shape names the document shape a manifest was recognised as.
type Shape string

const (
	ShapeListResult     Shape = "tools/list result"
	ShapeJSONRPC        Shape = "JSON-RPC response"
	ShapeStream         Shape = "newline-delimited JSON-RPC responses"
	ShapeArray          Shape = "array of tools"
	ShapeTool           Shape = "single tool"
	ShapePluginContract Shape = "plugin contract"
)

// acceptedShapes is quoted in the error for a document of no known shape.
const acceptedShapes = `accepted shapes: a tools/list result {"tools": [...]}, a JSON-RPC response whose "result" is one, newline-delimited JSON-RPC responses (one page per line), an array of tools, a single tool {"name", "inputSchema", ...}, a plugin contract {"name", "description", "schema"}, or OpenAI, Anthropic or Gemini tools (an array, {"tools": [...]}, or {"functionDeclarations": [...]})`

// MaxDepth is the default bound on the nesting inside a tool
// (Limits.Depth). No real tool schema comes near it; a deeper document is
// refused with a clear error instead of exhausting the stack of every
// recursive consumer downstream.
const MaxDepth = 1000

// Manifest is one loaded source.
type Manifest struct {
	// Path is the name used in messages ("-" reads as "<stdin>").
	Path   string
	Src    []byte
	Format Format
	Shape  Shape
	Tools  []*Tool
	// Docs holds the start offset of each top-level document (one for all
	// shapes but a stream).
	Docs []int
	// Skipped lists the entries of another consumer's tool list that are
	// not function tools (foreign.go).
	Skipped []Skipped
	// Prompts, Resources and Templates are the other entries of a
	// server's surface, Results every result of a JSON-RPC stream or
	// bare result (a list page, or the handshake's), Server the handshake
	// result (nil when the source has none), and Refusals the list
	// requests recorded as refused (surface.go).
	Prompts, Resources, Templates, Results []*Entry
	Server                                 *Entry
	Refusals                               []Refusal

	// lines holds the start offset of every linesPerMark-th line, built on
	// first use with lineCount; linesOnce makes that safe when rules run
	// on several tools at once.
	lines     []int
	lineCount int
	// spans marks every spanBytes-th byte with where its line starts, so
	// that a position within a long line (a minified manifest) is found
	// from near it rather than from the line's start.
	spans     []spanMark
	linesOnce sync.Once
	yaml      *yamlDoc
	stOnce    sync.Once // workers build fixes' edits side by side
	st        style
	limits    Limits
	pre       *prereads // while a JSON source loads
	// shared holds what every tool of this input shares during a run
	// (Shared); it goes with the manifest, where a cache keyed by the
	// manifest's address would outlive it and hand its state to the next
	// manifest allocated there.
	shared sync.Map
}

// Shared returns the value stored under key for this manifest, computing
// it with fn on first use: state that the rules share across the tools of
// one input, a budget that bounds the input as a whole for one. Concurrent
// first uses may both compute; one result wins.
func (m *Manifest) Shared(key string, fn func() any) any {
	if v, ok := m.shared.Load(key); ok {
		return v
	}
	v, _ := m.shared.LoadOrStore(key, fn())
	return v
}

// Sequential reports whether the tools follow one another in the source,
// each after the one before it ends, so that what is found in each comes
// after what is found in the ones before: true of JSON sources. YAML tools
// can be one node (an alias) and are not.
func (m *Manifest) Sequential() bool {
	if m.Format != JSON {
		return false
	}
	prev := 0
	for _, t := range m.Tools {
		if t.start < prev {
			return false
		}
		prev = t.end
	}
	return true
}

// Tool is one tool of a manifest, located but not yet decoded.
type Tool struct {
	M *Manifest
	// Index is the tool's position in the manifest's list.
	Index int
	// Doc is the document (stream line) the tool belongs to.
	Doc int
	// Pointer locates the tool object in its document.
	Pointer string
	// Name is the tool's name, or "" when it has none (or not a string).
	Name string
	// SchemaKey is the member that carries the input schema: "inputSchema",
	// "schema" for the plugin-contract shape, "parameters" for OpenAI tools
	// and Gemini declarations, "input_schema" for Anthropic tools, and
	// "parametersJsonSchema" or "parameters_json_schema" for Gemini
	// declarations that give a JSON Schema rather than Gemini's OpenAPI
	// subset. Rules always address the input schema as /inputSchema; Value,
	// Locate and Apply translate. For an OpenAI Chat Completions tool,
	// Pointer locates the inner "function" object, which holds the name.
	SchemaKey string

	start, end int // byte span of the tool value in Src (JSON)
	idxOnce    sync.Once
	idx        *index
}

// Position is a place in a source. Line and Column are 1-based; Column counts
// bytes, as compilers and editors' "go to" commands do.
type Position struct {
	Offset int
	Line   int
	Column int
}

// Error is an input error: it names the place and says what is wrong.
type Error struct {
	Path string
	Pos  Position // zero when the error concerns the whole file
	Msg  string
	// Limit names the bound the source exceeds, "" for any other error.
	Limit Limit
}

func (e *Error) Error() string { return e.Place() + ": " + e.Msg }

// Place is where the error is: FILE, or FILE:LINE:COL.
func (e *Error) Place() string {
	if e.Pos.Line == 0 {
		return e.Path
	}
	return fmt.Sprintf("%s:%d:%d", e.Path, e.Pos.Line, e.Pos.Column)
}

// sourcePointer maps a tool-relative pointer as rules write it to the
// pointer inside the tool object as the source spells it.
func (t *Tool) sourcePointer(rel string) string {
	if t.SchemaKey != "inputSchema" && (rel == "/inputSchema" || strings.HasPrefix(rel, "/inputSchema/")) {
		return "/" + t.SchemaKey + rel[len("/inputSchema"):]
	}
	return rel
}

// DocPointer is the pointer, within the tool's document, of a tool-relative
// pointer.
func (t *Tool) DocPointer(rel string) string {
	return t.Pointer + t.sourcePointer(rel)
}

// linesPerMark is how many lines apart the line index marks a line's start:
// the index of a large source is a sixty-fourth of one that marked every
// line, and a position costs a scan of at most that many lines.
const linesPerMark = 64

// spanBytes is how many bytes apart the span marks are.
const spanBytes = 1 << 16

// spanMark is a byte offset, the 0-based line it is on, and where that
// line starts.
type spanMark struct{ off, line, lineStart int }

// index builds the line index on first use.
func (m *Manifest) index() {
	m.linesOnce.Do(func() {
		m.lines = append(make([]int, 0, bytes.Count(m.Src, []byte{'\n'})/linesPerMark+1), 0)
		n, lineStart, nextSpan := 0, 0, spanBytes
		for off := 0; ; {
			i := bytes.IndexByte(m.Src[off:], '\n')
			end := off + i // the line's break
			if i < 0 {
				end = len(m.Src)
			}
			for ; nextSpan <= end; nextSpan += spanBytes {
				m.spans = append(m.spans, spanMark{nextSpan, n, lineStart})
			}
			if i < 0 {
				break
			}
			off, lineStart = end+1, end+1
			if n++; n%linesPerMark == 0 {
				m.lines = append(m.lines, off)
			}
		}
		m.lineCount = n + 1
	})
}

// Position turns a byte offset into a line and column.
func (m *Manifest) Position(off int) Position {
	m.index()
	lo, hi := 0, len(m.lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if m.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	line, start := lo*linesPerMark, m.lines[lo]
	from := start // where the scan for breaks begins
	// The last span mark at or before off, when it is after the line mark,
	// is nearer.
	k, found := slices.BinarySearchFunc(m.spans, off, func(s spanMark, off int) int { return s.off - off })
	if !found {
		k--
	}
	if k >= 0 && m.spans[k].off > start {
		sp := m.spans[k]
		line, start, from = sp.line, sp.lineStart, sp.off
	}
	end := min(max(off, from), len(m.Src))
	// The lines between the mark and off are counted in one vectorised
	// scan. Their last break is looked for backwards only near off:
	// bytes.LastIndexByte goes byte by byte, and from the end of a
	// megabyte line (a minified manifest) each finding went back to its
	// start.
	between := m.Src[from:end]
	if n := bytes.Count(between, []byte{'\n'}); n > 0 {
		line += n
		tail := between[max(0, len(between)-256):]
		if i := bytes.LastIndexByte(tail, '\n'); i >= 0 {
			start = end - len(tail) + i + 1
		} else {
			// A long line: its start is found forwards, a vectorised
			// search per line since the mark.
			start = from
			for range n {
				start += bytes.IndexByte(m.Src[start:end], '\n') + 1
			}
		}
	}
	return Position{Offset: off, Line: line + 1, Column: off - start + 1}
}

// Line returns the text of the 1-based line n, without its line ending.
func (m *Manifest) Line(n int) string {
	m.index()
	if n < 1 || n > m.lineCount {
		return ""
	}
	start := m.lines[(n-1)/linesPerMark]
	for range (n - 1) % linesPerMark {
		start += bytes.IndexByte(m.Src[start:], '\n') + 1
	}
	end := len(m.Src)
	if i := bytes.IndexByte(m.Src[start:], '\n'); i >= 0 {
		end = start + i
	}
	return strings.TrimRight(string(m.Src[start:end]), "\r")
}

func (m *Manifest) errorAt(off int, format string, args ...any) error {
	return &Error{Path: m.Path, Pos: m.Position(off), Msg: fmt.Sprintf(format, args...)}
}
