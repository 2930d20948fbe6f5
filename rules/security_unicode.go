package rules

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
)

// InvisibleCharacters reports text the user cannot see but the model reads.
var InvisibleCharacters = &lint.Rule{
	ID: "invisible-characters", Packs: securityPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary:      "no invisible or deceptive characters: zero-width, bidi controls, tag characters, ANSI escapes",
	Check:        checkInvisibleCharacters,
	CheckSurface: checkSurfaceInvisible,
	Doc: `Characters that a client shows as nothing, or that rearrange or recolour what
it shows, let a server hide instructions from the person who reviews a tool
while the model reads them in full:

  - Unicode tag characters (U+E0000 to U+E007F) spell ASCII invisibly;
    models read them as text ("ASCII smuggling");
  - bidirectional controls (U+202A to U+202E, U+2066 to U+2069, U+200E,
    U+200F, U+061C) make text display in another order than it is read
    ("Trojan Source", CVE-2021-42574);
  - zero-width and other invisible characters (U+200B to U+200D, U+2060 to
    U+2064, U+FEFF, U+180E, Hangul fillers, U+E0100 to U+E01EF variation
    selectors) hide text or split a word a reviewer searches for;
  - ANSI escape sequences (ESC, U+009B) and other control characters
    recolour, hide or overwrite text in terminal clients.

Every string of the tool is checked, object keys included, and on a
server's whole surface every string of its prompts, resources, resource
templates and handshake result (its instructions among them). A zero-width
joiner between two emoji and the tag sequence of a subdivision flag are
left alone.

Bad:

    {"name": "add", "description": "Adds two numbers.\u200b\u200b\udb40\udc49\udb40\udc67..."}

Good:

    {"name": "add", "description": "Adds two numbers."}

Source: Unicode Technical Standard #39, "Unicode Security Mechanisms"
(https://www.unicode.org/reports/tr39/); N. Boucher and R. Anderson,
"Trojan Source" (https://trojansource.codes/, CVE-2021-42574); J. Rehberger,
"ASCII Smuggler" write-ups on Unicode tag characters
(https://embracethered.com/blog/posts/2024/hiding-and-finding-text-with-unicode-tags/);
Trail of Bits, "Deceiving users with ANSI terminal codes in MCP"
(https://blog.trailofbits.com/2025/04/29/deceiving-users-with-ansi-terminal-codes-in-mcp/).`,
}

// invisibleKind names the class of a character that hides text, or "".
func invisibleKind(r rune) string {
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return "tag character"
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return "bidirectional control"
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x180E,
		r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, r >= 0xE0100 && r <= 0xE01EF:
		return "invisible character"
	case r == 0x1B || r == 0x9B:
		return "ANSI escape"
	case r < 0x20 && r != '\n' && r != '\t' && r != '\r', r == 0x7F, r >= 0x80 && r < 0xA0:
		return "control character"
	}
	return ""
}

func isEmoji(r rune) bool {
	return unicode.Is(unicode.So, r) || r >= 0x1F000 && r <= 0x1FAFF || r == 0xFE0F
}

// plainText reports whether s is printable ASCII, tabs and line breaks,
// which hide nothing: nearly every string, which then need not be decoded
// rune by rune.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7F || c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// hidden finds the first character of s that hides text, skipping the
// zero-width joiners of emoji sequences and the tags of subdivision flags.
func hidden(s string) (at int, r rune, kind string, count int) {
	at = -1
	if plainText(s) {
		return at, 0, "", 0
	}
	var prev rune
	inFlag := false
	for i, c := range s {
		k := invisibleKind(c)
		switch {
		case c == 0x200D:
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(c):])
			if isEmoji(prev) && isEmoji(next) {
				k = ""
			}
		case c == 0x1F3F4:
			inFlag = true
		case c >= 0xE0020 && c <= 0xE007F && inFlag:
			k = ""
			if c == 0xE007F {
				inFlag = false
			}
		default:
			inFlag = false
		}
		if k != "" {
			if at < 0 {
				at, r, kind = i, c, k
			}
			count++
		}
		prev = c
	}
	return at, r, kind, count
}

func checkInvisibleCharacters(p *lint.Pass) {
	eachString(p.Value, "", func(at func() string, s string, key bool) {
		if what, ok := hiddenFinding(s); ok {
			p.Reportf(at(), "this %s contains %s", stringOrKey(key), what)
		}
	})
}

// hiddenFinding says what hidden character s holds first, and what to do,
// for the tool rule and the surface rule alike.
func hiddenFinding(s string) (string, bool) {
	at, r, kind, n := hidden(s)
	if at < 0 {
		return "", false
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more hidden characters)", n-1)
	}
	return fmt.Sprintf("%s U+%04X at byte %d%s: %s; a reviewer cannot see it but the model reads it: remove it", english.A(kind), r, at, more, excerpt(s, at, at+utf8.RuneLen(r))), true
}

func stringOrKey(key bool) string {
	if key {
		return "key"
	}
	return "string"
}

// ToolNameHomoglyph reports names that imitate other names.
var ToolNameHomoglyph = &lint.Rule{
	ID: "tool-name-homoglyph", Packs: securityPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary:   "tool names do not imitate other tools' names with look-alike characters",
	CheckList: checkToolNameHomoglyph,
	Options:   map[string]any{"servers": wellKnownTools},
	Doc: `A tool named "reаd_file" with a Cyrillic "а", "ｒｅａｄ_file" in full-width
letters or "read_fi1e" with a digit looks like read_file to the person who
approves it, and to the model, which may call it in place of the real one.
A name is reported when its skeleton (Unicode compatibility form,
lower-case, common Cyrillic and Greek look-alikes, 0 as o and 1 as l: a
subset of the confusables of Unicode TS #39) equals the skeleton of another
tool of the list or of a well-known tool (option "servers", by default the
same list as tool-name-shadowing's) while the names differ; an error. A name with letters outside ASCII whose skeleton
is plain ASCII is reported as a warning even without a victim.

Bad:

    {"tools": [{"name": "read_file", ...}, {"name": "reаd_file", ...}]}

Good: names of ASCII letters, digits, "_", "-" and "." only, each different
at a glance.

Source: Unicode Technical Standard #39, "Unicode Security Mechanisms",
section 4 "Confusable Detection" (https://www.unicode.org/reports/tr39/);
` + sourceInvariant + `.`,
}

// confusables maps common look-alikes to the ASCII letter they imitate.
var confusables = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
	'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ї': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ɡ': 'g',
	'α': 'a', 'β': 'b', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
	'ı': 'i', 'ℓ': 'l', '0': 'o', '1': 'l', '|': 'l',
}

// skeleton is what a name looks like, for telling look-alikes.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(norm.NFKC.String(name)) {
		if invisibleKind(r) != "" {
			continue
		}
		if c, ok := confusables[r]; ok {
			r = c
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func checkToolNameHomoglyph(p *lint.ListPass) {
	bySkeleton := map[string][]string{}
	add := func(name string) {
		k := skeleton(name)
		for _, n := range bySkeleton[k] {
			if n == name {
				return
			}
		}
		bySkeleton[k] = append(bySkeleton[k], name)
	}
	for _, t := range p.Manifest.Tools {
		if t.Name != "" {
			add(t.Name)
		}
	}
	servers := p.Option("servers").(map[string][]string)
	for _, list := range servers {
		for _, n := range list {
			add(n)
		}
	}
	for _, t := range p.Manifest.Tools {
		sk := skeleton(t.Name)
		// A name already in its skeleton's form (case aside) is the
		// original; the others imitate it.
		if t.Name == "" || sk == strings.ToLower(t.Name) {
			continue
		}
		victim := ""
		for _, n := range bySkeleton[sk] {
			if n != t.Name && (victim == "" || skeleton(n) == strings.ToLower(n)) {
				victim = n
			}
		}
		switch {
		case victim != "":
			p.Reportf(t, "/name", "tool name %q looks like %q but is a different name; a reviewer or the model may take one for the other: rename it to something distinct", t.Name, victim)
		case !isASCII(t.Name) && isASCII(sk):
			p.Report(t, lint.Diagnostic{Severity: lint.Warning, RelPointer: "/name", Message: fmt.Sprintf("tool name %q uses look-alike characters for the ASCII name %q; use plain ASCII", t.Name, sk)})
		}
	}
}
