package manifest

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/mcpfit/mcplint/internal/english"
)

// Limits bound what loading one source may cost, so that a file nobody
// reviewed (or the answer of a server) cannot exhaust memory or time. Each
// bound is checked as early as it can be: the size before reading a
// regular file and while reading anything else, YAML tokens while
// scanning, nesting and YAML aliases before anything is decoded. Exceeding
// one is an *Error whose Limit names it.
type Limits struct {
	// Size is the largest source, in bytes. A regular file larger than
	// this is refused before it is read; a pipe or a device is read up to
	// the limit and no further.
	Size int64
	// Depth bounds the nesting of objects and arrays inside a tool (at
	// most DepthCeiling). A YAML document is refused before it is parsed
	// when it nests deeper than Depth plus the few levels that hold its
	// tools: the YAML parser's cost grows with the square of the depth.
	Depth int
	// YAMLSize is the largest YAML source, in bytes. The YAML scanner
	// costs up to 200 bytes of memory for each byte of text, so YAML gets
	// a bound of its own, far below Size.
	YAMLSize int64
	// YAMLTokens bounds the tokens of a YAML source (each key, scalar,
	// indicator and bracket counts one), counted before they are parsed:
	// the parsed YAML is kept to place findings and to edit, at about 350
	// bytes a token.
	YAMLTokens int
	// YAMLExpansion bounds the bytes of JSON text that YAML aliases stand
	// for: a few lines of anchors that alias each other, or one long string
	// aliased many times, can otherwise stand for gigabytes.
	YAMLExpansion int64
	// RefExpansion bounds, in the same way, the bytes of JSON that the
	// "$ref"s of the source's schemas stand for once inlined, all tools
	// together: loading does not inline them, the rules and conversions
	// that do (for Gemini's parameters, OpenAI's strict mode) spend it
	// through a normalize.Budget of this size, and refuse a schema past it.
	RefExpansion int64
}

// Limit names one of the Limits.
type Limit string

const (
	LimitSize          Limit = "size"
	LimitDepth         Limit = "depth"
	LimitYAMLSize      Limit = "yaml-size"
	LimitYAMLTokens    Limit = "yaml-tokens"
	LimitYAMLExpansion Limit = "yaml-expansion"
	LimitRefExpansion  Limit = "ref-expansion"
)

// DefaultLimits are the bounds of Load and ReadFile. No real tool list
// comes near them: the largest servers publish a few megabytes, ten
// thousand generated tools make 16 MB of JSON, and a typical tool is about
// 1.2 KB and a hundred tokens of YAML, so 4 MiB or a million tokens of
// YAML are some three thousand tools. At these bounds the worst input of
// each kind peaks at about 1 GB (docs/promises.md has the figures): the
// engine holds some twenty to thirty times a source made of a million
// tiny tools or of one tool of a million properties, which is why the
// size is 32 MiB and not the 256 it was, where such a source took seven.
var DefaultLimits = Limits{
	Size:          32 << 20,
	Depth:         MaxDepth,
	YAMLSize:      4 << 20,
	YAMLTokens:    1 << 20,
	YAMLExpansion: 16 << 20,
	RefExpansion:  16 << 20, // normalize.DefaultRefExpansion
}

// DepthCeiling is the largest Limits.Depth: the JSON tokenizer's own bound
// on a document, and the depth every schema walker follows.
const DepthCeiling = 10000

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Size > 0 {
		d.Size = l.Size
	}
	if l.Depth > 0 {
		d.Depth = min(l.Depth, DepthCeiling)
	}
	if l.YAMLSize > 0 {
		d.YAMLSize = l.YAMLSize
	}
	if l.YAMLTokens > 0 {
		d.YAMLTokens = l.YAMLTokens
	}
	if l.YAMLExpansion > 0 {
		d.YAMLExpansion = l.YAMLExpansion
	}
	if l.RefExpansion > 0 {
		d.RefExpansion = l.RefExpansion
	}
	return d
}

// Load is the package's Load under these limits (a zero field takes its
// default).
func (l Limits) Load(name string, src []byte) (*Manifest, error) {
	l = l.withDefaults()
	if int64(len(src)) > l.Size {
		return nil, tooLarge(name, l.Size)
	}
	return load(name, src, l)
}

// ReadFile is the package's ReadFile under these limits.
func (l Limits) ReadFile(path string) (*Manifest, error) {
	l = l.withDefaults()
	if path == "-" {
		return l.Read("<stdin>", os.Stdin)
	}
	src, err := readFile(path, "is a directory, not a manifest file; name the manifests in it", l.Size, tooLarge)
	if err != nil {
		return nil, err
	}
	return load(path, src, l)
}

// Read loads a manifest from r (standard input, a pipe), named name in
// messages, reading no more than the size limit.
func (l Limits) Read(name string, r io.Reader) (*Manifest, error) {
	l = l.withDefaults()
	src, err := readLimited(r, name, l.Size, 0)
	if err != nil {
		return nil, err
	}
	return load(name, src, l)
}

// readFile reads the file at path, refusing a directory (with dirMsg) and
// more than limit bytes, with tooBig's error: a regular file before it is
// read, anything else (a pipe, a device) as it is read.
func readFile(path, dirMsg string, limit int64, tooBig func(name string, limit int64) error) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &Error{Path: path, Msg: dirMsg}
	}
	var size int64 // known for regular files, so the source is read in one buffer
	if fi.Mode().IsRegular() {
		if fi.Size() > limit {
			return nil, tooBig(path, limit)
		}
		size = fi.Size()
	}
	src, err := readLimited(f, path, limit, size)
	if e, ok := err.(*Error); ok && e.Limit == LimitSize {
		return nil, tooBig(path, limit)
	}
	return src, err
}

// ReadAll reads all of r, refusing more than limit bytes, with an *Error
// whose Limit is LimitSize. See Limits.Size.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	return readLimited(r, name, limit, 0)
}

// readLimited reads all of r, refusing more than limit bytes. With a size
// hint (the file's size; 0 when unknown) it reads into one buffer of that
// size. Otherwise it reads chunks and joins them once at the end, so that
// memory peaks at twice the input (the chunks and the joined copy), and at
// the limit for an input that passes it, where a growing buffer would leave
// its outgrown copies behind and, as bytes.Buffer does, double past the
// limit.
func readLimited(r io.Reader, name string, limit, size int64) ([]byte, error) {
	if size > 0 && size <= limit {
		buf := make([]byte, size+1) // +1: a file that grew since Stat is seen
		n, err := io.ReadFull(r, buf)
		switch {
		case err == io.ErrUnexpectedEOF || err == io.EOF:
			return buf[:n], nil
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		// The file grew: read on, in chunks.
		rest, err := readLimited(r, name, limit-int64(n), 0)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Limit == LimitSize {
				return nil, tooLarge(name, limit)
			}
			return nil, err
		}
		return append(buf, rest...), nil
	}
	const chunkSize = 1 << 20
	var (
		chunks [][]byte
		total  int64
	)
	for total <= limit {
		chunk := make([]byte, min(chunkSize, limit+1-total))
		n, err := io.ReadFull(r, chunk)
		chunks = append(chunks, chunk[:n])
		total += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
	if total > limit {
		return nil, tooLarge(name, limit)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}

func tooLarge(name string, limit int64) error {
	return &Error{Path: name, Limit: LimitSize, Msg: fmt.Sprintf("the input is larger than the limit of %s; split the tool list", SizeText(limit))}
}

// SizeText writes a byte count as people read it: "256 MiB", "1.5 KiB",
// "100 bytes".
func SizeText(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift {
			if n%(1<<u.shift) == 0 {
				return fmt.Sprintf("%d %s", n>>u.shift, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(int64(1)<<u.shift), u.name)
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return english.Count(int(n), "byte")
}

// limitError is an *Error at offset off for an exceeded limit.
func (m *Manifest) limitError(off int, limit Limit, format string, args ...any) error {
	return &Error{Path: m.Path, Pos: m.Position(off), Limit: limit, Msg: fmt.Sprintf(format, args...)}
}

// Reload loads new bytes for the same source: its name and limits.
func (m *Manifest) Reload(src []byte) (*Manifest, error) {
	return m.limits.Load(m.Path, src)
}

// depthLimit is Limits.Depth, for a manifest built without Load too.
func (m *Manifest) depthLimit() int {
	if m.limits.Depth > 0 {
		return m.limits.Depth
	}
	return MaxDepth
}

// Limits are the bounds the manifest was loaded under.
func (m *Manifest) Limits() Limits { return m.limits }
