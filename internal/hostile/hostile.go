// Package hostile holds strings built to break out of the syntax they are
// written into: JavaScript and TypeScript source, JSON, YAML, line
// comments, HTML around an inlined script. Tests feed them through every
// writer that embeds a stranger's string in a syntax and judge the result
// with that syntax's own reader.
package hostile

import "strings"

// Strings are valid UTF-8, each aimed at one way out of a literal, a key
// or a comment, or at a CI runner reading a command in the text.
var Strings = []string{
	// JavaScript and TypeScript.
	`"); require("child_process").execSync("id"); //`,
	`'); process.exit(1); //`,
	"`); fetch(`//x`); //",
	"${process.exit(1)}", "`${process.exit(1)}`",
	`*/ process.exit(1) /*`, `// x`,
	`\`, `\\`, `\"`, `\u0022`, `\x22`, `"`, `'`, "`",
	"a\nb", "a\r\nb", "a\rb", "\u2028process.exit(1)", "\u2029", "\u0085", "\v\f",
	"\x00", "\x1b[2J\x1b]0;title\x07", "\u202eevil\u202c", "\ufeff", "\u200b", "\u009b31m",
	"</script><script>process.exit(1)</script>", "<!--", "-->", "]]>",
	"__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf",
	"z", "import", "export", "default", "await", "eval", "Function",
	"é", "😀", "中文", "\U0010FFFF", "\uFFFD",
	// YAML.
	"key: value", "a:b", "- item", "-", "# comment", "a #b", "&anchor x", "*alias", "!!python/object/apply:os.system",
	"!tag x", "!!binary aGk=", "<<", "=", "? complex", "|", ">-", "---", "...", "--- !tag", "%YAML 1.2", "@at",
	"null", "Null", "~", "true", "yes", "No", "on", "OFF", "y", "0x1F", "0o17", "017", "1e3", "1_000",
	".inf", "-.inf", ".nan", "2001-12-14", "12:30:45", "+1", "", " ", "  lead", "trail ", "\t", "a\tb",
	"{a: 1}", "[1, 2]", "{", "]", `"quoted"`, `'single'`, "a\"b'c", "multi\n  indented\n- line",
	"key:\n  nested: 1", ": ", "a: b # c", ",", "%",
	strings.Repeat("k", 1100),
	// JSON.
	`{"__proto__": {"polluted": true}}`, `","x":"`, `\u0000`, "\x7f",
	// CI logs the output is printed in: runner command markers, whole or
	// split by what an encoder escapes.
	"##[error]x", "x ##vso[task.setvariable variable=a]b", "##VSO[task.complete]", "###[group]", "#\u00ad#[error]",
	"::error::x", "\u0085::warning::x", "\u3000::notice::x", "%0A::error::x", "#", "##",
}

// Patterns are regular expressions aimed at the end of a regular
// expression literal, with the look-ahead that stopped an earlier check
// of the pattern before it reached the trouble.
var Patterns = []string{
	`(?=x)abc\`, `(?=x)abc\\`, `(?=x)abc\\\`, `(?=x)/);process.exit(1);//`, `a/b`, `[/]`, `\/`, `[\/]`,
	`abc\`, `\`, "a\nb", "a\u2028b", "[\n]", `*/`, `/*`, `//`, `(?<=a)b/`, `[^/]+/`, `\u{2F}`, `\x2F`,
	`(?<n>x)\k<n>/`, `\p{L}+/`, `[\]/]`, `[/\]]`, `(`, `)`, `[`, `\_/`, `(?i:a)/`, "`${x}`", `"); x(); ("`,
	"</script>", "\u202e", "😀/",
}
