package schema

// RefCycles returns the cycles of "$ref" in root: chains of references
// that come back to where they started, so that a validator following them
// applies the same schemas to the same value forever. Each cycle is the
// pointers of its members (each member's "$ref" leads to the next, the
// last's to the first) and starts at the member that the chains followed
// from Walk's order meet first. r resolves root's references (NewResolver).
//
// Every cycle is found whatever its length, in time linear in the schema:
// each reference is followed once, since a chain that reaches a schema an
// earlier chain went through ends there (whatever lies beyond was seen).
func RefCycles(root any, r *Resolver) [][]string {
	var refs []string
	Walk(root, "", func(n *Node) bool {
		if _, ok := n.Value["$ref"].(string); ok {
			refs = append(refs, n.Pointer())
		}
		return true
	})
	return RefCyclesFrom(root, r, refs)
}

// RefCyclesFrom is RefCycles for a caller that has walked root already:
// refs are the pointers of the subschemas with a string "$ref", in Walk's
// order.
func RefCyclesFrom(root any, r *Resolver, refs []string) [][]string {
	// next is where the $ref of the schema at ptr leads, when it leads to
	// a schema object of root.
	next := func(ptr string) (string, bool) {
		s, _ := Get(root, ptr)
		m, _ := s.(map[string]any)
		ref, ok := m["$ref"].(string)
		if !ok {
			return "", false
		}
		res := r.Resolve(ptr, ref)
		if _, isObj := res.Target.(map[string]any); !res.Found || !isObj {
			return "", false
		}
		return res.Pointer, true
	}
	const (
		onPath = 1
		done   = 2
	)
	state := map[string]int{}
	at := map[string]int{} // index in path of the schemas on it
	var cycles [][]string
	var path []string
	for _, ptr := range refs {
		if state[ptr] == done {
			continue
		}
		path = path[:0]
		for cur, ok := ptr, true; ok; cur, ok = next(cur) {
			if state[cur] == done {
				break
			}
			if state[cur] == onPath {
				cycles = append(cycles, append([]string(nil), path[at[cur]:]...))
				break
			}
			state[cur], at[cur] = onPath, len(path)
			path = append(path, cur)
		}
		for _, p := range path {
			state[p] = done
			delete(at, p)
		}
	}
	return cycles
}
