package sinktest

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// markdown is CommonMark with GitHub's extensions (tables, strikethrough,
// autolinks of bare URLs and e-mail addresses, task lists), rendering raw
// HTML as it is, as a page that trusted its source would.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))

// MarkdownLive lists what a renderer makes live in src: every link,
// autolink, image and piece of raw HTML, except links whose destination
// starts with one of allowed (mcplint's own), and reference definitions.
// It also renders src and reports any <a, <img or <script the HTML holds
// that is not one of the allowed links.
func MarkdownLive(src string, allowed ...string) []string {
	var live []string
	ctx := parser.NewContext()
	doc := markdown.Parser().Parse(text.NewReader([]byte(src)), parser.WithContext(ctx))
	ok := func(dest []byte) bool {
		for _, a := range allowed {
			if strings.HasPrefix(string(dest), a) {
				return true
			}
		}
		return false
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if !ok(n.Destination) {
				live = append(live, fmt.Sprintf("link to %q", n.Destination))
			}
		case *ast.Image:
			live = append(live, fmt.Sprintf("image %q", n.Destination))
		case *ast.AutoLink:
			live = append(live, fmt.Sprintf("autolink %q", n.URL([]byte(src))))
		case *ast.RawHTML, *ast.HTMLBlock:
			live = append(live, fmt.Sprintf("raw HTML %T", n))
		}
		return ast.WalkContinue, nil
	})
	if refs := ctx.References(); len(refs) > 0 {
		live = append(live, fmt.Sprintf("%d reference definitions", len(refs)))
	}
	var out bytes.Buffer
	if err := markdown.Renderer().Render(&out, []byte(src), doc); err != nil {
		live = append(live, err.Error())
	}
	h := out.String()
	for _, a := range allowed {
		h = strings.ReplaceAll(h, `<a href="`+a, "")
	}
	for _, tag := range []string{"<a ", "<img", "<script", "<iframe"} {
		if strings.Contains(h, tag) {
			live = append(live, "rendered "+tag)
		}
	}
	return live
}
