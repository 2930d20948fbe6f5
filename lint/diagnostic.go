package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcplint/mcplint/consumer"
	"github.com/mcplint/mcplint/manifest"
)

// Diagnostic is one finding.
type Diagnostic struct {
	Rule     string
	Severity Severity
	// Tool is the tool's name ("" when it has none); ToolIndex its position
	// in the manifest.
	Tool      string
	ToolIndex int
	// Pointer locates the finding in its document (RFC 6901).
	Pointer string
	File    string
	Line    int
	Column  int
	Message string
	// Fix is nil when the rule cannot fix this finding.
	Fix *Fix
	// Consumers are the programs that refuse (or alter) what was found:
	// the rule's Consumers unless the rule reported narrower ones.
	Consumers []consumer.Refusal
	// Merged lists the other rules that reported the same subject at the
	// same place; their consumers are in Consumers (see Rule.Subject).
	Merged []string

	// RelPointer is the pointer relative to the tool, as the rule reported it.
	RelPointer string
	// Offset is the byte offset of the finding in its source.
	Offset int
}

// FixKind reports the kind of the diagnostic's fix: none, safe or unsafe.
func (d *Diagnostic) FixKind() FixKind {
	switch {
	case d.Fix == nil:
		return NoFix
	case d.Fix.Safe:
		return SafeFix
	}
	return UnsafeFix
}

// ConsumerNote names the consumers of the finding as reports show them:
// "refused by: Anthropic API, Claude Code; altered by: VS Code", or "".
func (d *Diagnostic) ConsumerNote() string {
	var parts []string
	if s := consumer.Names(d.Consumers, false); s != "" {
		// The clients built on a refusing consumer fail with it: say so,
		// since "the TypeScript SDK" means nothing to a Cursor user.
		var direct []consumer.ID
		for _, r := range d.Consumers {
			if !r.Mangles {
				direct = append(direct, r.Consumer)
			}
		}
		var also []consumer.Refusal
		for _, id := range consumer.Reached(direct...)[len(direct):] {
			also = append(also, consumer.Refusal{Consumer: id})
		}
		if a := consumer.Names(also, false); a != "" {
			s += " (and so " + a + ")"
		}
		parts = append(parts, "refused by: "+s)
	}
	if s := consumer.Names(d.Consumers, true); s != "" {
		parts = append(parts, "altered by: "+s)
	}
	return strings.Join(parts, "; ")
}

// Fix repairs one finding.
type Fix struct {
	// Message says what the fix does, in a few words.
	Message string
	// Safe fixes keep the tool's contract and are applied by default.
	Safe  bool
	Edits []manifest.Edit
}

// Sort orders diagnostics by file, position, then rule.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Offset, b.Offset),
			cmp.Compare(a.ToolIndex, b.ToolIndex),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Pointer, b.Pointer),
			cmp.Compare(a.Message, b.Message),
		)
	})
}
