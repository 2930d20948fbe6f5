package lint

import (
	"github.com/mcpfit/mcplint/consumer"
)

// Harm says, for a rule that no consumer's refusal backs (a risk, an
// attack, a change between two versions), what its findings cost: the
// severity policy reads it where it cannot read consumers.
type Harm int

const (
	// NoHarm: the rule names the consumers it protects instead.
	NoHarm Harm = iota
	// Breaks: the finding breaks a caller, or attacks the model or the
	// user.
	Breaks
	// Risks: it may break a caller, or makes models use the tool worse.
	Risks
	// Notes: worth knowing; nothing breaks.
	Notes
)

// SeverityPolicy is the written rule every rule's default severity follows
// (`mcplint rules` and docs/rules.md print it; a test holds the catalogue to
// it). PolicySeverity applies it.
const SeverityPolicy = `A rule's severity follows from what its consumers do with what it reports
(their profile lines, package consumer):

  - error: the MCP specification (a MUST) or the MCP TypeScript SDK loses
    the tool or the list, and with them every client built on them; or
    the rule is opt-in (not on by default) and its consumer refuses:
    whoever selects the rule has chosen that mode;
  - warning: another consumer refuses the request or drops the tool, or
    some of its versions may (a refusal that varies), or its document
    discourages it (SHOULD);
  - info: consumers only alter it (rename, drop a keyword): the tool
    still works.

A rule no consumer backs says what its findings cost: error when they break
a caller or attack the model or the user, warning when they may, or make
models use the tool worse, info when they are worth knowing. A finding may
be more severe than its rule's default when its own consumers say so (a
tool without a name breaks the schema every version requires, while bad
characters in one are only discouraged); a refusal only some findings carry
is marked Refusal.Some.`

// PolicySeverity is the severity the policy gives rule r, and false when
// the rule says neither its consumers nor its harm.
func PolicySeverity(r *Rule) (Severity, bool) {
	switch r.Harm {
	case Breaks:
		return Error, true
	case Risks:
		return Warning, true
	case Notes:
		return Info, true
	}
	var worst Severity
	for _, f := range r.Consumers {
		if !f.Some {
			worst = max(worst, RefusalSeverity(f, DefaultOn(r)))
		}
	}
	return worst, worst != 0
}

// RefusalSeverity is the severity the policy gives one consumer's refusal,
// for a rule that is on by default or not.
func RefusalSeverity(f consumer.Refusal, defaultOn bool) Severity {
	a := f.Action()
	switch {
	case a.Loses() && (f.Consumer == consumer.MCPSpec || f.Consumer == consumer.TSSDK):
		return Error
	case a.Loses() && !defaultOn:
		return Error
	case a.Loses(), a == consumer.MayRefuse, a == consumer.Discourages:
		return Warning
	}
	return Info
}
