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
		if p, k, ok := nextASCII(s, i); ok {
			sum += cost(p)
			i = k
			continue
		}
		p, k := next(s, i)
		sum += cost(p)
		i = k
	}
	return (sum + 50) / 100
}

// nextASCII is next for the pieces most text is made of, read without
// the general scanner's calls: a word of small ASCII letters, with or
// without a leading space or punctuation character, and a run of ASCII
// punctuation. It reports false for anything else (and for a piece that
// ends at a character outside ASCII or a contraction), which next reads.
func nextASCII(s string, i int) (piece, int, bool) {
	c := asciiClassOf(s, i)
	n := 0
	k := i
	switch c {
	case cOther, cSpace:
		after := asciiClassOf(s, i+1)
		if c == cSpace && s[i] != ' ' || after != cLower {
			if c == cSpace || after == cUpper || after == cNonASCII && i+1 < len(s) {
				// A capital or another script after it: a word with a
				// leading character, or not; next decides.
				return piece{}, i, false
			}
			// A run of punctuation, unless a letter takes its last
			// character: then next reads it.
			k = i
			for k < len(s) && asciiClassOf(s, k) == cOther {
				k++
			}
			if k < len(s) && (s[k] >= 0x80 || s[k] == '\r' || s[k] == '\n' || s[k] == '/') {
				return piece{}, i, false
			}
			return piece{kind: punct, n: k - i, ascii: true}, k, true
		}
		k, n = i+1, 1
	case cLower:
	default:
		return piece{}, i, false
	}
	start := k
	for k < len(s) && 'a' <= s[k] && s[k] <= 'z' {
		k++
	}
	if k < len(s) && (s[k] >= 0x80 || s[k] == '\'') {
		return piece{}, i, false
	}
	return piece{kind: word, n: n + k - start, ascii: true}, k, true
}

// asciiClassOf is the class of s[i] when it is ASCII, and cNonASCII past
// the end or outside ASCII.
func asciiClassOf(s string, i int) uint8 {
	if i >= len(s) || s[i] >= 0x80 {
		return cNonASCII
	}
	return asciiClass[s[i]]
}

// cNonASCII marks, for nextASCII, what it leaves to next.
const cNonASCII uint8 = 0xff
