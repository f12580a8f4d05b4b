package fuzz

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
)

// maxDictionary bounds each pool of a Dictionary: a contract's bytecode can
// hold thousands of PUSH operands, most of them jump targets, and a huge
// pool would dilute the few constants that matter.
const maxDictionary = 4096

// Dictionary holds the constants a Generator prefers over random values:
// words mined from bytecode and source, addresses of known actors, and
// string literals. Insertion order is kept (and duplicates dropped), so a
// dictionary built the same way always drives a Generator the same way.
type Dictionary struct {
	words []uint256.Int
	addrs []common.Address
	texts []string

	seenWord map[uint256.Int]bool
	seenAddr map[common.Address]bool
	seenText map[string]bool
}

// NewDictionary returns an empty dictionary.
func NewDictionary() *Dictionary {
	return &Dictionary{seenWord: map[uint256.Int]bool{}, seenAddr: map[common.Address]bool{}, seenText: map[string]bool{}}
}

// AddWord adds a numeric constant.
func (d *Dictionary) AddWord(w uint256.Int) {
	if d.seenWord[w] || len(d.words) >= maxDictionary {
		return
	}
	d.seenWord[w] = true
	d.words = append(d.words, w)
}

// AddBig adds a non-negative integer below 2^256 (others are ignored).
func (d *Dictionary) AddBig(v *big.Int) {
	if v == nil || v.Sign() < 0 || v.BitLen() > 256 {
		return
	}
	d.AddWord(*uint256.MustFromBig(v))
}

// AddAddress adds a known actor (deployer, sender, contract, library...).
func (d *Dictionary) AddAddress(a common.Address) {
	if d.seenAddr[a] || len(d.addrs) >= maxDictionary {
		return
	}
	d.seenAddr[a] = true
	d.addrs = append(d.addrs, a)
}

// AddText adds a string literal (for string, bytes and bytesN values).
func (d *Dictionary) AddText(s string) {
	if d.seenText[s] || len(d.texts) >= maxDictionary {
		return
	}
	d.seenText[s] = true
	d.texts = append(d.texts, s)
}

// Words, Addresses and Texts return the pools, in insertion order. The
// slices are the dictionary's own: do not modify them.
func (d *Dictionary) Words() []uint256.Int        { return d.words }
func (d *Dictionary) Addresses() []common.Address { return d.addrs }
func (d *Dictionary) Texts() []string             { return d.texts }

// Len is the number of entries in all pools.
func (d *Dictionary) Len() int { return len(d.words) + len(d.addrs) + len(d.texts) }

// AddWords adds every 32-byte word of ABI-encoded data (constructor
// arguments, say); a short tail is ignored.
func (d *Dictionary) AddWords(data []byte) {
	for i := 0; i+32 <= len(data); i += 32 {
		var w uint256.Int
		w.SetBytes32(data[i : i+32])
		d.AddWord(w)
	}
}

// Seeds are what NewDictionaryFrom mines.
type Seeds struct {
	Actors  []common.Address     // deployer, contract, libraries, senders seen in the history...
	Encoded [][]byte             // ABI-encoded data, e.g. constructor arguments
	Storage []chain.StorageWrite // values stored at deployment (the creation's storage writes)
	Sources []string             // Solidity source texts
	Code    [][]byte             // bytecodes (creation and runtime), for their PUSH operands
}

// NewDictionaryFrom builds a dictionary from seeds, the scarcest and most
// telling first (actors, constructor arguments, stored values, source
// literals), bytecode operands last, so the size cap never drops the former.
func NewDictionaryFrom(s Seeds) *Dictionary {
	d := NewDictionary()
	for _, a := range s.Actors {
		d.AddAddress(a)
	}
	for _, e := range s.Encoded {
		d.AddWords(e)
	}
	for _, w := range s.Storage {
		var v uint256.Int
		v.SetBytes32(w.Value[:])
		d.AddWord(v)
	}
	for _, src := range s.Sources {
		d.AddSource(src)
	}
	for _, code := range s.Code {
		d.AddBytecode(code)
	}
	return d
}

// AddBytecode adds every PUSH1..PUSH32 operand of code (runtime or creation
// code); 20-byte operands are also added as addresses, since solc pushes
// hard-coded addresses that way.
func (d *Dictionary) AddBytecode(code []byte) {
	for pc := 0; pc < len(code); pc++ {
		op := code[pc]
		if op < 0x60 || op > 0x7f { // PUSH1 = 0x60 ... PUSH32 = 0x7f
			continue
		}
		n := int(op-0x60) + 1
		end := min(pc+1+n, len(code))
		operand := code[pc+1 : end]
		var w uint256.Int
		w.SetBytes(operand)
		d.AddWord(w)
		if n == 20 && len(operand) == 20 {
			d.AddAddress(common.BytesToAddress(operand))
		}
		pc = end - 1
	}
}

// subdenominations are Solidity's ether and time units, as multipliers.
var subdenominations = map[string]int64{
	"wei": 1, "gwei": 1e9, "szabo": 1e12, "finney": 1e15, "ether": 1e18,
	"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "weeks": 604800, "years": 31536000,
}

// AddSource adds the number literals of Solidity source text (decimal, hex,
// scientific, with underscores and units: `10 finney` adds 10^16) and its
// string literals; comments are skipped.
func (d *Dictionary) AddSource(src string) {
	lx := lexer{src: src}
	for {
		kind, tok := lx.next()
		switch kind {
		case tokEOF:
			return
		case tokString:
			d.AddText(tok)
		case tokNumber:
			if v := numberValue(tok, lx.unit()); v != nil {
				d.AddBig(v)
			}
		}
	}
}

// numberValue evaluates a Solidity number literal times its unit; nil when
// the result is not a non-negative integer (e.g. `0.5 wei`).
func numberValue(lit, unit string) *big.Int {
	lit = strings.ReplaceAll(lit, "_", "")
	mult := big.NewInt(1)
	if m, ok := subdenominations[unit]; ok {
		mult.SetInt64(m)
	}
	if strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X") {
		v, ok := new(big.Int).SetString(lit[2:], 16)
		if !ok {
			return nil
		}
		return v.Mul(v, mult)
	}
	mantissa, exp, _ := strings.Cut(strings.ToLower(lit), "e")
	r, ok := new(big.Rat).SetString(mantissa)
	if !ok {
		return nil
	}
	if exp != "" {
		e, ok := new(big.Int).SetString(exp, 10)
		if !ok || e.Sign() < 0 || e.Cmp(big.NewInt(77)) > 0 {
			return nil
		}
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), e, nil)))
	}
	r.Mul(r, new(big.Rat).SetInt(mult))
	if !r.IsInt() {
		return nil
	}
	return r.Num()
}

const (
	tokEOF = iota
	tokNumber
	tokString
)

// lexer finds number and string literals in Solidity source, skipping
// comments and identifiers (so `uint256` yields no 256).
type lexer struct {
	src string
	pos int
}

func (l *lexer) next() (int, string) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case strings.HasPrefix(l.src[l.pos:], "//"):
			l.skipPast("\n")
		case strings.HasPrefix(l.src[l.pos:], "/*"):
			l.skipPast("*/")
		case c == '"' || c == '\'':
			return tokString, l.quoted(c)
		case isDigit(c):
			return tokNumber, l.number()
		case isIdentStart(c):
			for l.pos < len(l.src) && isIdentPart(l.src[l.pos]) {
				l.pos++
			}
		default:
			l.pos++
		}
	}
	return tokEOF, ""
}

func (l *lexer) skipPast(end string) {
	i := strings.Index(l.src[l.pos:], end)
	if i < 0 {
		l.pos = len(l.src)
		return
	}
	l.pos += i + len(end)
}

// quoted reads a string literal, resolving the common escapes.
func (l *lexer) quoted(q byte) string {
	var b strings.Builder
	l.pos++
	for l.pos < len(l.src) && l.src[l.pos] != q && l.src[l.pos] != '\n' {
		c := l.src[l.pos]
		if c == '\\' && l.pos+1 < len(l.src) {
			l.pos++
			c = unescape(l.src[l.pos])
		}
		b.WriteByte(c)
		l.pos++
	}
	l.pos++
	return b.String()
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case '0':
		return 0
	}
	return c // \\, \", \' and anything else: the character itself
}

func (l *lexer) number() string {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		signedExp := (c == '-' || c == '+') && l.pos > start && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') &&
			!strings.HasPrefix(strings.ToLower(l.src[start:]), "0x")
		if !isIdentPart(c) && c != '.' && !signedExp {
			break
		}
		l.pos++
	}
	return l.src[start:l.pos]
}

// unit reads the identifier right after a number, if it is a subdenomination.
func (l *lexer) unit() string {
	i := l.pos
	for i < len(l.src) && (l.src[i] == ' ' || l.src[i] == '\t') {
		i++
	}
	j := i
	for j < len(l.src) && isIdentPart(l.src[j]) {
		j++
	}
	if _, ok := subdenominations[l.src[i:j]]; ok {
		l.pos = j
		return l.src[i:j]
	}
	return ""
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
func isIdentPart(c byte) bool  { return isIdentStart(c) || isDigit(c) }
