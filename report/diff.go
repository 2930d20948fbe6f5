package report

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Diff returns a unified diff from old to new, the contents of the file at
// name, or "" when they are equal. The headers name a/NAME and b/NAME (NAME
// with forward slashes, cleaned), as git does, so `git apply` and
// `patch -p1` accept it from the directory name is relative to; a name git
// would need to quote (spaces at its ends, quotes, backslashes, control
// characters) is quoted as git quotes it.
func Diff(name string, old, new []byte) (string, error) {
	if string(old) == string(new) {
		return "", nil
	}
	p := path.Clean(filepath.ToSlash(name))
	edits := udiff.Lines(string(old), string(new))
	d, err := udiff.ToUnified(quotePath("a/"+p), quotePath("b/"+p), string(old), edits, udiff.DefaultContextLines)
	if err != nil {
		return "", fmt.Errorf("diff %s: %w", name, err)
	}
	return d, nil
}

// quotePath quotes a path in a patch header the way git does (C-style, in
// double quotes, other bytes in octal) when it contains a character git would
// otherwise misread.
func quotePath(p string) string {
	needs := strings.TrimSpace(p) != p
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
			needs = true
		}
	}
	if !needs {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
