// Package jscode writes JavaScript source text from strangers' values so
// that the text is inert by construction: whatever a value holds, it ends
// up as one literal and nothing else.
//
// Every value reaches the source through one of its encoders, never by
// pasting: String for string literals, Number for numeric literals, Value
// for a decoded JSON value, Key for an object literal's property name,
// Comment for the text of a line comment, and Regexp for a regular
// expression literal. Their output is printable ASCII only, so no line
// terminator, bidirectional override or other invisible character reaches
// the file, and a reader sees exactly what a JavaScript parser sees.
//
// String escapes everything outside a small safe set (letters, digits,
// spaces and the ASCII punctuation that has no meaning inside a
// double-quoted literal), including the quote, the backslash, "<" and ">"
// (so "</script" and "<!--" cannot appear), "&" and the backtick; every
// other character, U+2028 and U+2029 among them, becomes a \uXXXX escape.
// Template literals are never used. A "#" right after a "#" is escaped
// too, in literals and comments alike, so that no CI runner's command
// marker ("##[", "##vso["; see package guard) is in a module printed into
// a log.
//
// Regexp does not check a pattern against a list of known bad sequences:
// it parses the pattern with a recursive-descent parser of the ECMAScript
// Pattern grammar (ECMA-262, 22.2.1) and writes the literal back from the
// parse tree, so its body can never hold an unescaped "/", a line
// terminator, or end in an odd backslash. The grammar is the one of
// Unicode mode (the u flag), which JSON Schema validators for JavaScript
// (Ajv) compile patterns with; the v flag (unicodeSets) is not used, since
// it refuses classes that are valid under u, such as [(]. The parser is
// conservative: it accepts only what every engine since ES2018 compiles
// (Node.js 18 and later), and refuses the rest (an unknown \p{...} name, a
// non-ASCII group name, duplicate group names, modifiers such as (?i:...),
// nesting deeper than MaxRegexpDepth). A caller must never write a refused
// pattern as a literal: a literal the engine refuses is a syntax error for
// the whole module.
package jscode
