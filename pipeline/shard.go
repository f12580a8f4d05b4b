package pipeline

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the units whose contract hashes to shard I of N, so N
// processes (on one machine or many) split a corpus without coordination.
// Every unit of a contract lands in the same shard, and shards write disjoint
// partitions, so the views read the union. The zero value selects everything.
type Shard struct{ I, N int }

// ParseShard reads "i/n" (0 <= i < n).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 <= i < n", s)
	}
	return Shard{I: i, N: n}, nil
}

// Owns tells whether a contract's units belong to this shard.
func (s Shard) Owns(contract string) bool {
	if s.N <= 1 {
		return true
	}
	sum := sha256.Sum256([]byte(contract))
	return int(binary.BigEndian.Uint64(sum[:8])%uint64(s.N)) == s.I
}

// Filter keeps the units this shard owns.
func (s Shard) Filter(units []Unit) []Unit {
	if s.N <= 1 {
		return units
	}
	var out []Unit
	for _, u := range units {
		if s.Owns(u.Contract) {
			out = append(out, u)
		}
	}
	return out
}
