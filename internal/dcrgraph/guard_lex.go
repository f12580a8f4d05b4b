package dcrgraph

import (
	"fmt"
	"strings"
)

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokNum
	tokIdent
	tokOp
)

type token struct {
	kind tokKind
	text string
	pos  int // byte offset in the guard, for error messages
}

// twoCharOps are matched before single characters so `<=` is not `<` `=`.
var twoCharOps = []string{"==", "!=", "<=", ">=", "&&", "||", "**"}

const oneCharOps = "<>!+-*/%()[].,"

// lex splits a guard into tokens. Operators the guard language does not
// support (bitwise, ternary, assignment) are rejected here with their name.
func lex(src string) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			end, err := scanNumber(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokNum, src[i:end], i})
			i = end
		case isIdentStart(c):
			end := i + 1
			for end < len(src) && isIdentPart(src[end]) {
				end++
			}
			toks = append(toks, token{tokIdent, src[i:end], i})
			i = end
		default:
			op, err := scanOp(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokOp, op, i})
			i += len(op)
		}
	}
	return append(toks, token{tokEOF, "", len(src)}), nil
}

func scanOp(src string, i int) (string, error) {
	for _, op := range twoCharOps {
		if strings.HasPrefix(src[i:], op) {
			return op, nil
		}
	}
	if strings.IndexByte(oneCharOps, src[i]) >= 0 {
		return src[i : i+1], nil
	}
	if strings.IndexByte("&|^~=?:<>", src[i]) >= 0 {
		return "", fmt.Errorf("offset %d: operator %q is not supported in guards", i, src[i:i+1])
	}
	return "", fmt.Errorf("offset %d: unexpected character %q", i, rune(src[i]))
}

// scanNumber returns the end of the numeric literal starting at i: hex
// (0x...) or decimal with optional fraction and exponent, underscores
// allowed as Solidity allows them. A letter glued to the number (`1ether`)
// is an error, as in Solidity.
func scanNumber(src string, i int) (int, error) {
	end := i
	if strings.HasPrefix(src[i:], "0x") || strings.HasPrefix(src[i:], "0X") {
		end = i + 2
		for end < len(src) && (isHexDigit(src[end]) || src[end] == '_') {
			end++
		}
	} else {
		end = scanDecimal(src, i)
	}
	if end < len(src) && isIdentPart(src[end]) {
		return 0, fmt.Errorf("offset %d: malformed number %q", i, src[i:end+1])
	}
	return end, nil
}

func scanDecimal(src string, i int) int {
	end := i
	digits := func() {
		for end < len(src) && (isDigit(src[end]) || src[end] == '_') {
			end++
		}
	}
	digits()
	if end < len(src) && src[end] == '.' && end+1 < len(src) && isDigit(src[end+1]) {
		end++
		digits()
	}
	if end < len(src) && (src[end] == 'e' || src[end] == 'E') {
		j := end + 1
		if j < len(src) && src[j] == '-' {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			end = j
			digits()
		}
	}
	return end
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool   { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
func isIdentStart(c byte) bool { return c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
func isIdentPart(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentPart(s[i]) {
			return false
		}
	}
	return true
}
