package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/mcpfit/mcplint/internal/english"
)

func (m *Manifest) loadYAML(base int) error {
	y := newYAMLDoc(m, base)
	m.yaml = y
	err := y.parse(func(body ast.Node) error {
		y.bodies = append(y.bodies, body)
		r := yamlShapes{y}
		v := y.member(body, y.base)
		doc := len(m.Docs)
		m.Docs = append(m.Docs, v.start)
		switch v.kind {
		case '{':
			mem, err := r.members(v)
			if err != nil {
				return err
			}
			return m.objectShape(r, doc, v, mem)
		case '[':
			return m.readList(r, doc, v, "", ShapeArray)
		default:
			return m.notManifest(v.start, v.kind)
		}
	})
	if err != nil {
		return err
	}
	if len(m.Docs) == 0 {
		return &Error{Path: m.Path, Msg: "no YAML document (only comments or document markers): expected a tool manifest; " + acceptedShapes}
	}
	// Locate runs from concurrent workers: build the line table now.
	m.Position(0)
	return m.finishStream(YAML, "")
}

func newYAMLDoc(m *Manifest, base int) *yamlDoc {
	y := &yamlDoc{
		m: m, base: base, nl: "\n",
		alias: map[*ast.AliasNode]*ast.AnchorNode{},
		uses:  map[*ast.AnchorNode][]int{},

		anchorTag: map[*ast.AnchorNode]string{},
	}
	if bytes.Contains(m.Src, []byte("\r\n")) {
		y.nl = "\r\n"
	}
	y.indexLines()
	return y
}

// parse reads the YAML of the manifest under its Limits and hands each
// document that is not empty to read, checked (keys, tags, anchors) and
// with what its aliases stand for bounded. Every YAML that mcplint reads
// goes through here, manifests and the other files (Document) alike, so
// that one set of bounds holds for all.
func (y *yamlDoc) parse(read func(body ast.Node) error) error {
	m := y.m
	if limit := m.limits.YAMLSize; limit > 0 && int64(len(m.Src)-y.base) > limit {
		return &Error{Path: m.Path, Limit: LimitYAMLSize, Msg: fmt.Sprintf("the YAML source is larger than the limit of %s for YAML (parsing YAML takes many times its size in memory); split it, or write it as JSON", SizeText(limit))}
	}
	text := string(m.Src[y.base:])
	if !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		// Without a final line break the scanner drops a trailing tag.
		text += "\n"
	}
	tokens := y.tokenize(text)
	if tk := tokens.InvalidToken(); tk != nil {
		return m.errorAt(y.off(tk), "invalid YAML: %s", tk.Error)
	}
	if err := y.checkComments(tokens); err != nil {
		return err
	}
	// Depth first: of a deep document, it is the cause.
	if err := y.checkDepth(tokens, m.depthLimit()); err != nil {
		return err
	}
	if limit := m.limits.YAMLTokens; limit > 0 && len(tokens) > limit {
		return m.limitError(y.off(tokens[limit]), LimitYAMLTokens, "the YAML source has more than %s (keys, values and punctuation); split it, or write it as JSON", english.Count(limit, "token"))
	}
	if err := y.checkPaths(tokens); err != nil {
		return err
	}
	y.shiftAfterTags(tokens)
	var docs []*ast.DocumentNode
	for _, seg := range splitDocuments(tokens) {
		// Duplicate keys are found by check, to report them as for JSON.
		f, err := parser.Parse(seg, 0, parser.AllowDuplicateMapKey())
		if err != nil {
			return y.syntaxError(err)
		}
		docs = append(docs, f.Docs...)
	}
	for _, d := range docs {
		body := d.Body
		if body == nil {
			continue
		}
		if nn, ok := body.(*ast.NullNode); ok && nn.Token.Type == token.ImplicitNullType {
			continue // an empty document (a stray --- or one of comments only)
		}
		anchors := map[string]*ast.AnchorNode{}
		if err := y.check(body, nil, anchors, map[*ast.AnchorNode]bool{}); err != nil {
			return err
		}
		if err := y.checkExpansion(body, m.limits.YAMLExpansion); err != nil {
			return err
		}
		if err := read(body); err != nil {
			return err
		}
	}
	return nil
}

// splitDocuments cuts a token stream into its documents. The parser is given
// one document at a time: given a stream with an empty document ("---"
// twice), it drops every document after it.
func splitDocuments(tokens token.Tokens) []token.Tokens {
	var segs []token.Tokens
	var cur token.Tokens
	content := false // cur holds more than directives and comments
	directiveLine := 0
	for _, tk := range tokens {
		switch {
		case tk.Type == token.DocumentHeaderType && content:
			segs = append(segs, cur)
			cur, content = nil, false
		case tk.Type == token.DirectiveType:
			directiveLine = tk.Position.Line
		case tk.Type != token.CommentType && tk.Position.Line != directiveLine:
			content = true
		}
		cur = append(cur, tk)
		if tk.Type == token.DocumentEndType {
			segs = append(segs, cur)
			cur, content = nil, false
		}
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return segs
}

// indexLines records where each line starts. The YAML scanner breaks lines
// at "\n", "\r\n" and a lone "\r".
func (y *yamlDoc) indexLines() {
	src := y.m.Src
	y.lines = append(y.lines[:0], y.base)
	y.ascii = y.ascii[:0]
	ascii := true
	for i := y.base; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			y.lines, y.ascii, ascii = append(y.lines, i+1), append(y.ascii, ascii), true
		case c == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			y.lines, y.ascii, ascii = append(y.lines, i+1), append(y.ascii, ascii), true
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	y.ascii = append(y.ascii, ascii)
}

// offset turns a scanner position (1-based line, 1-based column counted in
// characters) into an offset in Src.
func (y *yamlDoc) offset(p *token.Position) int {
	if p == nil || p.Line < 1 {
		return y.base
	}
	if p.Line > len(y.lines) {
		return len(y.m.Src)
	}
	ls := y.lines[p.Line-1]
	le := len(y.m.Src)
	if p.Line < len(y.lines) {
		le = y.lines[p.Line]
	}
	col := p.Column - 1
	if col <= 0 {
		return ls
	}
	line := y.m.Src[ls:le]
	if y.ascii[p.Line-1] {
		return ls + min(col, len(line))
	}
	y.runesMu.Lock()
	defer y.runesMu.Unlock()
	if y.runes == nil {
		y.runes = map[int][]int32{}
	}
	rs, ok := y.runes[p.Line]
	if !ok {
		for i := range string(line) {
			rs = append(rs, int32(i))
		}
		y.runes[p.Line] = rs
	}
	if col >= len(rs) {
		return le
	}
	return ls + int(rs[col])
}

// shiftAfterTags records how many columns early the scanner places each
// token that follows tags on its line: one for each tag.
func (y *yamlDoc) shiftAfterTags(tokens token.Tokens) {
	line, tags := 0, 0
	for _, tk := range tokens {
		if tk.Position == nil {
			continue
		}
		if tk.Position.Line != line {
			line, tags = tk.Position.Line, 0
		}
		if tags > 0 {
			if y.shift == nil {
				y.shift = map[*token.Token]int{}
			}
			y.shift[tk] = tags
		}
		if tk.Type == token.TagType {
			tags++
		}
	}
}

// yamlError is what the parser's errors offer.
type yamlError interface {
	GetToken() *token.Token
	GetMessage() string
}

func (y *yamlDoc) syntaxError(err error) error {
	var ye yamlError
	if errors.As(err, &ye) {
		if tk := ye.GetToken(); tk != nil {
			return y.m.errorAt(y.off(tk), "invalid YAML: %s", ye.GetMessage())
		}
		return &Error{Path: y.m.Path, Msg: "invalid YAML: " + ye.GetMessage()}
	}
	return &Error{Path: y.m.Path, Msg: "invalid YAML: " + err.Error()}
}

// checkComments refuses a comment stuck to what comes before it ("0"#):
// YAML makes a comment of "#" only at the start of a line or after white
// space (https://yaml.org/spec/1.2.2/#66-comments). The parser takes it for
// one anyway, and a fix that edits beside it then writes text that does not
// parse.
func (y *yamlDoc) checkComments(tokens token.Tokens) error {
	src := y.m.Src
	for _, tk := range tokens {
		if tk.Type != token.CommentType {
			continue
		}
		off := y.off(tk)
		if off <= y.base || off >= len(src) || src[off] != '#' {
			continue
		}
		switch src[off-1] {
		case ' ', '\t', '\n', '\r':
		default:
			return y.m.errorAt(off, "invalid YAML: a comment needs a space before its #")
		}
	}
	return nil
}

// checkDepth refuses documents nested deeper than a tool may be (limit)
// plus the levels that hold tools, before the parser sees them: the
// parser recurses and its work grows with the square of the depth. Block
// nesting is followed by the columns of entries and keys, flow nesting by
// brackets.
func (y *yamlDoc) checkDepth(tokens token.Tokens, limit int) error {
	type level struct {
		col int
		seq bool
	}
	var stack []level
	flow := 0
	enter := func(col int, seq bool) {
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.col > col || (top.col == col && top.seq && !seq) {
				stack = stack[:len(stack)-1]
				continue
			}
			break
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.col == col && top.seq == seq {
				return
			}
		}
		stack = append(stack, level{col, seq})
	}
	for i, tk := range tokens {
		switch tk.Type {
		case token.DocumentHeaderType, token.DocumentEndType:
			stack, flow = stack[:0], 0
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			if flow > 0 {
				flow--
			}
		case token.SequenceEntryType:
			if flow == 0 {
				enter(tk.Position.Column, true)
			}
		case token.MappingKeyType:
			if flow == 0 {
				enter(tk.Position.Column, false)
			}
		case token.MappingValueType:
			if flow == 0 && i > 0 {
				key := i - 1
				for key > 0 && tokens[key].Type == token.CommentType {
					key--
				}
				enter(tokens[key].Position.Column, false)
			}
		}
		if len(stack)+flow > limit+yamlToolNesting {
			return y.m.limitError(y.off(tk), LimitDepth, "nesting deeper than %s", english.Count(limit, "level"))
		}
	}
	return nil
}
