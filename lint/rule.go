// Package lint is the engine and its vocabulary: Rule, Pass, Diagnostic, Fix,
// Severity, rule selection, running rules over the tools of a manifest,
// sorting what they report, and applying fixes to a fixed point. It contains
// no rule: the catalogue lives in package rules.
//
// A rule is a value (see Rule) with a Check run once per tool, a CheckList
// run once per manifest, and/or a CheckSurface run once per manifest over
// its prompts, resources, resource templates and results. It reports through its pass at a JSON
// Pointer relative to the tool, optionally with a Fix: edits at pointers plus
// a Safe flag. The engine turns edits into byte splices through the
// manifest's index, so a fix changes only the bytes it must.
//
// Selection follows ruff: --select replaces the default set (the packs that
// are on by default), --extend-select adds to it, --ignore removes; each takes
// rule IDs, pack names, or "all".
package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
)

// Severity is how serious a finding is.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "none"
}

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "info":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// FixKind says whether a rule can fix what it reports, and how safely.
type FixKind int

const (
	NoFix FixKind = iota
	// SafeFix keeps the tool's contract: what was accepted is still
	// accepted, what was meant is still meant.
	SafeFix
	// UnsafeFix changes the contract; it runs only with --unsafe-fixes.
	UnsafeFix
	// MixedFix: some findings get a safe fix, others an unsafe one.
	MixedFix
)

func (k FixKind) String() string {
	switch k {
	case SafeFix:
		return "safe"
	case UnsafeFix:
		return "unsafe"
	case MixedFix:
		return "safe/unsafe"
	}
	return "none"
}

// Rule is one check. Its fields are its documentation: `mcplint rules`
// prints them and the rules page is generated from them.
type Rule struct {
	// ID is stable, kebab-case and never reused.
	ID string
	// Packs are the groups the rule belongs to; the first is its home.
	Packs []string
	// Severity is the default severity.
	Severity Severity
	// Summary is one line: what the rule demands.
	Summary string
	// Doc says why, who breaks, a bad and a good example, and the sources.
	Doc string
	// Fix says what kind of fix the rule offers.
	Fix FixKind
	// Consumers are the programs the rule protects: each refuses (or
	// mangles) what the rule reports, per a public source. Findings name
	// them, and a rule protecting a consumer in its default mode is on by
	// default (DefaultOn).
	Consumers []consumer.Refusal
	// Harm, for a rule without Consumers, says what its findings cost
	// (the severity policy, SeverityPolicy).
	Harm Harm
	// Subject groups rules that see one problem through different
	// consumers' limits (a tool name, a root combinator, an array without
	// items). When several such rules report at one place of one tool,
	// the run keeps one finding that names every consumer (merge.go).
	Subject string
	// Defers are the rules this one gives way to when they run: it
	// withholds a fix that would undo theirs, or a finding they make
	// (Pass.Runs). mcplint rules names them.
	Defers []*Rule
	// Options are the rule's settings and their defaults. A value set for
	// one takes the Go type of its default (OptionValue).
	Options map[string]any
	// CheckOption, when set, reports an option value of the right type
	// that the rule still cannot use (a form it does not know, a bound
	// that is not positive). New refuses a configuration with one, so a
	// rule reads its options as they were given or defaulted, and a
	// mistake is a usage error rather than a fix quietly not made.
	CheckOption func(name string, value any) error
	// Check runs once per tool, for several tools at once (one per CPU).
	Check func(*Pass)
	// CheckList runs once per manifest, for rules that compare tools,
	// while the tools' Check runs go on: a rule keeps its state in its
	// pass, shared with no other rule.
	CheckList func(*ListPass)
	// CheckSurface runs once per manifest over the rest of the server's
	// surface: prompts, resources, resource templates and the results
	// that carry them (SurfacePass).
	CheckSurface func(*SurfacePass)
}

// InPack reports whether the rule belongs to pack.
func (r *Rule) InPack(pack string) bool {
	for _, p := range r.Packs {
		if p == pack {
			return true
		}
	}
	return false
}

// DefaultOn reports whether a rule runs when no selection says otherwise:
// it is in a default pack, or it protects a consumer in the mode clients
// use without being asked (consumer.Consumer.Default), since a server
// author cannot know which clients will load the server.
func DefaultOn(r *Rule) bool {
	if slices.ContainsFunc(DefaultPacks, r.InPack) {
		return true
	}
	return slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool {
		c := consumer.ByID(f.Consumer)
		return c != nil && c.Default
	})
}

// Protocols are the MCP protocol versions rules know, oldest first.
var Protocols = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// LatestProtocol is the newest protocol version.
var LatestProtocol = Protocols[len(Protocols)-1]

// InUse are the protocol versions clients still negotiate, checked when no
// version is chosen: a server answers every client, so what any of these
// versions refuses is worth reporting. The TypeScript SDK, which most
// clients are built on, still accepts every one of them.
var InUse = Protocols

// AtLeast reports whether protocol version p is v or newer. Versions are
// dates, so they order as strings.
func AtLeast(p, v string) bool { return p >= v }

// ValidProtocol reports whether p is a known protocol version.
func ValidProtocol(p string) bool {
	for _, v := range Protocols {
		if v == p {
			return true
		}
	}
	return false
}

// Merges returns the rules of all whose findings merge with r's: those
// that report the same subject (Rule.Subject), in all's order.
func Merges(r *Rule, all []*Rule) []*Rule {
	if r.Subject == "" {
		return nil
	}
	var out []*Rule
	for _, o := range all {
		if o != r && o.Subject == r.Subject {
			out = append(out, o)
		}
	}
	return out
}

// OfferedFix is the kind of fix a finding of r can carry: r's own
// (Rule.Fix), and that of the rules it merges with (Merges), since a
// finding r keeps takes a merged one's fix when it has none. `mcplint
// rules` prints it as the rule's "Fix:".
func OfferedFix(r *Rule, all []*Rule) FixKind {
	k := r.Fix
	for _, o := range Merges(r, all) {
		k = k.with(o.Fix)
	}
	return k
}

// with is the kind of fix offered by k and o together.
func (k FixKind) with(o FixKind) FixKind {
	switch {
	case k == o, o == NoFix:
		return k
	case k == NoFix:
		return o
	}
	return MixedFix
}

// Allows reports whether a fix of kind f is one that k offers.
func (k FixKind) Allows(f FixKind) bool {
	return f == NoFix || k == f || k == MixedFix
}
