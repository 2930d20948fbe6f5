// Package pin owns mcplint.lock, the file that pins what MCP servers
// publish: `mcplint lock` writes, for each server, a digest of every tool,
// prompt, resource and resource template it published and of its
// instructions, and `mcplint check --locked` fails when a server publishes
// anything else, the change a user never approved (a "rug pull": a server
// that rewrites a tool's description once it has been reviewed).
//
// # The file
//
// mcplint.lock is JSON:
//
//	{
//	  "version": 1,
//	  "digest": "sha256 of the RFC 8785 canonical JSON",
//	  "servers": {
//	    "NAME": {
//	      "instructions": "sha256:…",
//	      "tools": {"search": {"digest": "sha256:…", "definition": {…}}},
//	      "prompts": {"review": {"digest": "sha256:…"}},
//	      "resources": {"notes:///index.md": {"digest": "sha256:…"}},
//	      "resourceTemplates": {"notes:///{name}.md": {"digest": "sha256:…"}}
//	    }
//	  }
//	}
//
// Servers are keyed by the name the check reports them under (the server's
// own name, or the name a client configuration gives it), entries by what
// identifies them: a tool's and a prompt's name, a resource's URI, a
// template's URI template. A tool keeps its definition too, so that a
// change can be classified as `mcplint breaking` classifies it. Version 1
// only ever gains members; anything else bumps it, and a reader refuses a
// version it does not know.
//
// # The digest
//
// A definition is the JSON value the server sent for the entry: the whole
// tool, prompt, resource or template object, every member included, or
// the instructions string. Its canonical form is that value serialized by
// the JSON Canonicalization Scheme (RFC 8785): object members sorted by the
// UTF-16 code units of their names, no whitespace, strings with the fewest
// escapes, every number in the shortest form that reads back as the same
// IEEE 754 double (so 1.0, 1 and 1e0 are one number, and integers beyond
// 2^53 are rounded). The digest is "sha256:" followed by the lowercase hex
// of the SHA-256 of those bytes. Nothing in it depends on mcplint: any
// RFC 8785 implementation computes the same digests, so a lock stays valid
// across mcplint versions. A tool's definition is stored indented, for
// review, and the SHA-256 of its canonical form is always its digest. A
// secret of the run (a value of --header or of the environment) that the
// server repeated is masked in every definition and key before the digest
// is taken (Masked): the lock is committed, and the digest pins what it
// shows, so the same server checked with the same secrets, or with a
// rotated token that it echoes, pins the same.
//
// # Verification
//
// A lock is read (Read, Parse) only if it matches itself: every tool's
// digest must be the digest of the definition beside it, and no object
// may name a member twice (RFC 7493, I-JSON), so that what a reviewer
// reads is what is pinned. A lock whose definition shows the reviewed
// tool while its digest is that of a changed one is an error at the
// digest's line and column, not a pass. Read refuses a file larger than
// its limit (DefaultMaxSize, mcplint's --max-lock-size) before reading
// past it.
package pin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/manifest"
)

// FileName is the lock file's default name.
const FileName = "mcplint.lock"

// Version is the version of the file format this package writes and reads.
const Version = 1

// Scheme names, in the file, how digests are computed.
const Scheme = "sha256 of the RFC 8785 canonical JSON"

// File is a lock file.
type File struct {
	Version int                `json:"version"`
	Digest  string             `json:"digest"`
	Servers map[string]*Server `json:"servers"`
}

// Server pins what one server published.
type Server struct {
	// Instructions is the digest of the handshake result's instructions,
	// "" when there were none.
	Instructions      string         `json:"instructions,omitempty"`
	Tools             map[string]Pin `json:"tools"`
	Prompts           map[string]Pin `json:"prompts"`
	Resources         map[string]Pin `json:"resources"`
	ResourceTemplates map[string]Pin `json:"resourceTemplates"`
}

// Pin is one entry's digest.
type Pin struct {
	Digest string `json:"digest"`
	// Definition is a tool's canonical definition, kept so that a change
	// can be classified (tools only).
	Definition json.RawMessage `json:"definition,omitempty"`
}

// New returns an empty lock file.
func New() *File {
	return &File{Version: Version, Digest: Scheme, Servers: map[string]*Server{}}
}

// Canonical returns the RFC 8785 canonical form of a JSON value.
func Canonical(raw []byte) ([]byte, error) {
	v := jsontext.Value(bytes.Clone(raw))
	if err := v.Canonicalize(); err != nil {
		return nil, err
	}
	return v, nil
}

// Digest returns the digest of a canonical form.
func Digest(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Of pins what manifest m holds (a listing of a server, or a file it
// saved). It reads JSON sources only: a server's results are JSON.
func Of(m *manifest.Manifest) (*Server, error) { return Masked(m, nil) }

// Masked is Of with the secrets of the run masked: mask (a
// redact.Redactor's JSON) is applied to each canonical definition before
// its digest is taken, so that the definition a lock file stores, masked
// as everything mcplint writes, is the one its digest pins, and the same
// server listed with the same secrets (or with a rotated token it echoes)
// pins the same. Keys (names, URIs) are masked as well. A nil mask masks
// nothing.
func Masked(m *manifest.Manifest, mask func([]byte) []byte) (*Server, error) {
	canonical := func(raw []byte) ([]byte, error) {
		c, err := Canonical(raw)
		if err != nil || mask == nil {
			return c, err
		}
		masked := mask(c)
		if bytes.Equal(masked, c) {
			return c, nil
		}
		if c, err = Canonical(masked); err != nil {
			return nil, fmt.Errorf("masking a secret leaves no JSON value: %v", err)
		}
		return c, nil
	}
	key := func(k string) string {
		if mask == nil {
			return k
		}
		return string(mask([]byte(k)))
	}
	if m.Format != manifest.JSON {
		return nil, fmt.Errorf("%s: only JSON is pinned (a server's results are JSON)", m.Path)
	}
	s := &Server{Tools: map[string]Pin{}, Prompts: map[string]Pin{}, Resources: map[string]Pin{}, ResourceTemplates: map[string]Pin{}}
	for _, t := range m.Tools {
		start, end, ok := t.Span("")
		if !ok {
			continue
		}
		c, err := canonical(m.Src[start:end])
		if err != nil {
			return nil, fmt.Errorf("%s: tool %d: %v", m.Path, t.Index, err)
		}
		s.Tools[unique(s.Tools, key(t.Name))] = Pin{Digest: Digest(c), Definition: c}
	}
	for _, kind := range []struct {
		entries []*manifest.Entry
		pins    map[string]Pin
	}{{m.Prompts, s.Prompts}, {m.Resources, s.Resources}, {m.Templates, s.ResourceTemplates}} {
		for _, e := range kind.entries {
			c, err := canonical(e.Raw())
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", m.Path, e.Describe(), err)
			}
			kind.pins[unique(kind.pins, key(e.Key))] = Pin{Digest: Digest(c)}
		}
	}
	if m.Server != nil {
		var res map[string]json.RawMessage
		if json.Unmarshal(m.Server.Raw(), &res) == nil {
			if raw, ok := res["instructions"]; ok {
				c, err := canonical(raw)
				if err != nil {
					return nil, fmt.Errorf("%s: instructions: %v", m.Path, err)
				}
				s.Instructions = Digest(c)
			}
		}
	}
	return s, nil
}

// unique is key, or key#N when an entry of the same key came first (two
// tools of one name: tool-name-unique reports them).
func unique(pins map[string]Pin, key string) string {
	if _, taken := pins[key]; !taken {
		return key
	}
	for n := 2; ; n++ {
		k := key + "#" + strconv.Itoa(n)
		if _, taken := pins[k]; !taken {
			return k
		}
	}
}

// Marshal writes the file: indented, members in a fixed order, map keys
// sorted, ending with a newline, so that a lock diffs well in review. The
// servers' strings are a stranger's, and a lock is read in terminals, CI
// logs and pull requests: the file passes guard.JSON, whose escapes leave
// every value, and so every digest, as it was.
func (f *File) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return guard.JSON(buf.Bytes()), nil
}

// Limits bound reading a lock file: the limits of a manifest (its
// nesting), and DefaultMaxSize.
var Limits = func() manifest.Limits {
	l := manifest.DefaultLimits
	l.Size = DefaultMaxSize
	return l
}()

// Parse reads a lock file; path names it in errors.
func Parse(path string, src []byte) (*File, error) {
	if err := wellFormed(path, src); err != nil {
		return nil, err
	}
	// The size was Read's to bound (--max-lock-size); the other limits,
	// nesting first, are a manifest's.
	l := Limits
	l.Size = max(l.Size, int64(len(src)))
	doc, err := l.ParseDocument(path, src, manifest.JSON)
	if err != nil {
		var me *manifest.Error
		if errors.As(err, &me) {
			return nil, fmt.Errorf("%s: not a lock file: %s", me.Place(), me.Msg)
		}
		return nil, err
	}
	var f File
	if err := json.Unmarshal(doc.JSON(), &f); err != nil {
		return nil, fmt.Errorf("%s: not a lock file: %v", path, err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: lock file version %d; this mcplint reads version %d", path, f.Version, Version)
	}
	if f.Digest != Scheme {
		return nil, fmt.Errorf("%s: digests computed as %q; this mcplint computes %q", path, f.Digest, Scheme)
	}
	if f.Servers == nil {
		f.Servers = map[string]*Server{}
	}
	// Definitions are stored indented, for review.
	for _, name := range f.ServerNames() {
		if f.Servers[name] == nil {
			return nil, fmt.Errorf("%s: server %q is null", path, name)
		}
		for key, p := range f.Servers[name].Tools {
			if len(p.Definition) == 0 {
				continue // verify says so, at its place
			}
			c, err := Canonical(p.Definition)
			if err != nil {
				return nil, fmt.Errorf("%s: server %q, tool %q: the definition is not JSON: %v", path, name, key, err)
			}
			p.Definition = c
			f.Servers[name].Tools[key] = p
		}
	}
	if err := f.verify(path, src); err != nil {
		return nil, err
	}
	return &f, nil
}

func sortedKeys(m map[string]Pin) []string { return slices.Sorted(maps.Keys(m)) }

// ServerNames returns the names of the locked servers, sorted.
func (f *File) ServerNames() []string { return slices.Sorted(maps.Keys(f.Servers)) }
