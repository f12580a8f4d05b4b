package bitset

import (
	"slices"
	"testing"
)

func TestAddOrTake(t *testing.T) {
	s := New(10)
	if !s.Add(3) || s.Add(3) || !s.Add(200) {
		t.Fatal("Add: want new, not new, new (grown)")
	}
	var o Set
	o.Add(3)
	o.Add(70)
	if n := s.Or(o); n != 1 || s.Count() != 3 || !s.Has(70) || s.Has(71) {
		t.Fatalf("Or added %d, count %d", n, s.Count())
	}
	var got []uint64
	s.Each(func(i uint64) { got = append(got, i) })
	if !slices.Equal(got, []uint64{3, 70, 200}) {
		t.Fatalf("Each: %v", got)
	}
	taken := s.Take()
	if taken.Count() != 3 || s.Count() != 0 || len(taken) != 4 {
		t.Fatalf("Take: %d taken in %d words, %d left", taken.Count(), len(taken), s.Count())
	}
}
