package manifest

// YAML manifests are parsed with github.com/goccy/go-yaml into an AST with
// token positions and decoded, located and edited from that AST; the bytes
// of the source stay the single truth, as for JSON. A stream of documents
// (---) is read like newline-delimited JSON: one page per document.
//
// What a YAML manifest may hold is what JSON can say: mappings with string
// keys, sequences, strings, numbers, booleans and null. Plain scalars are
// resolved with the YAML 1.2 core schema (so yes/no/on/off are strings, as
// are dates); numbers keep their spelling when it is JSON's and are otherwise
// written in decimal (0x1F is 31, +1 is 1, .5 is 0.5). .inf and .nan,
// non-string keys, duplicate keys and tags other than the core ones (!!str,
// !!int, !!float, !!bool, !!null, !!map, !!seq and the non-specific "!") are
// refused when loading, at their line and column, as is a document that
// exceeds its Limits (nesting and tokens before the parser, which recurses,
// sees it; aliases before anything is decoded).
//
// Anchors, aliases and merge keys (<<) are resolved when decoding: an alias
// decodes as a copy of its anchored value, a merge key adds the members of
// its mapping(s) that the mapping does not spell itself; what aliases stand
// for is bounded in bytes (Limits.YAMLExpansion). Tools themselves, and the tools list,
// must be written in place, not as aliases. Editing keeps each edit local to
// the place it addresses:
//   - an edit below an alias replaces that alias with the value it stood
//     for, edited (the anchor and its other aliases are untouched);
//   - an edit of a member that a merge key brought in writes that member
//     explicitly, edited (explicit members override merged ones); removing
//     such a member is refused;
//   - an edit inside an anchored value that aliases use is refused with an
//     error, as is replacing or removing a value that defines an anchor used
//     outside it: the edit would change, or break, the other places too.
//
// Edits follow the style around them. In block style a member is added on
// its own line after the last member that stays, indented like its
// siblings. Removing a member removes its lines with the comment at their
// end; comment lines of their own stay, except those indented deeper than
// the member right after it (they are inside it). A collection emptied
// becomes {} or [] after its key. In flow style ({a: 1}) edits splice like
// JSON; a mapping without braces in a flow sequence ([a: 1]) is rewritten
// with them. Inserted mappings are written in block style, sequences of
// scalars in flow style on one line when short (as JSON formatters keep
// "required" and "enum"), other sequences in block style, indented or not
// as the source's other sequences under keys; strings are plain when that
// reads back as the same string under YAML 1.1 and 1.2 parsers alike,
// double-quoted otherwise. Edits of one Apply that write one place anew
// (below one alias, into one empty collection) are spliced together, since
// a fix is applied whole.
//
// The parser is lenient with some invalid YAML and misplaces some tokens;
// what that would break is refused when loading (a plain scalar that starts
// with an indicator, a key over several lines) or corrected (token
// positions are checked against the tokens' text, see yamlDoc.off).

import (
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// yamlDoc is the parsed YAML of a manifest, kept to decode and edit tools.
type yamlDoc struct {
	m    *Manifest
	base int // where the YAML text starts in Src (after a BOM)
	// expanded is the bytes the aliases checked so far stand for.
	expanded int64
	lines    []int  // offset in Src of each line, as the YAML scanner counts lines
	ascii    []bool // whether each line is ASCII only
	// runes caches, for lines with non-ASCII text, the offset of each
	// character, since the scanner counts columns in characters.
	runesMu sync.Mutex
	runes   map[int][]int32
	// shift is how many columns early the scanner places tokens after tags.
	shift map[*token.Token]int

	// alias maps each alias to the anchor it names.
	alias map[*ast.AliasNode]*ast.AnchorNode
	// uses lists, for each anchor that aliases name, where those aliases are.
	uses map[*ast.AnchorNode][]int
	// anchorTag is the tag written before an anchor (!!str &a 12), which its
	// aliases carry too.
	anchorTag map[*ast.AnchorNode]string

	tools  []*yamlTool // by Tool.Index
	bodies []ast.Node  // the documents' values

	nl         string // the line break the source uses
	indentless bool   // block sequences under a key are not indented (key:\n- a)
}

// yamlTool is one tool's place in the YAML AST.
type yamlTool struct {
	node   ast.Node // the tool's value node, with its properties
	dash   int      // offset of its "- " in a block sequence, or -1
	inFlow bool     // written inside a flow collection
	// key and colon are, for a tool that is a member's value (an OpenAI
	// Chat Completions tool's "function"), where the key starts and the
	// offset just after its ':'; -1 otherwise.
	key, colon int
	info       map[string]*ynode
}

// ynode is what editing needs to know about a value beyond its index node.
type ynode struct {
	full   ast.Node // the value as written, with its properties (nil when empty)
	node   ast.Node // the value without its properties (an *ast.AliasNode for an alias)
	props  int      // where the value's properties (anchor, tag) start; the value's start without
	colon  int      // for a member: just after its ':'; -1 otherwise
	dash   int      // for an element of a block sequence: its '-'; -1 otherwise
	flow   bool     // a flow collection
	inFlow bool     // inside a flow collection
	// anchor is the anchor the value defines, if any.
	anchor *ast.AnchorNode
	// merged are the members a merge key brings in that the mapping does not
	// spell itself, by key.
	merged map[string]bool

	// Found from the ancestors as the index is built, so that an edit
	// nested n deep does not look up its n ancestors by pointers n long:
	// braceless is the innermost mapping without braces in a flow
	// collection strictly above the value (see yamlEditor.braceless), and
	// sharedBy the innermost value at or above it whose anchor aliases use,
	// at sharedAt (see yamlEditor.shared).
	braceless    string
	hasBraceless bool
	sharedAt     string
	sharedBy     *ynode
}

// bracelessMapping reports whether the value is a mapping without braces
// in a flow collection ([a: 1] holds {"a": 1}).
func (inf *ynode) bracelessMapping() bool {
	if !inf.inFlow {
		return false
	}
	switch inf.node.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return !isFlow(inf.node)
	}
	return false
}
