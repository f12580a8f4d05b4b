package sequences

import (
	"strconv"

	"github.com/spf13/pflag"
)

// optional is a flag whose destination stays nil until the flag is given: a
// part of the O3 profile that, when set, overrides the profile's.
type optional[T any] struct {
	dst    **T
	typ    string
	parse  func(string) (T, error)
	format func(T) string
}

// Set parses a value; "" unsets it (the profile's again), so a configuration
// file that lists every key with its default reads back.
func (o optional[T]) Set(s string) error {
	if s == "" {
		*o.dst = nil
		return nil
	}
	v, err := o.parse(s)
	if err != nil {
		return err
	}
	*o.dst = &v
	return nil
}

func (o optional[T]) String() string {
	if o.dst == nil || *o.dst == nil {
		return ""
	}
	return o.format(**o.dst)
}

func (o optional[T]) Type() string { return o.typ }

func optionalInt(fs *pflag.FlagSet, dst **int, name, usage string) {
	fs.Var(optional[int]{dst: dst, typ: "int", parse: strconv.Atoi, format: strconv.Itoa}, name, usage)
}

// optionalBool is a boolean flag: --name alone means true.
func optionalBool(fs *pflag.FlagSet, dst **bool, name, usage string) {
	fs.Var(optional[bool]{dst: dst, typ: "bool", parse: strconv.ParseBool, format: strconv.FormatBool}, name, usage)
	fs.Lookup(name).NoOptDefVal = "true"
}
