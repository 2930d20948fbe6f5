package report

import "github.com/mcpfit/mcplint/internal/elide"

// MaxShown bounds the bytes of a tool's name and of a finding's pointer as
// a report writes them (elide.MaxKey, which says why).
const MaxShown = elide.MaxKey

// shown is a tool's name or a finding's pointer as every format writes
// it, text-like and machine alike: whole when at most MaxShown bytes,
// otherwise its start and end around a note of the bytes left out. The
// findings keep the exact values (fixes, merging and baselines need them);
// only what is written is cut.
func shown(s string) string { return elide.Middle(s, MaxShown) }

// findingKey is a tool's name or a finding's pointer as a key that must
// stay stable from run to run (a SARIF fingerprint, a baseline entry):
// whole when at most MaxShown bytes, otherwise its start and the SHA-256
// digest of the whole, which tells long values apart as well as they do.
func findingKey(s string) string { return elide.Key(s, MaxShown) }
