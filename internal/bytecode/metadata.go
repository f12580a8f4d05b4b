package bytecode

// SplitMetadata separates the CBOR metadata tail that solc (0.4.7 on) and
// Vyper append to runtime code from the code before it. The tail is a CBOR
// map followed by its 2-byte big-endian length: 0.4.x–0.5.x write
// `a1 65 "bzzr0" 58 20 <32 bytes> 00 29`, later versions a map with "ipfs"
// or "bzzr1" and "solc" (e.g. `a2 64 "ipfs" ... 64 "solc" 43 <3 bytes> 00 33`).
// The tail is recognised only when the length fits, the map parses exactly
// and every key is one a compiler writes; otherwise meta is nil and body is
// code.
func SplitMetadata(code []byte) (body, meta []byte) {
	n := len(code)
	if n < 2 {
		return code, nil
	}
	size := int(code[n-2])<<8 | int(code[n-1])
	if size == 0 || size+2 > n {
		return code, nil
	}
	start := n - 2 - size
	if !isCompilerCBOR(code[start : n-2]) {
		return code, nil
	}
	return code[:start:start], code[start:]
}

// metadataKeys are the map keys compilers write into the metadata tail.
var metadataKeys = map[string]bool{
	"bzzr0": true, "bzzr1": true, "ipfs": true, "solc": true,
	"experimental": true, "vyper": true,
}

// isCompilerCBOR reports whether b is exactly one small CBOR map whose keys
// are all metadata keys and whose values are byte/text strings, booleans or
// arrays of small unsigned integers (Vyper's version triple).
func isCompilerCBOR(b []byte) bool {
	r := cborReader{b: b}
	head, ok := r.byte()
	if !ok || head < 0xa1 || head > 0xb7 {
		return false
	}
	for range int(head - 0xa0) {
		key, ok := r.text()
		if !ok || !metadataKeys[key] {
			return false
		}
		if !r.skipValue() {
			return false
		}
	}
	return r.pos == len(b)
}

// cborReader decodes the small subset of CBOR found in compiler metadata.
type cborReader struct {
	b   []byte
	pos int
}

func (r *cborReader) byte() (byte, bool) {
	if r.pos >= len(r.b) {
		return 0, false
	}
	r.pos++
	return r.b[r.pos-1], true
}

// length reads the argument of a head byte whose major type is already known.
func (r *cborReader) length(head byte) (int, bool) {
	info := head & 0x1f
	switch {
	case info < 24:
		return int(info), true
	case info == 24:
		v, ok := r.byte()
		return int(v), ok
	case info == 25:
		hi, ok1 := r.byte()
		lo, ok2 := r.byte()
		return int(hi)<<8 | int(lo), ok1 && ok2
	}
	return 0, false
}

func (r *cborReader) bytes(n int) ([]byte, bool) {
	if n < 0 || r.pos+n > len(r.b) {
		return nil, false
	}
	r.pos += n
	return r.b[r.pos-n : r.pos], true
}

func (r *cborReader) text() (string, bool) {
	head, ok := r.byte()
	if !ok || head>>5 != 3 {
		return "", false
	}
	n, ok := r.length(head)
	if !ok {
		return "", false
	}
	s, ok := r.bytes(n)
	return string(s), ok
}

func (r *cborReader) skipValue() bool {
	head, ok := r.byte()
	if !ok {
		return false
	}
	switch head >> 5 {
	case 0: // unsigned integer
		_, ok = r.length(head)
		return ok
	case 2, 3: // byte string, text string
		n, ok := r.length(head)
		if !ok {
			return false
		}
		_, ok = r.bytes(n)
		return ok
	case 4: // array of unsigned integers
		n, ok := r.length(head)
		if !ok {
			return false
		}
		for range n {
			h, ok := r.byte()
			if !ok || h>>5 != 0 {
				return false
			}
			if _, ok := r.length(h); !ok {
				return false
			}
		}
		return true
	case 7: // false, true
		return head == 0xf4 || head == 0xf5
	}
	return false
}
