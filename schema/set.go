package schema

import (
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"math"
)

// Set holds decoded JSON values distinct as Equal tells them apart. Adding
// or looking up a value takes time in the size of the value, not of the
// set: deduplicating or matching lists by comparing every pair (an enum
// against an enum, the branches of an anyOf) took time in the square of
// their length, and a list of 100,000 values is a few megabytes.
type Set struct {
	buckets map[uint64][]any
	n       int
}

// NewSet returns a set of vs.
func NewSet(vs ...any) *Set {
	s := &Set{buckets: make(map[uint64][]any, len(vs))}
	for _, v := range vs {
		s.Add(v)
	}
	return s
}

// Add adds v and reports whether it was not in the set.
func (s *Set) Add(v any) bool {
	if s.buckets == nil {
		s.buckets = map[uint64][]any{}
	}
	h := Hash(v)
	for _, w := range s.buckets[h] {
		if Equal(v, w) {
			return false
		}
	}
	s.buckets[h] = append(s.buckets[h], v)
	s.n++
	return true
}

// Has reports whether v is in the set.
func (s *Set) Has(v any) bool {
	if s == nil {
		return false
	}
	for _, w := range s.buckets[Hash(v)] {
		if Equal(v, w) {
			return true
		}
	}
	return false
}

// Len is the number of values in the set.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

var hashSeed = maphash.MakeSeed()

// Hash is a hash of a decoded JSON value that agrees with Equal: equal
// values hash alike (numbers by their float64 value, objects whatever the
// order of their members).
func Hash(v any) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	writeHash(&h, v)
	return h.Sum64()
}

func writeHash(h *maphash.Hash, v any) {
	var buf [9]byte
	switch x := v.(type) {
	case map[string]any:
		// Members are summed, each hashed alone: the sum does not depend
		// on their order.
		var sum uint64
		for k, e := range x {
			var m maphash.Hash
			m.SetSeed(hashSeed)
			m.WriteString(k)
			m.WriteByte(0)
			writeHash(&m, e)
			sum += m.Sum64()
		}
		buf[0] = '{'
		binary.LittleEndian.PutUint64(buf[1:], sum)
		h.Write(buf[:])
	case []any:
		buf[0] = '['
		binary.LittleEndian.PutUint64(buf[1:], uint64(len(x)))
		h.Write(buf[:])
		for _, e := range x {
			writeHash(h, e)
		}
	case string:
		h.WriteByte('"')
		h.WriteString(x)
		h.WriteByte(0)
	case bool:
		if x {
			h.WriteByte('t')
		} else {
			h.WriteByte('f')
		}
	case nil:
		h.WriteByte('n')
	case json.Number, float64, int, int64:
		f, ok := Number(x)
		if !ok {
			// Not a float64 (a spelling Equal compares as text).
			h.WriteByte('?')
			h.WriteString(x.(json.Number).String())
			return
		}
		if f == 0 {
			f = 0 // -0 and 0 are equal
		}
		buf[0] = '0'
		binary.LittleEndian.PutUint64(buf[1:], math.Float64bits(f))
		h.Write(buf[:])
	default:
		h.WriteByte('x')
	}
}
