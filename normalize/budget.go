package normalize

import (
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/mcpfit/mcplint/manifest"
)

// DefaultRefExpansion is the budget of a Budget made with no limit: the
// bytes of JSON that inlined references may stand for. No real schema
// comes near it (the largest inline into a few hundred kilobytes), and
// held as Go values it is some hundreds of megabytes.
const DefaultRefExpansion = 16 << 20

// expansionOverhead is what one expansion costs beside its target's
// bytes: a copy's maps and bookkeeping take a few hundred bytes, and a
// million references to an empty schema must not pass for free.
const expansionOverhead = 256

// Budget bounds what inlining references builds, in bytes of JSON: a few
// kilobytes of definitions that each use the next one twice, or a large
// definition referenced thousands of times, would otherwise inline into
// gigabytes, where counting references alone let a 441 KB schema take
// four. Each expansion of a reference costs the JSON size of its target
// (the references inside it count when they are expanded in turn) and a
// little more. One Budget is meant to be shared by every conversion of
// one input, the tools of a manifest, so that the input as a whole is
// bounded; it is safe for concurrent use. When it runs out the reference
// is not expanded, and the transform's Loss for it has Budget set: the
// schema could not be converted whole, and callers refuse it (convert
// exits 2, gemini-ref offers no fix) rather than write a schema with a
// hole the size of the limit.
type Budget struct {
	limit int64
	used  atomic.Int64
}

// NewBudget returns a budget of limit bytes; 0 or less means
// DefaultRefExpansion.
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		limit = DefaultRefExpansion
	}
	return &Budget{limit: limit}
}

// Limit is the budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// spend takes n bytes and reports whether the budget had them; once it
// has not, it never has again.
func (b *Budget) spend(n int64) bool {
	if b == nil {
		return true
	}
	return b.used.Add(n) <= b.limit
}

// BudgetError is a schema whose references stand for more than a Budget:
// Ref, at Pointer, is the reference that passed it.
type BudgetError struct {
	Pointer, Ref string
	Limit        int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the references of the schema stand for more than %s of JSON once inlined (%q at %s passes the limit): the schema is too large to write without references", manifest.SizeText(e.Limit), e.Ref, pointerText(e.Pointer))
}

// budgetLoss is the Loss of the reference ref at ptr, left unexpanded
// because b ran out.
func budgetLoss(ptr, ref string, b *Budget) Loss {
	e := &BudgetError{Pointer: ptr, Ref: ref, Limit: b.Limit()}
	return Loss{Pointer: ptr, Keyword: "$ref", What: e.Error(), budget: e}
}

// BudgetExceeded returns the error of the first loss that says the
// budget ran out, or nil.
func BudgetExceeded(losses []Loss) *BudgetError {
	for _, l := range losses {
		if l.budget != nil {
			return l.budget
		}
	}
	return nil
}

func pointerText(p string) string {
	if p == "" {
		return "the root"
	}
	return p
}

// jsonSize is the size of v as compact JSON, with the subschemas that are
// references counted as written (what they stand for is spent when they
// are expanded).
func jsonSize(v any) int64 {
	switch x := v.(type) {
	case map[string]any:
		n := int64(2)
		for k, e := range x {
			n += int64(len(k)) + 4 + jsonSize(e)
		}
		return n
	case []any:
		n := int64(2)
		for _, e := range x {
			n += jsonSize(e) + 1
		}
		return n
	case string:
		return int64(len(x)) + 2
	case json.Number:
		return int64(len(x))
	case bool:
		return 5
	case nil:
		return 4
	}
	return 8
}
