package lint

import "fmt"

// suggestName is "; did you mean X?" for the rule ID or pack name closest
// to a mistyped selection name, or "".
func suggestName(all []*Rule, name string) string {
	candidates := append([]string{"all", DefaultSelection}, Packs(all)...)
	for _, r := range all {
		candidates = append(candidates, r.ID)
	}
	if s := Closest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// Closest returns the candidate within a few edits of name, the one a typo
// most likely meant, or "" when none is that close.
func Closest(name string, candidates []string) string {
	best, bestD := "", max(2, len(name)/3)+1
	for _, c := range candidates {
		// The distance is at least the difference in length: a name far
		// longer than every candidate (a stranger's config can hold one)
		// costs no table.
		if abs(len(name)-len(c)) >= bestD {
			continue
		}
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
