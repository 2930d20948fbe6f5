package report

// The lines a unified diff marks as changed are chosen as GNU diff chooses
// them (diffutils' analyze.c and gnulib's diffseq.h), so that the patches
// mcplint prints have the hunks `diff -u` would print: the same headers a
// reviewer or a patch tool compares. Among the many shortest edit scripts
// two texts can have, GNU diff takes the one found by Myers' linear-space
// search ("An O(ND) Difference Algorithm and Its Variations", E. Myers,
// Algorithmica 1986, section 4b: the middle snake, searched forwards and
// backwards in turn), then slides each run of changes over lines equal to
// it: back as far as it merges with earlier changes, then forward as far
// as it goes, then back again until it faces a change in the other file.
// go-udiff's line diff is not a shortest one (its LCS is an approximation
// for speed) and takes other ties, so it is not used for the lines.

// lineDiff marks the lines of a and b that a shortest edit script from a to
// b deletes (changedA) or inserts (changedB). context is the number of
// unchanged lines the diff will show around a change.
func lineDiff(a, b []string, context int) (changedA, changedB []bool) {
	changedA, changedB = make([]bool, len(a)), make([]bool, len(b))
	// Like GNU diff, look only at the lines from the first difference to
	// the last, widened by the context: lines beyond are equal, and
	// counting them would change which lines count as frequent below.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	lo := max(0, pre-context)
	cut := max(0, suf-context)
	a, b = a[lo:len(a)-cut], b[lo:len(b)-cut]
	ids := map[string]int{}
	id := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			n, ok := ids[l]
			if !ok {
				n = len(ids)
				ids[l] = n
			}
			out[i] = n
		}
		return out
	}
	x, y := id(a), id(b)
	cx, cy := changedA[lo:lo+len(a)], changedB[lo:lo+len(b)]
	// Lines of one text that the other lacks are changes whatever the
	// script; leaving them out of the search, with the lines that are
	// frequent in the other text in the middle of such runs, is what GNU
	// diff does to keep the search short, and it decides among scripts
	// of equal length.
	keptX, keptY := discard(x, y, cx), discard(y, x, cy)
	s := &snakes{x: pick(x, keptX), y: pick(y, keptY)}
	s.changedX, s.changedY = make([]bool, len(s.x)), make([]bool, len(s.y))
	diags := len(s.x) + len(s.y) + 3
	s.fd, s.bd = make([]int, 2*diags), make([]int, 2*diags)
	s.off = len(s.y) + 1
	// Past this many edit steps in one middle-snake search, settle for
	// the furthest-reaching point, as GNU diff does, so that two large
	// and very different texts cost O((N+M) sqrt(N+M)), not O((N+M)^2).
	s.tooExpensive = 1
	for n := diags; n != 0; n >>= 2 {
		s.tooExpensive <<= 1
	}
	s.tooExpensive = max(s.tooExpensive, 4096)
	s.compare(0, len(s.x), 0, len(s.y), false)
	for i, k := range keptX {
		cx[k] = s.changedX[i]
	}
	for i, k := range keptY {
		cy[k] = s.changedY[i]
	}
	slide(x, cx, cy)
	slide(y, cy, cx)
	return changedA, changedB
}

// pick returns the ids at the indexes kept.
func pick(ids []int, kept []int) []int {
	out := make([]int, len(kept))
	for i, k := range kept {
		out[i] = ids[k]
	}
	return out
}

// discard marks as changed the lines of x that the search can leave out,
// and returns the indexes of the others: lines that y lacks, and lines
// that y has many of when they sit inside a run of those, away from its
// ends (the rules of GNU diff's discard_confusing_lines).
func discard(x, y []int, changed []bool) (kept []int) {
	const (
		keep        = 0
		lacking     = 1 // y lacks the line
		provisional = 2 // y has many of it
	)
	inY := map[int]int{}
	for _, v := range y {
		inY[v]++
	}
	many := 5 // about 5 sqrt(len(x)/64)
	for n := len(x) / 64; ; many *= 2 {
		if n >>= 2; n <= 0 {
			break
		}
	}
	marks := make([]byte, len(x))
	for i, v := range x {
		switch n := inY[v]; {
		case n == 0:
			marks[i] = lacking
		case n > many:
			marks[i] = provisional
		}
	}
	for i := 0; i < len(marks); i++ {
		if marks[i] == provisional {
			marks[i] = keep // not inside a run of lacking lines
			continue
		}
		if marks[i] == keep {
			continue
		}
		// A run of discardable lines from i, without its provisional tail.
		j, provisionals := i, 0
		for ; j < len(marks) && marks[j] != keep; j++ {
			if marks[j] == provisional {
				provisionals++
			}
		}
		for j > i && marks[j-1] == provisional {
			j--
			marks[j] = keep
			provisionals--
		}
		length := j - i
		if provisionals*4 > length {
			// Too many frequent lines in it: keep them all.
			for k := i; k < j; k++ {
				if marks[k] == provisional {
					marks[k] = keep
				}
			}
		} else {
			// Keep a subrun of frequent lines of about sqrt(length/4)
			// or more, and those near either end of the run.
			minimum := 1
			for n := length >> 2; ; minimum <<= 1 {
				if n >>= 2; n <= 0 {
					break
				}
			}
			minimum++
			consec := 0
			for k := 0; k < length; k++ {
				switch {
				case marks[i+k] != provisional:
					consec = 0
				case consec+1 == minimum:
					consec++
					k -= consec // back to the subrun's start, to keep it all
				case consec+1 > minimum:
					consec++
					marks[i+k] = keep
				default:
					consec++
				}
			}
			keepEnd := func(at func(k int) int) {
				consec := 0
				for k := 0; k < length; k++ {
					m := &marks[at(k)]
					if k >= 8 && *m == lacking {
						break
					}
					switch *m {
					case provisional:
						consec = 0
						*m = keep
					case keep:
						consec = 0
					default:
						consec++
					}
					if consec == 3 {
						break
					}
				}
			}
			keepEnd(func(k int) int { return i + k })
			last := i + length - 1
			keepEnd(func(k int) int { return last - k })
		}
		i += length - 1
	}
	for i, m := range marks {
		if m == keep {
			kept = append(kept, i)
		} else {
			changed[i] = true
		}
	}
	return kept
}

// snakes is the state of one comparison: the texts as line ids, the
// changes found, and the furthest points reached on each diagonal k (at
// index k+off) forwards (fd) and backwards (bd).
type snakes struct {
	x, y               []int
	changedX, changedY []bool
	fd, bd             []int
	off                int
	tooExpensive       int
}

// compare marks the changes between x[xlo:xhi] and y[ylo:yhi]. minimal
// asks for a shortest script even when its search is expensive.
func (s *snakes) compare(xlo, xhi, ylo, yhi int, minimal bool) {
	for xlo < xhi && ylo < yhi && s.x[xlo] == s.y[ylo] {
		xlo, ylo = xlo+1, ylo+1
	}
	for xhi > xlo && yhi > ylo && s.x[xhi-1] == s.y[yhi-1] {
		xhi, yhi = xhi-1, yhi-1
	}
	switch {
	case xlo == xhi:
		for ; ylo < yhi; ylo++ {
			s.changedY[ylo] = true
		}
	case ylo == yhi:
		for ; xlo < xhi; xlo++ {
			s.changedX[xlo] = true
		}
	default:
		xmid, ymid, loMinimal, hiMinimal := s.middle(xlo, xhi, ylo, yhi, minimal)
		s.compare(xlo, xmid, ylo, ymid, loMinimal)
		s.compare(xmid, xhi, ymid, yhi, hiMinimal)
	}
}

// middle finds the point where a shortest path through the edit graph of
// x[xlo:xhi] and y[ylo:yhi] crosses its middle: the searches from both
// corners advance one edit step at a time, each over every diagonal it
// can reach (from the highest down), until one reaches a point the other
// has passed. Diagonal k holds the points (x, y) with x-y = k.
func (s *snakes) middle(xlo, xhi, ylo, yhi int, minimal bool) (xmid, ymid int, loMinimal, hiMinimal bool) {
	fd := func(k int) *int { return &s.fd[k+s.off] }
	bd := func(k int) *int { return &s.bd[k+s.off] }
	const never = int(^uint(0) >> 1)
	dmin, dmax := xlo-yhi, xhi-ylo // the diagonals of the rectangle
	fmid, bmid := xlo-ylo, xhi-yhi // where each search starts
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	*fd(fmid), *bd(bmid) = xlo, xhi
	for c := 1; ; c++ {
		// One more step forwards on every reachable diagonal.
		if fmin > dmin {
			fmin--
			*fd(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*fd(fmax + 1) = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			lo, hi := *fd(k - 1), *fd(k + 1)
			x := lo + 1
			if lo < hi {
				x = hi
			}
			y := x - k
			for x < xhi && y < yhi && s.x[x] == s.y[y] {
				x, y = x+1, y+1
			}
			*fd(k) = x
			if odd && bmin <= k && k <= bmax && *bd(k) <= x {
				return x, y, true, true
			}
		}
		// And one more backwards.
		if bmin > dmin {
			bmin--
			*bd(bmin - 1) = never
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			*bd(bmax + 1) = never
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			lo, hi := *bd(k - 1), *bd(k + 1)
			x := hi - 1
			if lo < hi {
				x = lo
			}
			y := x - k
			for x > xlo && y > ylo && s.x[x-1] == s.y[y-1] {
				x, y = x-1, y-1
			}
			*bd(k) = x
			if !odd && fmin <= k && k <= fmax && x <= *fd(k) {
				return x, y, true, true
			}
		}
		if minimal || c < s.tooExpensive {
			continue
		}
		// Too long a search: split at whichever search went further,
		// and ask the other half for a shortest script.
		fbest, fx := -1, 0 // the forward point with the largest x+y
		for k := fmax; k >= fmin; k -= 2 {
			x := min(*fd(k), xhi)
			y := x - k
			if y > yhi {
				x, y = yhi+k, yhi
			}
			if x+y > fbest {
				fbest, fx = x+y, x
			}
		}
		bbest, bx := never, 0 // the backward point with the smallest x+y
		for k := bmax; k >= bmin; k -= 2 {
			x := max(*bd(k), xlo)
			y := x - k
			if y < ylo {
				x, y = ylo+k, ylo
			}
			if x+y < bbest {
				bbest, bx = x+y, x
			}
		}
		if (xhi+yhi)-bbest < fbest-(xlo+ylo) {
			return fx, fbest - fx, true, false
		}
		return bx, bbest - bx, false, true
	}
}

// slide moves each run of changed lines of one text (changed, over the
// line ids lines) where it reads best, without changing what the script
// does: a run of changes may move by one line whenever the line it leaves
// equals the line it takes. It moves back as far as it can, merging with
// earlier runs, then forward as far as it can, merging with later ones,
// until it stops growing; then back again to end where the last change it
// faces in the other text (other) ends, if it faced one.
func slide(lines []int, changed, other []bool) {
	n := len(lines)
	at := func(c []bool, i int) bool { return i >= 0 && i < len(c) && c[i] }
	i, j := 0, 0 // a line of this text and the matching one of the other
	for {
		for i < n && !changed[i] {
			for at(other, j) {
				j++
			}
			i, j = i+1, j+1
		}
		if i == n {
			return
		}
		start := i
		for at(changed, i) {
			i++
		}
		for at(other, j) {
			j++
		}
		var corresponding int
		for {
			length := i - start
			for start > 0 && lines[start-1] == lines[i-1] {
				start--
				i--
				changed[start], changed[i] = true, false
				for at(changed, start-1) {
					start--
				}
				j--
				for at(other, j) {
					j--
				}
			}
			corresponding = n // no change faced in the other text
			if at(other, j-1) {
				corresponding = i
			}
			for i != n && lines[start] == lines[i] {
				changed[start], changed[i] = false, true
				start++
				i++
				for at(changed, i) {
					i++
				}
				j++
				for at(other, j) {
					j++
					corresponding = i
				}
			}
			if length == i-start {
				break
			}
		}
		for corresponding < i {
			start--
			i--
			changed[start], changed[i] = true, false
			j--
			for at(other, j) {
				j--
			}
		}
	}
}
