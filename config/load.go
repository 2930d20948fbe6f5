package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
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
	// doc is the file as read, where LintConfig finds the line and column
	// of a setting it refuses.
	doc *manifest.Document
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
	// Limit names the limit the file passed (manifest.Limits), or "".
	Limit manifest.Limit
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

// Limits bound reading a configuration file: the manifest's limits (YAML
// aliases, nesting, tokens), so that a few lines of anchors cannot stand
// for gigabytes, and a size of its own.
var Limits = func() manifest.Limits {
	l := manifest.DefaultLimits
	l.Size = MaxSize
	return l
}()

// Load reads, validates and decodes a configuration file. A file that does
// not follow the schema returns Errors, one per problem with its position.
func Load(path string) (*File, error) {
	doc, err := Limits.ReadDocument(path)
	if err != nil {
		return nil, readError(path, err)
	}
	cfg, err := decode(doc)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return &File{Config: *cfg, Path: path, Dir: filepath.Dir(abs), doc: doc}, nil
}

// Parse validates and decodes a configuration in YAML or JSON (chosen as
// for a manifest: by the name's extension, then by the first character);
// name is used in errors.
func Parse(name string, src []byte) (*Config, error) {
	doc, err := Limits.ParseDocument(name, src)
	if err != nil {
		return nil, readError(name, err)
	}
	return decode(doc)
}

// readError is an *Error for a file that cannot be read as a document, at
// its position; the error of an exceeded limit is kept as it is, so that
// the caller can name the limit.
func readError(name string, err error) error {
	var me *manifest.Error
	switch {
	case errors.As(err, &me) && me.Limit == manifest.LimitSize:
		return &Error{Path: name, Msg: fmt.Sprintf("larger than %s: not a configuration file", manifest.SizeText(MaxSize)), Limit: me.Limit}
	case errors.As(err, &me):
		return &Error{Path: name, Line: me.Pos.Line, Column: me.Pos.Column, Msg: me.Msg, Limit: me.Limit}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("read config: %w", err)
	}
	return fmt.Errorf("read config %s: %w", name, err)
}

func decode(doc *manifest.Document) (*Config, error) {
	name := doc.Path
	raw := doc.JSON()
	if string(raw) == "null" {
		raw = []byte("{}")
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	sch, err := compiledSchema()
	if err != nil {
		return nil, fmt.Errorf("internal error: config schema: %w", err)
	}
	if err := schema.Validate(sch, inst); err != nil {
		var ve *sjs.ValidationError
		var ne *schema.NumberError
		if errors.As(err, &ve) {
			return nil, schemaErrors(doc, ve)
		} else if errors.As(err, &ne) {
			pos := doc.Locate(ne.Pointer)
			return nil, &Error{Path: name, Line: pos.Line, Column: pos.Column, Msg: ne.Error()}
		}
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	return &cfg, nil
}

var printer = message.NewPrinter(language.English)

// schemaErrors turns a validation error's leaves into positioned errors.
func schemaErrors(doc *manifest.Document, ve *sjs.ValidationError) Errors {
	name := doc.Path
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
		pos := doc.Locate(pointer.Join(loc))
		line, col := pos.Line, pos.Column
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
