// Package guard owns what makes mcplint's output inert in its sink: every
// string that came from a tool list, a server, a file name or a
// configuration passes one of its functions before it is written, and every
// writer of a human or machine format is built on them. It has one layer per
// sink:
//
//   - Terminal (Text, Lines): characters that a terminal acts on or that
//     hide text are shown escaped, never raw: C0 controls (ESC, CR, LF, TAB
//     inside a value, the rest), DEL, C1 controls (U+0080 to U+009F, among
//     them U+009B CSI and U+009D OSC), bidirectional controls (U+202A to
//     U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C), every other format
//     character (zero-width spaces and joiners, U+FEFF, tag characters),
//     line and paragraph separators, private-use and unassigned code points,
//     variation selectors and the other default-ignorable code points.
//     Invalid UTF-8 is shown byte by byte. The escapes are Go's and bash's
//     ANSI-C quoting's: \n \r \t, \x1b for a byte, \u202e or \U000e0041 for a
//     code point. A backslash is not doubled: the escapes make the text
//     inert, they do not make it unambiguous.
//
//   - CI logs (Writer): no line, and no part of a line, that a CI runner
//     reads as a command. The GitHub Actions runner reads a workflow command
//     from a line that starts with "::" once leading white space is trimmed
//     (ActionCommand.TryParseV2, which calls String.TrimStart), and the
//     older "##[command]" form anywhere in a line (ActionCommand.TryParse,
//     which calls IndexOf), command names in any case
//     (https://github.com/actions/runner, src/Runner.Common/ActionCommand.cs
//     and src/Runner.Worker/ActionCommandManager.cs). The Azure Pipelines
//     agent reads "##vso[" anywhere in a line (Command.TryParse in
//     https://github.com/microsoft/azure-pipelines-agent,
//     src/Microsoft.VisualStudio.Services.Agent/Command.cs) and its log
//     viewer the "##[group]"-style formatting commands. So a Writer writes
//     the first ":" of a line-leading "::" (after white space, Unicode's as
//     .NET's Char.IsWhiteSpace counts it, and mcplint's own colours) and the
//     second "#" of every "##[" and "##vso[" (in any case) escaped, in the
//     escape syntax of its format: \x3a and \x23 in text. GitLab's section
//     markers (section_start:TIME:NAME) act only when followed by CR and
//     ESC[0K (build_trace_section_regex in gitlab-org/gitlab,
//     lib/gitlab/regex.rb), which the terminal layer never lets through. The
//     guard applies to text output always, not only when a CI variable
//     (GITHUB_ACTIONS, TF_BUILD, GITLAB_CI) is set: the GitHub Action prints
//     the text format into the job's log, logs are copied between systems,
//     and the cost is one pass over bytes that are almost all plain. A
//     Writer also escapes, as a last line of defence, every character the
//     terminal layer escapes, except the line feeds and tabs of mcplint's
//     own layout and, when colour is on, its SGR colour sequences.
//
//   - GitHub workflow commands (WorkflowData, WorkflowProperty): the data
//     and the properties of the commands mcplint means to emit are escaped
//     as the Actions toolkit escapes them (escapeData and escapeProperty in
//     https://github.com/actions/toolkit, packages/core/src/command.ts: "%",
//     CR and LF; ":" and "," as well in properties), after the terminal and
//     CI layers, so that each finding is one command whose values read back
//     as the text shows them.
//
//   - Markdown (Code): text from input goes in a code span, which
//     CommonMark and GitHub Flavored Markdown show as text whatever it holds:
//     no link, image, autolink (GFM's bare URLs and e-mail addresses
//     included), raw HTML, entity or reference definition is read inside
//     one, unlike backslash escapes, which GitHub's second, post-parse
//     autolinking pass ignores. A "|" is escaped for tables.
//
//   - SARIF message text (SARIFText): the terminal layer, and "[" and "]"
//     escaped with a backslash, as SARIF 2.1.0 §3.11.6 asks of plain text
//     in a message so that no embedded link ("[text](target)") is read in
//     it.
//
//   - JSON and XML documents (NewJSONWriter, NewXMLWriter; JSON for a
//     document held whole, such as a lock file or a converted tool list):
//     the encoders
//     make the documents valid for any input (encoding/json and
//     go-json-experiment replace invalid UTF-8 with U+FFFD; encoding/xml
//     replaces the code points XML 1.0 cannot carry, even as references,
//     with U+FFFD, so writers put such text through the terminal layer
//     first, which spells them out). These writers then spell every
//     character the terminal layer escapes, and the runner command markers,
//     with the format's own escapes (\u0023 in JSON, &#x23; in XML), so the
//     bytes hold nothing a terminal or a CI runner acts on while every string
//     decodes to exactly what was encoded.
//
// Everything here is a pure function of its input or a writer with a bound
// on what it holds (a few bytes of an unfinished character or marker).
package guard
