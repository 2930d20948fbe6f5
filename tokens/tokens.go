package tokens

// cost is the estimated number of tokens of a piece, in hundredths.
func cost(p piece) int {
	switch p.kind {
	case word:
		switch {
		case p.wide:
			// A token for one or two characters.
			return max(100, p.n*70)
		case p.upper && p.n >= 3 && p.ascii:
			// Capitals are rarer words than small letters.
			return 100 + (p.n-2)*20
		case p.n <= 5:
			return 100
		case p.n <= 8:
			return 105
		case p.n <= 11:
			return 115
		case p.n <= 14:
			return 135
		}
		return p.n * 100 / 6
	case digits:
		return 100
	case punct:
		if !p.ascii {
			return p.n * 80
		}
		if p.n < len(punctCost) {
			return punctCost[p.n]
		}
		return p.n * 50
	}
	return 100
}

// punctCost is the cost of a run of ASCII punctuation by its length:
// JSON's '":"', '","' and '":{"' are one token each; longer runs split.
var punctCost = []int{0, 100, 100, 100, 140, 190, 270, 350}

// Estimate is the estimated number of tokens of s.
func Estimate(s string) int {
	sum := 0
	for i := 0; i < len(s); {
		p, k := next(s, i)
		sum += cost(p)
		i = k
	}
	return (sum + 50) / 100
}
