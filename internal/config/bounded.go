package config

import (
	"fmt"
	"math"
	"strconv"

	"github.com/spf13/pflag"
)

// Share binds a float64 flag that is a share, probability or weight: its
// value, from the command line or solbehave.toml, must lie in [0, 1] (7.5
// or -0.5 would silently keep or drop everything).
func Share(fs *pflag.FlagSet, p *float64, name string, value float64, usage string) {
	bind(fs, &bounded{p: p, min: 0, max: 1, what: "a share, from 0 to 1"}, name, value, usage)
}

// Rate binds a float64 flag that is a rate (per second): positive and finite.
func Rate(fs *pflag.FlagSet, p *float64, name string, value float64, usage string) {
	bind(fs, &bounded{p: p, min: math.SmallestNonzeroFloat64, max: math.MaxFloat64, what: "a rate, above 0"}, name, value, usage)
}

// Between binds a float64 flag that must lie in [min, max].
func Between(fs *pflag.FlagSet, p *float64, name string, value, min, max float64, usage string) {
	what := fmt.Sprintf("from %g to %g", min, max)
	if max == math.MaxFloat64 {
		what = fmt.Sprintf("%g or more", min)
	}
	bind(fs, &bounded{p: p, min: min, max: max, what: what}, name, value, usage)
}

func bind(fs *pflag.FlagSet, b *bounded, name string, value float64, usage string) {
	*b.p = value
	fs.Var(b, name, usage)
}

// bounded is a float64 flag value whose Set refuses what lies outside
// [min, max] (NaN and infinities included); it reads and prints as pflag's
// float64, so recorded parameters and fingerprints are unchanged.
type bounded struct {
	p        *float64
	min, max float64
	what     string
}

func (b *bounded) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	if math.IsNaN(v) || v < b.min || v > b.max {
		return fmt.Errorf("%s is out of range: it is %s", s, b.what)
	}
	*b.p = v
	return nil
}

func (b *bounded) String() string { return strconv.FormatFloat(*b.p, 'g', -1, 64) }

func (b *bounded) Type() string { return "float64" }

// IntBetween binds an int flag that must lie in [min, max] (`jobs = -5` in
// solbehave.toml ran one job in silence); it reads and prints as pflag's
// int.
func IntBetween(fs *pflag.FlagSet, p *int, name string, value, min, max int, usage string) {
	*p = value
	fs.Var(&boundedInt{p: p, min: min, max: max}, name, usage)
}

type boundedInt struct {
	p        *int
	min, max int
}

func (b *boundedInt) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	if v < b.min || v > b.max {
		return fmt.Errorf("%s is out of range: it is from %d to %d", s, b.min, b.max)
	}
	*b.p = v
	return nil
}

func (b *boundedInt) String() string { return strconv.Itoa(*b.p) }

func (b *boundedInt) Type() string { return "int" }
