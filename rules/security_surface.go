package rules

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

// The security pack reads every text of a server that reaches the model,
// not only its tools: the instructions of its handshake result (clients
// put them in the system prompt), the server's title and description, and
// the descriptions and titles of its prompts, prompt arguments, resources
// and resource templates. A prompt is worse placed than a tool for an
// attack: its messages become the user's own turn.

// entryText is a text of a surface entry that the model reads.
type entryText struct {
	e *manifest.Entry
	text
}

// serverInfoPointers are where a handshake result names the server:
// initialize's serverInfo, server/discover's _meta.
var serverInfoPointers = []string{"/serverInfo", "/_meta/io.modelcontextprotocol~1serverInfo"}

// surfaceProse collects the texts of the surface that address the model.
func surfaceProse(p *lint.SurfacePass) []entryText {
	var out []entryText
	add := func(e *manifest.Entry, obj map[string]any, ptr, what string, keys ...string) {
		for _, k := range keys {
			if s, ok := obj[k].(string); ok {
				name := what + k
				if k == "instructions" {
					name = what + `"instructions"` // one text, though a plural noun
				}
				out = append(out, entryText{e, text{at: ptr + "/" + k, what: name, s: s}})
			}
		}
	}
	if s := p.Manifest.Server; s != nil {
		if v, err := s.Value(); err == nil {
			res, _ := v.(map[string]any)
			add(s, res, "", "the server's ", "instructions")
			for _, ptr := range serverInfoPointers {
				info, _ := lookup(res, ptr).(map[string]any)
				add(s, info, ptr, "the server's ", "title", "description")
			}
		}
	}
	for _, e := range p.Entries() {
		v, err := e.Value()
		if err != nil {
			continue
		}
		obj, _ := v.(map[string]any)
		add(e, obj, "", e.Describe()+"'s ", "description", "title")
		if e.Kind == manifest.KindPrompt {
			args, _ := obj["arguments"].([]any)
			for i, a := range args {
				arg, _ := a.(map[string]any)
				add(e, arg, fmt.Sprintf("/arguments/%d", i), fmt.Sprintf("%s's argument %d ", e.Describe(), i), "description", "title")
			}
		}
	}
	return out
}

// lookup reads a JSON Pointer in a decoded value.
func lookup(v any, ptr string) any {
	for _, tok := range pointer.Split(ptr) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[tok]
	}
	return v
}

// checkSurfaceProse reports, once per text, the first pattern that
// matches; format takes the text's name, the pattern's and the excerpt.
func checkSurfaceProse(p *lint.SurfacePass, ps []pattern, format string) {
	for _, t := range surfaceProse(p) {
		f := fold(t.s)
		for _, pt := range ps {
			if !pt.mayMatch(f) {
				continue
			}
			if loc := pt.find(t.s); loc != nil {
				p.Reportf(t.e, t.ptr(), format, t.what, pt.what, excerpt(t.s, loc[0], loc[1]))
				break
			}
		}
	}
}

func checkSurfaceInjection(p *lint.SurfacePass) {
	checkSurfaceProse(p, injectionPatterns(), "%s contains %s: %s; the model obeys it and the user never sees it: remove it")
}

func checkSurfaceSensitiveFile(p *lint.SurfacePass) {
	paths := p.Option("paths").([]string)
	for _, t := range surfaceProse(p) {
		lower := strings.ToLower(t.s)
		for _, path := range paths {
			if path == "" {
				continue
			}
			if i := strings.Index(lower, strings.ToLower(path)); i >= 0 {
				p.Reportf(t.e, t.ptr(), "%s mentions %q, a file that holds credentials: %s; nothing a server publishes has a reason to point the model at it: remove it", t.what, path, excerpt(t.s, i, i+len(path)))
				break
			}
		}
	}
}

func checkSurfaceExfiltration(p *lint.SurfacePass) {
	checkSurfaceProse(p, exfiltrationPatterns(), "%s contains %s: %s; nothing a server publishes may direct the model to move data: remove it")
}

func checkSurfaceToolRedirection(p *lint.SurfacePass) {
	checkSurfaceProse(p, redirectionPatterns(), "%s contains %s: %s; a server speaks for its own features, not for other servers' tools: remove the instruction")
}

// checkSurfaceInvisible reports hidden characters in every string of the
// surface's entries and of the handshake result.
func checkSurfaceInvisible(p *lint.SurfacePass) {
	entries := p.Entries()
	if s := p.Manifest.Server; s != nil {
		entries = append([]*manifest.Entry{s}, entries...)
	}
	for _, e := range entries {
		v, err := e.Value()
		if err != nil {
			continue
		}
		eachString(v, "", func(at func() string, s string, key bool) {
			if what, ok := hiddenFinding(s); ok {
				p.Reportf(e, at(), "%s: a %s contains %s", e.Describe(), stringOrKey(key), what)
			}
		})
	}
}
