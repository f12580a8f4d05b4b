package solc

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/solbehave/solbehave/internal/soltext"
)

// ErrNoPragma is returned by PragmaRelease when the source has no
// `pragma solidity` directive.
var ErrNoPragma = errors.New("solc: source has no pragma solidity")

var pragmaPattern = regexp.MustCompile(`\bpragma\s+solidity\s+([^;]+);`)

// PragmaRelease returns the newest known release (0.4.9 .. 0.8.30) that every
// `pragma solidity` of the source admits. Comments are ignored; several
// pragmas (flattened files) must all hold.
func PragmaRelease(source string) (string, error) {
	ranges, err := pragmaRanges(source)
	if err != nil {
		return "", err
	}
	return newestAdmitted(ranges)
}

func newestAdmitted(ranges []versionRange) (string, error) {
	for i := len(releases) - 1; i >= 0; i-- {
		if allAdmit(ranges, releases[i]) {
			return releases[i].String(), nil
		}
	}
	return "", fmt.Errorf("%w: no known release satisfies the pragmas", ErrUnknownVersion)
}

func pragmaRanges(source string) ([]versionRange, error) {
	var out []versionRange
	for _, m := range pragmaPattern.FindAllStringSubmatch(soltext.BlankComments(source), -1) {
		r, err := parseRange(m[1])
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, ErrNoPragma
	}
	return out, nil
}

func allAdmit(ranges []versionRange, v semver) bool {
	for _, r := range ranges {
		if !r.admits(v) {
			return false
		}
	}
	return true
}

// versionRange is a disjunction of conjunctions of comparators (semver
// ranges as solc reads them: `^0.4.18`, `>=0.4.22 <0.6.0`, `0.5.0 - 0.5.9`,
// `~0.4.24 || ^0.5.0`).
type versionRange [][]comparator

type comparator struct {
	op string // one of = > >= < <=
	v  semver
}

func (r versionRange) admits(v semver) bool {
	for _, conj := range r {
		ok := true
		for _, c := range conj {
			if !c.holds(v) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (c comparator) holds(v semver) bool {
	switch c.op {
	case "=":
		return v == c.v
	case ">":
		return c.v.less(v)
	case ">=":
		return !v.less(c.v)
	case "<":
		return v.less(c.v)
	case "<=":
		return !c.v.less(v)
	}
	return false
}

func parseRange(text string) (versionRange, error) {
	var r versionRange
	for _, alt := range strings.Split(text, "||") {
		conj, err := parseConjunction(alt)
		if err != nil {
			return nil, fmt.Errorf("solc: bad pragma solidity %q: %w", strings.TrimSpace(text), err)
		}
		r = append(r, conj)
	}
	return r, nil
}

var opPrefix = regexp.MustCompile(`^(\^|~|>=|<=|>|<|=)?\s*`)

func parseConjunction(text string) ([]comparator, error) {
	fields := strings.Fields(joinOperators(text))
	if len(fields) == 0 {
		return nil, errors.New("empty range")
	}
	if len(fields) == 3 && fields[1] == "-" { // hyphen range
		lo, err := parsePartial(fields[0])
		if err != nil {
			return nil, err
		}
		hi, err := parsePartial(fields[2])
		if err != nil {
			return nil, err
		}
		return []comparator{{">=", lo.floor()}, hi.upper("<=")}, nil
	}
	var out []comparator
	for _, f := range fields {
		cs, err := parseComparator(f)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// joinOperators glues an operator to its version (`>= 0.4.22` -> `>=0.4.22`).
func joinOperators(text string) string {
	return spacedOperator.ReplaceAllString(text, "$1")
}

var spacedOperator = regexp.MustCompile(`(\^|~|>=|<=|>|<|=)\s+`)

func parseComparator(f string) ([]comparator, error) {
	op := opPrefix.FindString(f)
	p, err := parsePartial(f[len(op):])
	if err != nil {
		return nil, err
	}
	op = strings.TrimSpace(op)
	lo := p.floor()
	switch op {
	case "^":
		return []comparator{{">=", lo}, {"<", p.caretCeil()}}, nil
	case "~":
		return []comparator{{">=", lo}, {"<", p.tildeCeil()}}, nil
	case "", "=":
		if p.parts == 3 {
			return []comparator{{"=", lo}}, nil
		}
		return []comparator{{">=", lo}, {"<", p.nextUp()}}, nil
	case ">=":
		return []comparator{{">=", lo}}, nil
	case "<":
		return []comparator{{"<", lo}}, nil
	case ">":
		if p.parts == 3 {
			return []comparator{{">", lo}}, nil
		}
		return []comparator{{">=", p.nextUp()}}, nil
	case "<=":
		return []comparator{p.upper("<=")}, nil
	}
	return nil, fmt.Errorf("unknown operator %q", op)
}

// partial is a version with 0-3 given parts (`0.4`, `0.4.x`, `*`).
type partial struct {
	v     semver
	parts int
}

func parsePartial(s string) (partial, error) {
	s = strings.TrimPrefix(s, "v")
	if s == "*" || s == "x" || s == "X" {
		return partial{}, nil
	}
	var p partial
	nums := []*int{&p.v.Major, &p.v.Minor, &p.v.Patch}
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return partial{}, fmt.Errorf("bad version %q", s)
	}
	for i, part := range parts {
		if part == "*" || part == "x" || part == "X" {
			break
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			return partial{}, fmt.Errorf("bad version %q", s)
		}
		*nums[i] = n
		p.parts = i + 1
	}
	return p, nil
}

func (p partial) floor() semver { return p.v }

// nextUp is the first version past everything the partial matches.
func (p partial) nextUp() semver {
	switch p.parts {
	case 0:
		return semver{1 << 30, 0, 0}
	case 1:
		return semver{p.v.Major + 1, 0, 0}
	case 2:
		return semver{p.v.Major, p.v.Minor + 1, 0}
	}
	return semver{p.v.Major, p.v.Minor, p.v.Patch + 1}
}

func (p partial) upper(op string) comparator {
	if p.parts == 3 {
		return comparator{op, p.v}
	}
	return comparator{"<", p.nextUp()}
}

// caretCeil: ^ allows changes that do not modify the left-most non-zero part.
func (p partial) caretCeil() semver {
	switch {
	case p.v.Major > 0 || p.parts == 1:
		return semver{p.v.Major + 1, 0, 0}
	case p.v.Minor > 0 || p.parts == 2:
		return semver{0, p.v.Minor + 1, 0}
	}
	return semver{0, 0, p.v.Patch + 1}
}

// tildeCeil: ~ allows patch-level changes (minor-level when only a major is given).
func (p partial) tildeCeil() semver {
	if p.parts <= 1 {
		return p.nextUp()
	}
	return semver{p.v.Major, p.v.Minor + 1, 0}
}
