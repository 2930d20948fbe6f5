package manifest

import (
	"io"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// yamlToolNesting is how many levels of a YAML document can hold a tool
// before the tool itself: {"tools": [{"functionDeclarations": [tool]}]}
// and a JSON-RPC response's {"result": {"tools": [tool]}} nest it at most
// five deep; the rest is margin. The document is refused before parsing
// when it nests deeper than Limits.Depth plus this.
const yamlToolNesting = 8

// tokenize scans text as lexer.Tokenize does. The scanner returns every
// token of the text at once, so what it costs is bounded by
// Limits.YAMLSize; the count is checked (Limits.YAMLTokens) before the
// tokens are parsed, which keeps about 350 bytes a token.
func (y *yamlDoc) tokenize(text string) token.Tokens {
	var s scanner.Scanner
	s.Init(text)
	var tokens token.Tokens
	for {
		sub, err := s.Scan()
		if err == io.EOF {
			break
		}
		tokens.Add(sub...)
	}
	return tokens
}

// checkExpansion refuses a document whose aliases stand for more than the
// limit's bytes of JSON text. Each alias is expanded once where it is
// written, and an anchored value's size counts the aliases inside it, so
// the sum over the aliases written is what decoding the whole document
// produces beyond the text itself; it is computed once per anchor, so the
// check is linear in the document however much the aliases multiply.
// The total runs over the documents of a stream.
func (y *yamlDoc) checkExpansion(body ast.Node, limit int64) error {
	sizes := map[*ast.AnchorNode]int64{}
	total := y.expanded
	defer func() { y.expanded = total }()
	var over *ast.AliasNode
	// size is the JSON size of n with its aliases expanded; count adds
	// the aliases written in n to the total (not when n is an anchored
	// value sized for an alias, whose own aliases were counted where the
	// anchor is written).
	var size func(n ast.Node, count bool) int64
	size = func(n ast.Node, count bool) int64 {
		if over != nil {
			return 0
		}
		_, c := unwrap(n)
		switch c := c.(type) {
		case nil:
			return 4 // null
		case *ast.AliasNode:
			a := y.alias[c]
			if a == nil {
				return 0
			}
			s, ok := sizes[a]
			if !ok {
				// check refused recursive aliases, so this ends; the
				// placeholder keeps a bug from looping.
				sizes[a] = 0
				s = size(a.Value, false)
				sizes[a] = s
			}
			if count {
				if total += s; total > limit {
					over = c
				}
			}
			return s
		case *ast.MappingNode, *ast.MappingValueNode:
			s := int64(2)
			for _, mv := range pairs(c) {
				if mv.Key != nil {
					if tk := mv.Key.GetToken(); tk != nil {
						s += int64(len(tk.Value)) + 4 // quotes, colon, comma
					}
				}
				s += size(mv.Value, count)
			}
			return s
		case *ast.SequenceNode:
			s := int64(2)
			for _, v := range c.Values {
				s += size(v, count) + 1
			}
			return s
		}
		text, _ := yamlScalarText(c)
		return int64(len(text)) + 2
	}
	size(body, true)
	if over != nil {
		return y.m.limitError(y.off(over.Start), LimitYAMLExpansion, "aliases stand for more than %s of values (the alias here passes the limit); write the values out if that is meant", SizeText(limit))
	}
	return nil
}
