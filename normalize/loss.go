package normalize

// Loss is something a transform could not carry into its target form: a
// keyword the target cannot express, a bound it can only approximate, a
// recursion cut short. Transforms never drop meaning silently; they return
// a Loss for each such place, and callers report it (convert prints a
// warning naming the tool and pointer; a rule's fix says it in its
// message and is then unsafe).
type Loss struct {
	// Pointer locates the loss in the input schema ("" for its root).
	Pointer string
	// Keyword is the keyword dropped or weakened, when there is one.
	Keyword string
	// What says what was lost, in the user's words.
	What string
	// budget is set when the loss is a reference left unexpanded because
	// the Budget ran out (see BudgetExceeded).
	budget *BudgetError
}
