package lint

import (
	"maps"
	"slices"
	"strconv"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// Diff returns the edits that turn old into new, the value at tool-relative
// pointer base. Members present in both are diffed recursively, so keys that
// did not change keep their place and spelling in the source; an object none
// of whose members survive, an array whose length changes, and a value whose
// type changes are replaced whole.
func Diff(base string, old, new any) []manifest.Edit {
	if Equal(old, new) {
		return nil
	}
	return diffUnequal(base, old, new)
}

// diffUnequal is Diff of values known to differ.
func diffUnequal(base string, old, new any) []manifest.Edit {
	switch o := old.(type) {
	case map[string]any:
		n, ok := new.(map[string]any)
		if !ok {
			break
		}
		survivors := 0
		for k := range o {
			if _, ok := n[k]; ok {
				survivors++
			}
		}
		if survivors == 0 && len(o) > 0 {
			break
		}
		var edits []manifest.Edit
		for _, k := range slices.Sorted(maps.Keys(o)) {
			if _, ok := n[k]; !ok {
				edits = append(edits, manifest.Edit{Op: manifest.Remove, Pointer: base + "/" + pointer.Escape(k)})
			}
		}
		for _, k := range slices.Sorted(maps.Keys(o)) {
			// Compared before the pointer is spelled: most members are
			// unchanged, and a pointer is as long as the value is deep.
			if nv, ok := n[k]; ok && !Equal(o[k], nv) {
				edits = append(edits, diffUnequal(base+"/"+pointer.Escape(k), o[k], nv)...)
			}
		}
		for _, k := range schema.SortedKeys(n) {
			if _, ok := o[k]; !ok {
				edits = append(edits, manifest.Edit{Op: manifest.Add, Pointer: base + "/" + pointer.Escape(k), Value: n[k]})
			}
		}
		return edits
	case []any:
		n, ok := new.([]any)
		if !ok || len(n) != len(o) {
			break
		}
		var edits []manifest.Edit
		for i := range o {
			if !Equal(o[i], n[i]) {
				edits = append(edits, diffUnequal(base+"/"+strconv.Itoa(i), o[i], n[i])...)
			}
		}
		return edits
	}
	return []manifest.Edit{{Op: manifest.Replace, Pointer: base, Value: new}}
}

// DiffFix is the fix that turns old, the value at tool-relative pointer
// base, into new, or nil when they are equal (Diff would return no edit).
// Its edits are diffed only in runs that need them (see Fix.Build): a
// run that only names fixes spent a tenth of its time diffing. old and
// new must not change after the call.
func DiffFix(message string, safe bool, base string, old, new any) *Fix {
	if Equal(old, new) {
		return nil
	}
	return &Fix{Message: message, Safe: safe, Build: func() []manifest.Edit { return diffUnequal(base, old, new) }}
}

// Equal compares decoded JSON values; numbers compare by value whatever
// their spelling or Go type. It is schema.Equal, kept here for rules.
func Equal(a, b any) bool { return schema.Equal(a, b) }
