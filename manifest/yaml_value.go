package manifest

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/mcpfit/mcplint/internal/english"
)

// The number expressions of the YAML 1.2 core schema
// (https://yaml.org/spec/1.2.2/#1023-core-schema; resolvePlain spells out
// null and the booleans), compiled when the first YAML number is read: a
// JSON run, the common one, should not pay for them at start-up.
var yamlCore = sync.OnceValue(func() *coreSchema {
	return &coreSchema{
		int:   regexp.MustCompile(`^[-+]?[0-9]+$`),
		oct:   regexp.MustCompile(`^0o[0-7]+$`),
		hex:   regexp.MustCompile(`^0x[0-9a-fA-F]+$`),
		float: regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`),
		inf:   regexp.MustCompile(`^([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`),
	}
})

type coreSchema struct{ int, oct, hex, float, inf *regexp.Regexp }

// errNotJSONNumber marks a plain .inf or .nan.
type errNotJSONNumber struct{}

func (errNotJSONNumber) Error() string { return "not a JSON number" }

// resolvePlain gives the value of a plain scalar. Null and the booleans
// are a handful of spellings, compared as such; only a scalar that can start
// a number is matched against the core schema's number expressions: the
// expressions, tried on every key and string of a YAML manifest, were a
// tenth of reading one.
func resolvePlain(s string) (any, error) {
	switch s {
	case "", "null", "Null", "NULL", "~":
		return nil, nil
	case "true", "True", "TRUE":
		return true, nil
	case "false", "False", "FALSE":
		return false, nil
	}
	if !strings.ContainsRune("0123456789+-.", rune(s[0])) {
		return s, nil
	}
	c := yamlCore()
	switch {
	case c.oct.MatchString(s), c.hex.MatchString(s):
		base := 8
		if s[1] == 'x' {
			base = 16
		}
		n, _ := new(big.Int).SetString(s[2:], base)
		return json.Number(n.String()), nil
	case c.int.MatchString(s), c.float.MatchString(s):
		return yamlNumber(s), nil
	case c.inf.MatchString(s):
		return nil, errNotJSONNumber{}
	}
	return s, nil
}

// yamlNumber spells a decimal YAML number as JSON, keeping its spelling when
// JSON allows it.
func yamlNumber(s string) json.Number {
	if v := jsontext.Value(s); v.Kind() == '0' && v.IsValid() {
		return json.Number(s)
	}
	sign := ""
	if s[0] == '+' || s[0] == '-' {
		if s[0] == '-' {
			sign = "-"
		}
		s = s[1:]
	}
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	whole, frac, dot := strings.Cut(mant, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	out := sign + whole
	if dot {
		if frac == "" {
			frac = "0"
		}
		out += "." + frac
	}
	return json.Number(out + exp)
}

// coreTags are the tags of the YAML core schema that JSON values can carry.
var coreTags = map[string]bool{"str": true, "int": true, "float": true, "bool": true, "null": true, "map": true, "seq": true}

// normalizeTag names a supported tag by its core schema name ("str"), "!"
// for the non-specific tag, or "" when unsupported.
func normalizeTag(s string) string {
	switch {
	case s == "!":
		return "!"
	case strings.HasPrefix(s, "!!"):
		s = s[2:]
	case strings.HasPrefix(s, "!<tag:yaml.org,2002:") && strings.HasSuffix(s, ">"):
		s = s[len("!<tag:yaml.org,2002:") : len(s)-1]
	default:
		return ""
	}
	if coreTags[s] {
		return s
	}
	return ""
}

// checkTag validates a tag against the content it is on and returns its
// normalised name.
func (y *yamlDoc) checkTag(tn *ast.TagNode, content ast.Node) (string, error) {
	off := y.off(tn.Start)
	name := normalizeTag(tn.Start.Value)
	if name == "" {
		return "", y.m.errorAt(off, "invalid YAML: tag %s is not supported: a manifest holds only JSON values (mappings, sequences, strings, numbers, booleans and null); remove the tag", tn.Start.Value)
	}
	_, c := unwrap(y.resolve(content))
	kind := nodeKind(c)
	switch {
	case name == "map" && kind != "mapping", name == "seq" && kind != "sequence",
		name != "map" && name != "seq" && name != "!" && kind != "scalar":
		return "", y.m.errorAt(off, "invalid YAML: tag %s is on a %s", tn.Start.Value, kind)
	}
	return name, nil
}

// tagOf is the normalised tag among a value's properties, or "".
func tagOf(n ast.Node) string {
	props, _ := unwrap(n)
	for _, p := range props {
		if tn, ok := p.(*ast.TagNode); ok {
			return normalizeTag(tn.Start.Value)
		}
	}
	return ""
}

// yamlScalarText is the text of a scalar node and whether it is plain (and so
// resolved by the schema).
func yamlScalarText(n ast.Node) (text string, plain bool) {
	switch x := n.(type) {
	case *ast.StringNode:
		if x.Token.Type == token.SingleQuoteType || x.Token.Type == token.DoubleQuoteType {
			return x.Value, false
		}
		return x.Token.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, false
	case *ast.NullNode:
		if x.Token.Type == token.ImplicitNullType {
			return "", true
		}
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value, true
	}
	return "", true
}

// scalar decodes a scalar node under its tag.
func (y *yamlDoc) scalar(n ast.Node, tag string) (any, error) {
	if n == nil {
		if tag == "str" {
			return "", nil
		}
		return nil, nil
	}
	text, plain := yamlScalarText(n)
	at := func() int { return y.off(n.GetToken()) }
	switch tag {
	case "str":
		return text, nil
	case "", "!":
		if !plain || tag == "!" {
			return text, nil
		}
	}
	if text != "" && strings.ContainsRune("!&*|>%@`#'\"{[", rune(text[0])) {
		// The parser reads a few such texts as plain scalars where YAML
		// reads a tag, an alias or nothing at all.
		return nil, y.m.errorAt(at(), "invalid YAML: a plain scalar cannot start with %q; quote it", text[:1])
	}
	v, err := resolvePlain(text)
	if err != nil {
		return nil, y.m.errorAt(at(), "invalid YAML: %s is not a JSON number (JSON has no infinity or NaN); quote it if it is a string", text)
	}
	ok := true
	switch tag {
	case "null":
		ok = v == nil
	case "bool":
		_, ok = v.(bool)
	case "int":
		c := yamlCore()
		ok = c.int.MatchString(text) || c.oct.MatchString(text) || c.hex.MatchString(text)
	case "float":
		_, ok = v.(json.Number)
	}
	if !ok {
		return nil, y.m.errorAt(at(), "invalid YAML: %q is not a valid !!%s", text, tag)
	}
	return v, nil
}

// yamlDecoder decodes YAML values. What aliases expand to was bounded when
// loading (checkExpansion).
type yamlDecoder struct {
	y    *yamlDoc
	open map[*ast.AnchorNode]bool
}

// decode decodes a value: objects to map[string]any, sequences to []any,
// numbers to json.Number, as the JSON path does.
func (y *yamlDoc) decode(n ast.Node) (any, error) {
	d := &yamlDecoder{y: y, open: map[*ast.AnchorNode]bool{}}
	return d.value(n, 0)
}

func (t *Tool) yamlValue() (any, error) {
	y := t.M.yaml
	v, err := y.decode(y.tools[t.Index].node)
	if err != nil {
		return nil, err
	}
	limit := toolPathLimit(int64(t.end - t.start))
	if left := limit; valuePathBytes(v, 0, &left) {
		return nil, t.M.pathError(t.start, limit)
	}
	return t.present(v), nil
}

func (d *yamlDecoder) value(n ast.Node, depth int) (any, error) {
	if n == nil {
		return nil, nil
	}
	_, c := unwrap(n)
	switch c := c.(type) {
	case *ast.AliasNode:
		a := d.y.alias[c]
		if a == nil || d.open[a] {
			return nil, d.y.m.errorAt(d.y.off(c.Start), "invalid YAML: alias *%s cannot be resolved", aliasName(c))
		}
		d.open[a] = true
		defer delete(d.open, a)
		if t := d.y.anchorTag[a]; t != "" {
			// A tag written before the anchor (!!str &a 12) is the
			// anchored value's too.
			if _, sc := unwrap(a.Value); nodeKind(sc) == "scalar" {
				return d.y.scalar(sc, t)
			}
		}
		return d.value(a.Value, depth)
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		if limit := d.y.m.depthLimit(); depth > limit {
			return nil, d.y.m.limitError(d.y.off(c.GetToken()), LimitDepth, "nesting deeper than %s", english.Count(limit, "level"))
		}
	}
	switch c := c.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		obj := map[string]any{}
		var merges []ast.Node
		for _, mv := range pairs(c) {
			if isMergeKey(mv.Key) {
				merges = append(merges, mv.Value)
				continue
			}
			k, err := d.y.key(mv.Key)
			if err != nil {
				return nil, err
			}
			v, err := d.value(mv.Value, depth+1)
			if err != nil {
				return nil, err
			}
			obj[k] = v
		}
		// Members the mapping spells win over merged ones; of several merged
		// mappings, the first wins.
		for _, mn := range merges {
			mvv, err := d.value(mn, depth)
			if err != nil {
				return nil, err
			}
			srcs := []any{mvv}
			if arr, ok := mvv.([]any); ok {
				srcs = arr
			}
			for _, s := range srcs {
				so, _ := s.(map[string]any)
				for k, v := range so {
					if _, ok := obj[k]; !ok {
						obj[k] = v
					}
				}
			}
		}
		return obj, nil
	case *ast.SequenceNode:
		arr := make([]any, 0, len(c.Values))
		for _, e := range c.Values {
			v, err := d.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		return arr, nil
	}
	return d.y.scalar(c, tagOf(n))
}
