package jscode

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The parse tree of a pattern keeps each escape as the source spelled it
// (escapes are ASCII in Unicode mode) and each literal character as its
// code point, so that the writer decides alone how a character is spelled
// in the literal.

// reAlt is one alternative of a disjunction: a sequence of terms.
type reAlt []reTerm

// reTerm is an atom or an assertion, with its quantifier ("" for none).
type reTerm struct {
	atom  reAtom
	quant string
}

// reAtom is one of: reChar, reEscape, reSyntax, *reGroup, *reClass.
type reAtom any

// reChar is a character that stands for itself.
type reChar rune

// reEscape is an escape sequence as written, backslash included.
type reEscape string

// reSyntax is ".", "^" or "$".
type reSyntax string

// reGroup is a group or lookaround: open is "(", "(?:", "(?=", "(?!",
// "(?<=", "(?<!" or "(?<name>".
type reGroup struct {
	open string
	alts []reAlt
}

// reClass is a character class.
type reClass struct {
	negated bool
	items   []reClassItem
}

// reClassItem is one class atom, or a range from lo to hi.
type reClassItem struct {
	lo, hi  reAtom // reChar or reEscape; hi is nil for a single atom
	isRange bool
}

// RegexpError says why a pattern was refused, at a byte offset of it.
type RegexpError struct {
	Offset int
	Msg    string
}

func (e *RegexpError) Error() string {
	return fmt.Sprintf("%s at offset %d", e.Msg, e.Offset)
}

// MaxRegexpDepth is the deepest nesting of groups and classes the parser
// accepts: deeper patterns are refused rather than risked with an engine's
// own limits.
const MaxRegexpDepth = 100

// maxCaptures keeps far below the engines' limits on capturing groups
// (V8: 65,535).
const maxCaptures = 10000

// maxQuantifierDigits keeps {n,m} counts where engines agree: V8 clamps
// larger counts, so it would not refuse {n,m} with n > m there.
const maxQuantifierDigits = 9

type reParser struct {
	src      string
	pos      int
	depth    int
	captures int
	names    map[string]bool
	// backrefs and namedRefs are checked once the whole pattern is read:
	// a reference may come before its group.
	maxBackref    int
	maxBackrefPos int
	namedRefs     map[string]int
}

// Regexp writes pattern, an ECMAScript regular expression pattern, as a
// regular expression literal with the u flag, rebuilt from its parse tree.
// A pattern that is not valid in Unicode mode, or that the parser does not
// accept for the conservative reasons the package doc lists, is an error
// of type *RegexpError.
func Regexp(pattern string) (string, error) {
	alts, err := parseRegexp(pattern)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteByte('/')
	if pattern == "" {
		// "//" would be a comment.
		b.WriteString("(?:)")
	}
	writeAlts(&b, alts)
	b.WriteString("/u")
	return b.String(), nil
}

func parseRegexp(pattern string) ([]reAlt, error) {
	p := &reParser{src: pattern, names: map[string]bool{}, namedRefs: map[string]int{}}
	alts, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.src) {
		// Only an unmatched ")" stops a top-level disjunction.
		return nil, p.fail("unmatched \")\"")
	}
	if p.maxBackref > p.captures {
		return nil, &RegexpError{Offset: p.maxBackrefPos, Msg: fmt.Sprintf("back-reference \\%d names a group the pattern does not have", p.maxBackref)}
	}
	for name, at := range p.namedRefs {
		if !p.names[name] {
			return nil, &RegexpError{Offset: at, Msg: fmt.Sprintf("\\k<%s> names a group the pattern does not have", name)}
		}
	}
	return alts, nil
}

func (p *reParser) fail(format string, args ...any) error {
	return &RegexpError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *reParser) eof() bool { return p.pos >= len(p.src) }

func (p *reParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *reParser) has(prefix string) bool { return strings.HasPrefix(p.src[p.pos:], prefix) }

// disjunction reads alternatives up to the end of the pattern or an
// unconsumed ")".
func (p *reParser) disjunction() ([]reAlt, error) {
	var alts []reAlt
	for {
		alt, err := p.alternative()
		if err != nil {
			return nil, err
		}
		alts = append(alts, alt)
		if p.peek() != '|' || p.eof() {
			return alts, nil
		}
		p.pos++
	}
}

func (p *reParser) alternative() (reAlt, error) {
	alt := reAlt{}
	for !p.eof() && p.peek() != '|' && p.peek() != ')' {
		t, err := p.term()
		if err != nil {
			return nil, err
		}
		alt = append(alt, t)
	}
	return alt, nil
}

func (p *reParser) term() (reTerm, error) {
	start := p.pos
	atom, quantifiable, err := p.atom()
	if err != nil {
		return reTerm{}, err
	}
	q, err := p.quantifier()
	if err != nil {
		return reTerm{}, err
	}
	if q != "" && !quantifiable {
		return reTerm{}, &RegexpError{Offset: start, Msg: "an assertion cannot be repeated in Unicode mode"}
	}
	return reTerm{atom: atom, quant: q}, nil
}

// atom reads an atom or an assertion, and says whether a quantifier may
// follow it.
func (p *reParser) atom() (reAtom, bool, error) {
	c := p.peek()
	switch c {
	case '^', '$':
		p.pos++
		return reSyntax(string(c)), false, nil
	case '.':
		p.pos++
		return reSyntax("."), true, nil
	case '(':
		return p.group()
	case '[':
		cl, err := p.class()
		return cl, true, err
	case '\\':
		if p.has(`\b`) || p.has(`\B`) {
			p.pos += 2
			return reEscape(p.src[p.pos-2 : p.pos]), false, nil
		}
		e, err := p.atomEscape()
		return e, true, err
	case '*', '+', '?', '{':
		return nil, false, p.fail("nothing to repeat")
	case ']', '}':
		return nil, false, p.fail("lone %q: write it escaped in Unicode mode", c)
	}
	r, err := p.char()
	return reChar(r), true, err
}

// char reads one source character.
func (p *reParser) char() (rune, error) {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	if r == utf8.RuneError && n <= 1 {
		return 0, p.fail("invalid UTF-8")
	}
	p.pos += n
	return r, nil
}

func (p *reParser) quantifier() (string, error) {
	start := p.pos
	switch p.peek() {
	case '*', '+', '?':
		p.pos++
	case '{':
		p.pos++
		lo := p.digits()
		if lo == "" {
			return "", &RegexpError{Offset: start, Msg: "lone \"{\": write it escaped in Unicode mode"}
		}
		hi, hasHi := lo, false
		if p.peek() == ',' {
			p.pos++
			hi, hasHi = p.digits(), true
		}
		if p.peek() != '}' {
			return "", &RegexpError{Offset: start, Msg: "incomplete quantifier"}
		}
		p.pos++
		if len(lo) > maxQuantifierDigits || len(hi) > maxQuantifierDigits {
			return "", &RegexpError{Offset: start, Msg: "quantifier count too large"}
		}
		if hasHi && hi != "" && atoi(lo) > atoi(hi) {
			return "", &RegexpError{Offset: start, Msg: "numbers out of order in {} quantifier"}
		}
	default:
		return "", nil
	}
	if p.peek() == '?' {
		p.pos++
	}
	return p.src[start:p.pos], nil
}

func (p *reParser) digits() string {
	start := p.pos
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		p.pos++
	}
	return p.src[start:p.pos]
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func (p *reParser) group() (reAtom, bool, error) {
	start := p.pos
	var open string
	quantifiable := true
	switch {
	case p.has("(?:"):
		open = "(?:"
	case p.has("(?="), p.has("(?!"):
		open, quantifiable = p.src[p.pos:p.pos+3], false
	case p.has("(?<="), p.has("(?<!"):
		open, quantifiable = p.src[p.pos:p.pos+4], false
	case p.has("(?<"):
		p.pos += 3
		name, err := p.groupName()
		if err != nil {
			return nil, false, err
		}
		if p.names[name] {
			return nil, false, &RegexpError{Offset: start, Msg: fmt.Sprintf("duplicate group name %q", name)}
		}
		p.names[name] = true
		p.pos = start
		open = "(?<" + name + ">"
		p.captures++
	case p.has("(?"):
		return nil, false, p.fail("unsupported group (?%s", p.src[p.pos+2:min(p.pos+3, len(p.src))])
	default:
		open = "("
		p.captures++
	}
	if p.captures > maxCaptures {
		return nil, false, p.fail("more than %d capturing groups", maxCaptures)
	}
	p.pos += len(open)
	if err := p.enter(); err != nil {
		return nil, false, err
	}
	alts, err := p.disjunction()
	p.depth--
	if err != nil {
		return nil, false, err
	}
	if p.peek() != ')' || p.eof() {
		return nil, false, &RegexpError{Offset: start, Msg: "unterminated group"}
	}
	p.pos++
	return &reGroup{open: open, alts: alts}, quantifiable, nil
}

func (p *reParser) enter() error {
	p.depth++
	if p.depth > MaxRegexpDepth {
		return p.fail("groups and classes nested deeper than %d", MaxRegexpDepth)
	}
	return nil
}

// groupName reads "name>" after "(?<" or "\k<". Only ASCII identifiers
// are accepted: names with other characters or escapes depend on an
// engine's Unicode tables.
func (p *reParser) groupName() (string, error) {
	start := p.pos
	for !p.eof() && p.peek() != '>' {
		p.pos++
	}
	if p.eof() {
		return "", &RegexpError{Offset: start, Msg: "unterminated group name"}
	}
	name := p.src[start:p.pos]
	if !IsIdentifier(name) {
		return "", &RegexpError{Offset: start, Msg: fmt.Sprintf("group name %q is not an ASCII identifier", name)}
	}
	p.pos++
	return name, nil
}

// atomEscape reads an escape outside a class.
func (p *reParser) atomEscape() (reAtom, error) {
	start := p.pos
	p.pos++ // the backslash
	if p.eof() {
		return nil, &RegexpError{Offset: start, Msg: "\\ at end of pattern"}
	}
	switch c := p.peek(); {
	case c >= '1' && c <= '9':
		n := p.digits()
		if len(n) > maxQuantifierDigits {
			return nil, &RegexpError{Offset: start, Msg: "back-reference number too large"}
		}
		if v := atoi(n); v > p.maxBackref {
			p.maxBackref, p.maxBackrefPos = v, start
		}
		return reEscape(p.src[start:p.pos]), nil
	case c == 'k':
		p.pos++
		if p.peek() != '<' {
			return nil, &RegexpError{Offset: start, Msg: "\\k must name a group: \\k<name>"}
		}
		p.pos++
		name, err := p.groupName()
		if err != nil {
			return nil, err
		}
		if _, seen := p.namedRefs[name]; !seen {
			p.namedRefs[name] = start
		}
		return reEscape(p.src[start:p.pos]), nil
	}
	if _, err := p.escapeBody(start, false); err != nil {
		return nil, err
	}
	return reEscape(p.src[start:p.pos]), nil
}

// escapeBody reads what follows the backslash at start of a character
// escape or class escape (inClass adds \b for backspace and \-) and
// returns the character it stands for, or -1 for a class escape (\d,
// \p{...}, ...).
func (p *reParser) escapeBody(start int, inClass bool) (rune, error) {
	c := p.peek()
	p.pos++
	switch {
	case strings.IndexByte("dDsSwW", c) >= 0:
		return -1, nil
	case c == 'p' || c == 'P':
		return -1, p.property(start)
	case c == 'f':
		return '\f', nil
	case c == 'n':
		return '\n', nil
	case c == 'r':
		return '\r', nil
	case c == 't':
		return '\t', nil
	case c == 'v':
		return '\v', nil
	case c == 'b' && inClass:
		return '\b', nil
	case c == '-' && inClass:
		return '-', nil
	case c == 'c':
		l := p.peek()
		if !(l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z') {
			return 0, &RegexpError{Offset: start, Msg: "\\c must be followed by an ASCII letter in Unicode mode"}
		}
		p.pos++
		return rune(l % 32), nil
	case c == '0':
		if d := p.peek(); d >= '0' && d <= '9' {
			return 0, &RegexpError{Offset: start, Msg: "octal escapes are not allowed in Unicode mode"}
		}
		return 0, nil
	case c == 'x':
		v, ok := p.hex(2)
		if !ok {
			return 0, &RegexpError{Offset: start, Msg: "\\x must be followed by two hexadecimal digits"}
		}
		return v, nil
	case c == 'u':
		return p.unicodeEscape(start)
	case strings.IndexByte(`^$\.*+?()[]{}|/`, c) >= 0:
		return rune(c), nil
	}
	p.pos--
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return 0, &RegexpError{Offset: start, Msg: fmt.Sprintf("invalid escape \\%s in Unicode mode", Comment(string(r)))}
}

func (p *reParser) hex(n int) (rune, bool) {
	if p.pos+n > len(p.src) {
		return 0, false
	}
	var v rune
	for i := 0; i < n; i++ {
		d := hexDigit(p.src[p.pos+i])
		if d < 0 {
			return 0, false
		}
		v = v*16 + d
	}
	p.pos += n
	return v, true
}

func hexDigit(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// unicodeEscape reads what follows "\u": {hex...} or four hex digits, a
// lead surrogate and "\uXXXX" trail surrogate making one code point.
func (p *reParser) unicodeEscape(start int) (rune, error) {
	if p.peek() == '{' {
		p.pos++
		var v rune
		digits := 0
		for !p.eof() && hexDigit(p.peek()) >= 0 {
			v = v*16 + hexDigit(p.peek())
			p.pos++
			digits++
			if v > utf8.MaxRune {
				return 0, &RegexpError{Offset: start, Msg: "\\u{...} beyond U+10FFFF"}
			}
		}
		if digits == 0 || p.peek() != '}' {
			return 0, &RegexpError{Offset: start, Msg: "malformed \\u{...} escape"}
		}
		p.pos++
		return v, nil
	}
	v, ok := p.hex(4)
	if !ok {
		return 0, &RegexpError{Offset: start, Msg: "\\u must be followed by four hexadecimal digits or {...}"}
	}
	if v >= 0xd800 && v <= 0xdbff && p.has(`\u`) {
		save := p.pos
		p.pos += 2
		if t, ok := p.hex(4); ok && t >= 0xdc00 && t <= 0xdfff {
			return 0x10000 + (v-0xd800)<<10 + (t - 0xdc00), nil
		}
		p.pos = save
	}
	return v, nil
}

// class reads a character class.
func (p *reParser) class() (reAtom, error) {
	start := p.pos
	p.pos++
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	cl := &reClass{}
	if p.peek() == '^' {
		cl.negated = true
		p.pos++
	}
	for {
		if p.eof() {
			return nil, &RegexpError{Offset: start, Msg: "unterminated character class"}
		}
		if p.peek() == ']' {
			p.pos++
			return cl, nil
		}
		loStart := p.pos
		lo, loVal, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if p.peek() != '-' || p.pos+1 >= len(p.src) || p.src[p.pos+1] == ']' {
			cl.items = append(cl.items, reClassItem{lo: lo})
			continue
		}
		p.pos++
		hi, hiVal, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if loVal < 0 || hiVal < 0 {
			return nil, &RegexpError{Offset: loStart, Msg: "a class escape cannot bound a range in Unicode mode"}
		}
		if loVal > hiVal {
			return nil, &RegexpError{Offset: loStart, Msg: "range out of order in character class"}
		}
		cl.items = append(cl.items, reClassItem{lo: lo, hi: hi, isRange: true})
	}
}

// classAtom reads one class atom and the character it stands for (-1 for
// a class escape).
func (p *reParser) classAtom() (reAtom, rune, error) {
	if p.peek() != '\\' {
		r, err := p.char()
		return reChar(r), r, err
	}
	start := p.pos
	p.pos++
	if p.eof() {
		return nil, 0, &RegexpError{Offset: start, Msg: "\\ at end of pattern"}
	}
	v, err := p.escapeBody(start, true)
	if err != nil {
		return nil, 0, err
	}
	return reEscape(p.src[start:p.pos]), v, nil
}

// property reads "{...}" after \p or \P: a General_Category value, a
// binary property, or name=value for General_Category, Script and
// Script_Extensions (ECMA-262, 22.2.2.9, tables 67 to 69).
func (p *reParser) property(start int) error {
	if p.peek() != '{' {
		return &RegexpError{Offset: start, Msg: "\\p and \\P must be followed by {name} in Unicode mode"}
	}
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		return &RegexpError{Offset: start, Msg: "unterminated \\p{...}"}
	}
	body := p.src[p.pos+1 : p.pos+end]
	p.pos += end + 1
	if !knownProperty(body) {
		return &RegexpError{Offset: start, Msg: fmt.Sprintf("unknown Unicode property %q", Comment(body))}
	}
	return nil
}
