// Package bitset is a growable set of small integers, one bit each: the
// program-counter and branch sets behind coverage in chain, fuzz and vuln,
// where a map entry per executed instruction would cost more than the EVM.
package bitset

import (
	"math/bits"
	"slices"
)

// Set holds integer i as bit i&63 of word i>>6.
type Set []uint64

// New is an empty set with room for 0..size without growing.
func New(size int) Set { return make(Set, size/64+1) }

// Add puts i in the set, growing it when needed, and reports whether i was new.
func (s *Set) Add(i uint64) bool {
	w := int(i >> 6)
	if w >= len(*s) {
		*s = append(*s, make(Set, w-len(*s)+1)...)
	}
	mask := uint64(1) << (i & 63)
	if (*s)[w]&mask != 0 {
		return false
	}
	(*s)[w] |= mask
	return true
}

// Has reports whether i is in the set.
func (s Set) Has(i uint64) bool {
	w := int(i >> 6)
	return w < len(s) && s[w]&(1<<(i&63)) != 0
}

// Count is the number of integers in the set.
func (s Set) Count() (n int) {
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Or adds o to s and returns how many integers were new.
func (s *Set) Or(o Set) (added int) {
	if len(o) > len(*s) {
		*s = append(*s, make(Set, len(o)-len(*s))...)
	}
	for i, w := range o {
		added += bits.OnesCount64(w &^ (*s)[i])
		(*s)[i] |= w
	}
	return added
}

// Each calls f on every integer of the set, in increasing order.
func (s Set) Each(f func(uint64)) {
	for i, w := range s {
		for ; w != 0; w &= w - 1 {
			f(uint64(i*64 + bits.TrailingZeros64(w)))
		}
	}
}

// Take returns a copy of s trimmed after its last non-zero word and empties s.
func (s Set) Take() Set {
	hi := len(s)
	for hi > 0 && s[hi-1] == 0 {
		hi--
	}
	out := slices.Clone(s[:hi])
	clear(s[:hi])
	return out
}
