package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Names are the file names Find looks for, in order of preference.
var Names = []string{".mcplint.yaml", ".mcplint.yml", ".mcplint.json"}

// MaxSize bounds a configuration file; a larger one is not a configuration.
const MaxSize = 1 << 20

// File is a loaded configuration.
type File struct {
	Config
	// Path is the file's path; Dir its directory, against which the
	// relative paths and globs of the file are resolved.
	Path, Dir string
	// tree is the parsed source, where LintConfig finds the line and
	// column of a setting it refuses.
	tree *ast.File
}

// Find looks for a configuration file in dir and its parents and returns
// its path, or "" when there is none; it is Search without the files it
// refused.
func Find(dir string) (string, error) {
	f, err := Search(dir)
	return f.Path, err
}

// Error is a configuration file's problem at a position.
type Error struct {
	Path         string
	Line, Column int // 0 when unknown
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
}

// Errors are every problem found in a file, in source order.
type Errors []*Error

func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Load reads, validates and decodes a configuration file. A file that does
// not follow the schema returns Errors, one per problem with its position.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	if len(src) > MaxSize {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("larger than %d MiB: not a configuration file", MaxSize>>20)}
	}
	cfg, tree, err := parse(path, src)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return &File{Config: *cfg, Path: path, Dir: filepath.Dir(abs), tree: tree}, nil
}

// Parse validates and decodes a configuration in YAML or JSON (JSON is read
// as YAML, whose flow syntax it is, so both get positions the same way);
// name is used in errors.
func Parse(name string, src []byte) (*Config, error) {
	cfg, _, err := parse(name, src)
	return cfg, err
}

// parse is Parse, with the parsed tree.
func parse(name string, src []byte) (*Config, *ast.File, error) {
	file, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, nil, syntaxError(name, err)
	}
	var doc any
	if len(file.Docs) > 1 {
		return nil, nil, &Error{Path: name, Msg: "holds several YAML documents; a configuration is one"}
	}
	if err := yaml.UnmarshalWithOptions(src, &doc); err != nil {
		return nil, nil, syntaxError(name, err)
	}
	if doc == nil {
		doc = map[string]any{}
	}
	// Round-trip through JSON so that the validator sees JSON values
	// (json.Number, map[string]any) whatever the YAML decoder produced.
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, &Error{Path: name, Msg: fmt.Sprintf("not representable as JSON: %v", err)}
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, &Error{Path: name, Msg: err.Error()}
	}
	sch, err := compiledSchema()
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: config schema: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		var ve *sjs.ValidationError
		if errors.As(err, &ve) {
			return nil, nil, schemaErrors(name, file, ve)
		}
		return nil, nil, &Error{Path: name, Msg: err.Error()}
	}
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, nil, &Error{Path: name, Msg: err.Error()}
	}
	return &cfg, file, nil
}

// tokenError is what goccy/go-yaml's errors carry.
type tokenError interface {
	GetToken() *token.Token
	GetMessage() string
}

func syntaxError(name string, err error) error {
	var te tokenError
	if errors.As(err, &te) && te.GetToken() != nil {
		p := te.GetToken().Position
		return &Error{Path: name, Line: p.Line, Column: p.Column, Msg: te.GetMessage()}
	}
	return &Error{Path: name, Msg: err.Error()}
}

var printer = message.NewPrinter(language.English)

// schemaErrors turns a validation error's leaves into positioned errors.
func schemaErrors(name string, file *ast.File, ve *sjs.ValidationError) Errors {
	var leaves []*sjs.ValidationError
	var walk func(*sjs.ValidationError)
	walk = func(e *sjs.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	var out Errors
	seen := map[string]bool{}
	for _, l := range leaves {
		loc := l.InstanceLocation
		// An unknown key is best shown at the key itself.
		if ap, ok := l.ErrorKind.(*kind.AdditionalProperties); ok && len(ap.Properties) > 0 {
			loc = append(append([]string{}, loc...), ap.Properties[0])
		}
		line, col := position(file, loc)
		where := "at the top level"
		if len(l.InstanceLocation) > 0 {
			where = "at " + strings.Join(l.InstanceLocation, ".")
		}
		msg := fmt.Sprintf("%s %s", where, l.ErrorKind.LocalizedString(printer))
		if ap, ok := l.ErrorKind.(*kind.AdditionalProperties); ok && len(ap.Properties) > 0 {
			msg = fmt.Sprintf("%s: unknown setting %q", where, ap.Properties[0])
		}
		msg += "; `mcplint schema config` prints every setting and the values it takes"
		if seen[msg] {
			continue
		}
		seen[msg] = true
		out = append(out, &Error{Path: name, Line: line, Column: col, Msg: msg})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// position finds the line and column of the value at loc: its key's, for
// a mapping member, so that the caret lands on the name a user typed.
func position(file *ast.File, loc []string) (int, int) {
	if len(file.Docs) == 0 || file.Docs[0] == nil {
		return 0, 0
	}
	var node ast.Node = file.Docs[0].Body
	for _, tok := range loc {
		if node == nil {
			return 0, 0
		}
		switch n := unwrap(node).(type) {
		case *ast.MappingNode:
			var next ast.Node
			for _, kv := range n.Values {
				if kv.Key.String() == tok || strings.Trim(kv.Key.String(), `"'`) == tok {
					next = kv
					break
				}
			}
			if next == nil {
				return tokenPos(node)
			}
			node = next
		case *ast.MappingValueNode:
			if strings.Trim(n.Key.String(), `"'`) != tok {
				return tokenPos(node)
			}
			node = n
		case *ast.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Values) {
				return tokenPos(node)
			}
			node = n.Values[i]
		default:
			return tokenPos(node)
		}
	}
	return tokenPos(node)
}

// unwrap steps from a mapping member to its value.
func unwrap(n ast.Node) ast.Node {
	for {
		switch m := n.(type) {
		case *ast.MappingValueNode:
			n = m.Value
		case *ast.AnchorNode:
			n = m.Value
		case *ast.TagNode:
			n = m.Value
		default:
			return n
		}
	}
}

func tokenPos(n ast.Node) (int, int) {
	switch m := n.(type) {
	case *ast.MappingValueNode:
		n = m.Key
	case *ast.MappingNode:
		// A block mapping's own token is not where it starts.
		if len(m.Values) > 0 {
			n = m.Values[0].Key
		}
	}
	t := n.GetToken()
	if t == nil || t.Position == nil {
		return 0, 0
	}
	return t.Position.Line, t.Position.Column
}
