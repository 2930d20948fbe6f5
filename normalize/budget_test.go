package normalize

import (
	"fmt"
	"strings"
	"testing"
)

// doubling is a schema of levels definitions, each an object whose two
// properties refer to the next one and with pad properties of its own:
// inlined, it holds 2^levels copies of the last, a few kilobytes written
// out that stand for terabytes.
func doubling(levels, pad int) map[string]any {
	defs := map[string]any{}
	for i := range levels {
		props := map[string]any{
			"left":  map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)},
			"right": map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)},
		}
		for j := range pad {
			props[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string"}
		}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"type": "object", "properties": props}
	}
	defs[fmt.Sprintf("d%d", levels)] = map[string]any{"type": "string"}
	return map[string]any{"type": "object", "properties": map[string]any{"root": map[string]any{"$ref": "#/$defs/d0"}}, "$defs": defs}
}

// TestBudgetBoundsInlining: inlining a schema whose inlined size is
// exponential stops once the budget is spent, with a Loss that says so,
// whichever inliner: the work done is the budget's, counted, not the
// schema's.
func TestBudgetBoundsInlining(t *testing.T) {
	const limit = 1 << 20
	s := doubling(40, 20)
	for name, inline := range map[string]func(*Budget) []Loss{
		"Gemini":           func(b *Budget) []Loss { _, l := Gemini(s, GeminiOptions{Budget: b}); return l },
		"GeminiInlineRefs": func(b *Budget) []Loss { _, l := GeminiInlineRefs(s, GeminiOptions{Budget: b}); return l },
	} {
		t.Run(name, func(t *testing.T) {
			b := NewBudget(limit)
			be := BudgetExceeded(inline(b))
			if be == nil {
				t.Fatal("the budget was not exceeded")
			}
			if !strings.Contains(be.Error(), "the references of the schema stand for more than 1 MiB of JSON once inlined") || !strings.HasPrefix(be.Ref, "#/$defs/d") {
				t.Errorf("error %q at %q", be.Error(), be.Ref)
			}
			// Past the limit, each expansion tried adds its cost once:
			// what was tried beyond it is a few expansions, not 2^40.
			if over := b.used.Load() - limit; over > 64<<10 {
				t.Errorf("%d bytes spent past the limit", over)
			}
		})
	}

	// A target that is large, referred to by many pointers (no recursion,
	// the inlined size grows with the square of the schema).
	bigProps := map[string]any{}
	for j := range 2000 {
		bigProps[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string"}
	}
	props := map[string]any{"big": map[string]any{"type": "object", "properties": bigProps}}
	for i := range 2000 {
		props[fmt.Sprintf("r%d", i)] = map[string]any{"$ref": "#/properties/big"}
	}
	wide := map[string]any{"type": "object", "properties": props}
	b := NewBudget(limit)
	if _, lost := InlinePointerRefsWithin(wide, b); BudgetExceeded(lost) == nil {
		t.Error("InlinePointerRefsWithin: the budget was not exceeded")
	}
	if _, lost := OpenAIStrictWithin(wide, NewBudget(limit)); BudgetExceeded(lost) == nil {
		t.Error("OpenAIStrictWithin: the budget was not exceeded")
	}
	// Under a budget that holds them, references are inlined whole, with
	// no loss.
	few := map[string]any{"big": props["big"], "r0": props["r0"], "r1": props["r1"]}
	out, lost := InlinePointerRefsWithin(map[string]any{"type": "object", "properties": few}, NewBudget(limit))
	if len(lost) != 0 || hasRef(out) {
		t.Errorf("within the budget: %v", lost)
	}
}

// TestBudgetShared: one budget bounds the conversions that share it, the
// tools of one input, together.
func TestBudgetShared(t *testing.T) {
	s := doubling(6, 20) // about 40 KB inlined
	alone := NewBudget(0)
	if _, lost := Gemini(s, GeminiOptions{Budget: alone}); BudgetExceeded(lost) != nil {
		t.Fatal("one schema passes the default budget")
	}
	one := alone.used.Load()
	shared := NewBudget(3 * one)
	for i := range 3 {
		if _, lost := Gemini(s, GeminiOptions{Budget: shared}); BudgetExceeded(lost) != nil {
			t.Fatalf("schema %d of 3 passes a budget of three", i+1)
		}
	}
	if _, lost := Gemini(s, GeminiOptions{Budget: shared}); BudgetExceeded(lost) == nil {
		t.Error("a fourth schema fits a budget of three")
	}
}
