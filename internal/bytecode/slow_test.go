package bytecode

import (
	"bytes"
	"testing"
	"time"
	"math/rand"
)

func TestSlowProbe(t *testing.T) {
	tok := loadFixture(t, fixtures[2])
	for _, n := range []int{10_000, 100_000} {
		code := bytes.Repeat([]byte{0x60, 0x01}, n)
		st := time.Now()
		exercise(t, code, tok.abi)
		t.Logf("push run %d: %v", n, time.Since(st))
		rng := rand.New(rand.NewSource(1))
		code = make([]byte, n*2)
		rng.Read(code)
		st = time.Now()
		exercise(t, code, tok.abi)
		t.Logf("random %d: %v", n, time.Since(st))
		code = bytes.Repeat(tok.code, n/1000)
		st = time.Now()
		exercise(t, code, tok.abi)
		t.Logf("repeated fixture %d: %v", n, time.Since(st))
	}
}
