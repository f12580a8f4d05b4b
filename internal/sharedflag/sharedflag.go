// Package sharedflag defines command-line flags that several stages read.
//
// `solbehave run` binds every stage's flags on one FlagSet, and pflag panics
// when a name is defined twice. A shared flag is therefore defined by the
// first stage that binds it; every later binding adds its own destination to
// the same flag, so all of them receive the parsed value (and each starts at
// the default). Bindings of one name must agree on its type.
package sharedflag

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// fan is a pflag.Value that writes every Set to all its destinations.
type fan[T any] struct {
	typ     string
	val     T
	changed bool
	targets []*T
	parse   func(s string, old T, changed bool) (T, error)
	format  func(T) string
}

func (f *fan[T]) Set(s string) error {
	v, err := f.parse(s, f.val, f.changed)
	if err != nil {
		return err
	}
	f.val, f.changed = v, true
	for _, t := range f.targets {
		*t = v
	}
	return nil
}

func (f *fan[T]) String() string { return f.format(f.val) }
func (f *fan[T]) Type() string   { return f.typ }

// bind defines the flag or joins an existing definition.
func bind[T any](fs *pflag.FlagSet, p *T, name, usage string, f *fan[T]) {
	*p = f.val
	if existing := fs.Lookup(name); existing != nil {
		shared, ok := existing.Value.(*fan[T])
		if !ok {
			panic(fmt.Sprintf("sharedflag: --%s is already defined, not as a shared %s flag", name, f.typ))
		}
		*p = shared.val
		shared.targets = append(shared.targets, p)
		return
	}
	f.targets = []*T{p}
	fs.Var(f, name, usage)
}

// String binds a shared string flag.
func String(fs *pflag.FlagSet, p *string, name, value, usage string) {
	bind(fs, p, name, usage, &fan[string]{typ: "string", val: value,
		parse:  func(s string, _ string, _ bool) (string, error) { return s, nil },
		format: func(v string) string { return v }})
}

// Int binds a shared int flag.
func Int(fs *pflag.FlagSet, p *int, name string, value int, usage string) {
	bind(fs, p, name, usage, &fan[int]{typ: "int", val: value,
		parse:  func(s string, _ int, _ bool) (int, error) { return strconv.Atoi(s) },
		format: strconv.Itoa})
}

// Duration binds a shared duration flag.
func Duration(fs *pflag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	bind(fs, p, name, usage, &fan[time.Duration]{typ: "duration", val: value,
		parse:  func(s string, _ time.Duration, _ bool) (time.Duration, error) { return time.ParseDuration(s) },
		format: func(v time.Duration) string { return v.String() }})
}

// StringList binds a shared comma-separated list flag. The first use on the
// command line replaces the default; repeated uses append.
func StringList(fs *pflag.FlagSet, p *[]string, name string, value []string, usage string) {
	bind(fs, p, name, usage, &fan[[]string]{typ: "strings", val: value,
		parse: func(s string, old []string, changed bool) ([]string, error) {
			var items []string
			for _, it := range strings.Split(s, ",") {
				if it = strings.TrimSpace(it); it != "" {
					items = append(items, it)
				}
			}
			if changed {
				return append(append([]string(nil), old...), items...), nil
			}
			return items, nil
		},
		format: func(v []string) string { return strings.Join(v, ",") }})
}
