package dcrgraph

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// units are Solidity's ether and time denominations, as literal suffixes.
var units = map[string]*big.Int{
	"wei":     big.NewInt(1),
	"gwei":    big.NewInt(1e9),
	"szabo":   big.NewInt(1e12),
	"finney":  big.NewInt(1e15),
	"ether":   big.NewInt(1e18),
	"seconds": big.NewInt(1),
	"minutes": big.NewInt(60),
	"hours":   big.NewInt(3600),
	"days":    big.NewInt(86400),
	"weeks":   big.NewInt(604800),
	"years":   big.NewInt(31536000),
}

// maxExponent bounds `1eN` so a hostile literal cannot allocate without
// limit; uint256 needs at most 78 digits.
const maxExponent = 256

// parseNumber evaluates a Solidity number literal times unit (nil for none).
// Like Solidity, `0.5 ether` is fine and `0.5` alone is not: the result must
// be an integer. addr reports a 40-digit hex literal, which Solidity types as
// an address.
func parseNumber(text string, unit *big.Int) (n *big.Int, addr bool, err error) {
	if strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X") {
		n, err = parseHex(text[2:])
		addr = len(strings.ReplaceAll(text[2:], "_", "")) == 40 && unit == nil
	} else {
		n, err = parseDecimal(text, unit)
		unit = nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("number %q: %w", text, err)
	}
	if unit != nil {
		n.Mul(n, unit)
	}
	return n, addr, nil
}

func parseHex(digits string) (*big.Int, error) {
	clean, err := stripUnderscores(digits)
	if err != nil {
		return nil, err
	}
	n, ok := new(big.Int).SetString(clean, 16)
	if !ok {
		return nil, errors.New("bad hex digits")
	}
	return n, nil
}

func parseDecimal(text string, unit *big.Int) (*big.Int, error) {
	mant, exp, err := splitExponent(text)
	if err != nil {
		return nil, err
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits, err := stripUnderscores(intPart + frac)
	if err != nil || (intPart == "" && frac == "") {
		return nil, errors.New("bad digits")
	}
	if strings.Contains(mant, ".") && (strings.HasSuffix(intPart, "_") || strings.HasPrefix(frac, "_")) {
		return nil, errors.New("underscore next to the decimal point")
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, errors.New("bad digits")
	}
	if unit != nil {
		n.Mul(n, unit)
	}
	return scaleByPowerOfTen(n, exp-len(frac))
}

// splitExponent separates `1.5e18` into "1.5" and 18.
func splitExponent(text string) (string, int, error) {
	i := strings.IndexAny(text, "eE")
	if i < 0 {
		return text, 0, nil
	}
	e := text[i+1:]
	neg := strings.HasPrefix(e, "-")
	e, err := stripUnderscores(strings.TrimPrefix(e, "-"))
	if err != nil || e == "" {
		return "", 0, errors.New("bad exponent")
	}
	exp := 0
	for _, c := range e {
		exp = exp*10 + int(c-'0')
		if exp > maxExponent {
			return "", 0, fmt.Errorf("exponent above %d", maxExponent)
		}
	}
	if neg {
		exp = -exp
	}
	return text[:i], exp, nil
}

func scaleByPowerOfTen(n *big.Int, k int) (*big.Int, error) {
	if k >= 0 {
		return n.Mul(n, pow10(k)), nil
	}
	d := pow10(-k)
	q, r := new(big.Int).QuoRem(n, d, new(big.Int))
	if r.Sign() != 0 {
		return nil, errors.New("not an integer")
	}
	return q, nil
}

func pow10(k int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
}

// stripUnderscores removes Solidity digit separators, which may only stand
// between two digits.
func stripUnderscores(s string) (string, error) {
	if strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return "", errors.New("misplaced underscore")
	}
	return strings.ReplaceAll(s, "_", ""), nil
}

// parseIntegerText reads an integer written as in a guard literal, with an
// optional leading minus: "42", "-1", "0xff", "1e18", "1_000".
func parseIntegerText(s string) (*big.Int, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	if body == "" || !(isDigit(body[0]) || body[0] == '.') {
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	if end, err := scanNumber(body, 0); err != nil || end != len(body) {
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	n, _, err := parseNumber(body, nil)
	if err != nil {
		return nil, err
	}
	if neg {
		n.Neg(n)
	}
	return n, nil
}
