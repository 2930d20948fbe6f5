package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/elide"
	"github.com/mcpfit/mcplint/manifest"
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
	// Complete, when a rule sets it, makes the finding's Message and Fix
	// once the run keeps the finding, and the run clears it before handing
	// the finding over. A finding merged into another rule's about the
	// same subject at the same place (Rule.Subject) is never completed,
	// unless the kept finding takes its fix: a tool name with a dot is
	// reported by three rules, and the messages and fixes of the two merged
	// away were a twentieth of a run's time. What decides the merge (the
	// place, Severity, Consumers) must be set when the finding is reported.
	Complete func() (message string, fix *Fix)
	// Consumers are the programs that refuse (or alter) what was found:
	// the rule's Consumers unless the rule reported narrower ones.
	Consumers []consumer.Refusal
	// Merged lists the other rules that reported the same subject at the
	// same place; their consumers are in Consumers (see Rule.Subject).
	Merged []string
	// Eras are the protocol versions of the eras of a running server
	// whose clients see what was found ("2026-07-28", "2025-11-25"): a
	// live check sets them; a file has no eras.
	Eras []string

	// RelPointer is the pointer relative to the tool, as the rule reported it.
	RelPointer string
	// Offset is the byte offset of the finding in its source.
	Offset int
	// End is where the value the finding points at ends in the source; zero
	// when the pointer names something missing (a keyword to add).
	End manifest.Position

	// Silenced marks, while a run merges its findings, one that an ignore
	// names (a silencer's, or a suppressed one), kept so that the finding
	// it merges into is dropped with it. No finding a run hands over has it.
	Silenced bool
}

// Rules returns the IDs the finding is known by: its rule's, then those of
// the rules merged into it (Merged). Ignoring any of them silences it.
func (d *Diagnostic) Rules() []string {
	return append([]string{d.Rule}, d.Merged...)
}

// complete makes the message and fix the rule left to Complete, if any.
func (d *Diagnostic) complete() {
	if f := d.Complete; f != nil {
		d.Complete = nil
		d.Message, d.Fix = f()
		d.bound()
	}
}

// MaxMessage bounds the bytes of a finding's message, and of its fix's: a
// longer one keeps its start and end, and says how many bytes of the
// middle were left out. Messages quote what they are about (a name, a
// key, a value), and a stranger's manifest can make that a hundred
// kilobytes long, repeated in thousands of findings; the longest message
// of a real tool list is a few hundred bytes.
const MaxMessage = 4 << 10

// bound holds the finding's message and its fix's to MaxMessage. Every
// finding passes it when its rule reports it (adopt), and again when its
// message is made later (complete).
func (d *Diagnostic) bound() {
	d.Message = elide.Middle(d.Message, MaxMessage)
	if f := d.Fix; f != nil && len(f.Message) > MaxMessage {
		f.Message = elide.Middle(f.Message, MaxMessage)
	}
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
// "refused by: Anthropic API, Claude Code; discouraged by: MCP
// specification (SHOULD); altered by: VS Code", or "".
func (d *Diagnostic) ConsumerNote() string {
	var parts []string
	refuses := func(r consumer.Refusal) bool { return !r.Mangles && !r.Discouraged() }
	if s := consumer.NamesOf(d.Consumers, refuses); s != "" {
		// The clients built on a refusing consumer fail with it: say so,
		// since "the TypeScript SDK" means nothing to a Cursor user.
		var direct []consumer.ID
		for _, r := range d.Consumers {
			if refuses(r) {
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
	if s := consumer.NamesOf(d.Consumers, consumer.Refusal.Discouraged); s != "" {
		parts = append(parts, "discouraged by: "+s+" (SHOULD)")
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
	Safe bool
	// Edits change the tool at JSON Pointers relative to it, as the rule
	// writes them.
	Edits []manifest.Edit
	// Build, given instead of Edits, computes them: the engine calls it only
	// in runs that need the edits (Config.FixEdits), so that a rule whose
	// fixes cost more than its findings (one rewrite per parameter, say)
	// does not pay for them when the fixes are only named.
	Build func() []manifest.Edit
	// TextEdits are the fix as edits of the source, in source order, which
	// the fix loop applies and SARIF reports. The engine fills them in runs
	// that need them; they stay empty when the fix's edits cannot all be
	// made together, and such a fix is never applied.
	TextEdits []manifest.TextEdit

	built bool  // Edits and TextEdits are final
	err   error // why Edits could not be turned into TextEdits
}

// Sort orders diagnostics by file, position, then rule.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, compareDiagnostics)
}

func compareDiagnostics(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Offset, b.Offset),
		cmp.Compare(a.ToolIndex, b.ToolIndex),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Pointer, b.Pointer),
		cmp.Compare(a.Message, b.Message),
	)
}
