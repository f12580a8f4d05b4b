// Package config is solbehave's project configuration: a TOML file
// (solbehave.toml in the working folder, or --config FILE) holds global and
// stage parameters under their flag names; flags given on the command line
// override it for one invocation. Every flag of the key space (the global
// flags, `run`'s flags and every stage's flags, as the stages bind them) is a
// key, so a flag a stage adds is configurable with no change here. koanf
// reads the file and layers defaults, file and flags.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/posflag"
	"github.com/knadh/koanf/providers/rawbytes"
	"github.com/knadh/koanf/v2"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// FileName is the configuration file looked up in the working folder.
const FileName = "solbehave.toml"

// Source says where an effective value came from.
type Source string

const (
	Default Source = "default"
	File    Source = "file"
	Flag    Source = "flag"
	Release Source = "release" // the release a run starts from (run --from-release)
	Pinned  Source = "pinned"  // the data folder's evaluation (pipeline.Evaluation)
)

// delim separates nested keys; flag names have no dot, so a TOML table
// (`[o2]`) yields a dotted key that is reported as unknown.
const delim = "."

// Config is the effective configuration of one invocation.
type Config struct {
	Path    string         // the file read, "" when none
	keys    *pflag.FlagSet // the key space, holding the effective values
	sources map[string]Source
}

// Load reads the configuration file (path, or FileName in the working folder
// when path is "" and the file exists), checks its keys and values against the
// key space, merges the flags set on cmd over it, and sets the file's values
// on the flags of cmd that the command line left alone, so whatever reads
// those flags sees the effective configuration. keys must be a fresh flag set
// with every key at its default; Load sets it to the effective values.
func Load(keys, cmd *pflag.FlagSet, path string) (*Config, error) {
	file, path, err := readFile(path)
	if err != nil {
		return nil, err
	}
	defaults := koanf.New(delim)
	if err := defaults.Load(posflag.ProviderWithFlag(keys, delim, defaults, keyValue), nil); err != nil {
		return nil, err
	}
	flags := koanf.New(delim)
	if err := flags.Load(posflag.ProviderWithFlag(cmd, delim, nil, keyValue), nil); err != nil {
		return nil, err
	}
	// Flags of cmd that are no key (--until, --format, ...) stay the command's own.
	for _, key := range flags.Keys() {
		if !sameFlag(keys, cmd, key) {
			flags.Delete(key)
		}
	}
	c := &Config{Path: path, keys: keys, sources: map[string]Source{}}
	for _, key := range defaults.Keys() {
		c.sources[key] = Default
	}
	for _, key := range file.Keys() {
		if keys.Lookup(key) == nil {
			return nil, fmt.Errorf("config: %s: unknown key %q (keys are flag names at the top level; `solbehave config` lists them)", path, key)
		}
		c.sources[key] = File
	}
	for _, key := range flags.Keys() {
		c.sources[key] = Flag
	}
	// Each key is set once (a shared list flag appends on a second Set).
	merged := koanf.New(delim)
	if err := merged.Merge(file); err != nil {
		return nil, err
	}
	if err := merged.Merge(flags); err != nil {
		return nil, err
	}
	for _, key := range merged.Keys() {
		if err := set(keys, keys.Lookup(key), merged.Get(key)); err != nil {
			return nil, fmt.Errorf("config: %s: %s: %w", c.where(key), key, err)
		}
	}
	return c, c.setUnchanged(cmd, file)
}

// Underlay gives every key still at its default the value params hold (as
// Params records them), in the effective configuration and on cmd's flags,
// except the keys skip names: a run that starts from a release takes its
// parameters wherever the command line and the file say nothing.
func (c *Config) Underlay(cmd *pflag.FlagSet, params map[string]string, skip []string) error {
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if c.sources[k] != Default || slices.Contains(skip, k) {
			continue
		}
		if err := c.Set(cmd, k, params[k], Release); err != nil {
			return err
		}
	}
	return nil
}

// Set gives key the value (as Params records it) in the effective
// configuration and on cmd's flag of that name, recording where it came
// from; an unknown key is left alone.
func (c *Config) Set(cmd *pflag.FlagSet, key, value string, from Source) error {
	if c.keys.Lookup(key) == nil {
		return nil
	}
	one := map[string]string{key: value}
	if err := ApplyParams(c.keys, one); err != nil {
		return err
	}
	if sameFlag(c.keys, cmd, key) {
		if err := ApplyParams(cmd, one); err != nil {
			return err
		}
	}
	c.sources[key] = from
	return nil
}

func (c *Config) where(key string) string {
	if c.sources[key] == File {
		return c.Path
	}
	return "command line"
}

// sameFlag tells whether cmd's flag key is the configuration key of that
// name: a command's own flag that only shares the name (another type) is not.
func sameFlag(keys, cmd *pflag.FlagSet, key string) bool {
	k, f := keys.Lookup(key), cmd.Lookup(key)
	return k != nil && f != nil && k.Value.Type() == f.Value.Type()
}

// maxFile bounds the configuration file (a few KiB; a link to a device or a
// stray file must not exhaust memory).
const maxFile = 1 << 20

// readFile loads the TOML file into a koanf instance (empty when there is none).
func readFile(path string) (*koanf.Koanf, string, error) {
	k := koanf.New(delim)
	explicit := path != ""
	if !explicit {
		path = FileName
	}
	b, err := inputfile.Read(path, maxFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		return k, "", nil
	case err != nil:
		return nil, "", fmt.Errorf("config: %w", err)
	}
	if err := k.Load(rawbytes.Provider(b), toml.Parser()); err != nil {
		return nil, "", fmt.Errorf("config: %s: %w", path, err)
	}
	return k, path, nil
}

// Apply gives every flag of fs that is a key its effective value, so a
// stage bound to a fresh flag set plans as this invocation configured it.
func (c *Config) Apply(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err == nil && sameFlag(c.keys, fs, f.Name) {
			err = set(fs, f, Value(c.keys.Lookup(f.Name)))
		}
	})
	return err
}

// ApplyParams gives the flags of fs named in params (as Params records
// them: lists comma-joined) those values; a value whose credentials were
// removed stays as it is.
func ApplyParams(fs *pflag.FlagSet, params map[string]string) error {
	for k, v := range params {
		f := fs.Lookup(k)
		if f == nil || strings.HasSuffix(v, credentialsRemoved) {
			continue
		}
		var val any = v
		if _, ok := f.Value.(pflag.SliceValue); ok {
			val = splitList(v)
		}
		if err := set(fs, f, val); err != nil {
			return fmt.Errorf("config: %s = %q: %w", k, v, err)
		}
	}
	return nil
}

func splitList(v string) []string {
	if v == "" {
		return []string{}
	}
	return strings.Split(v, ",")
}

// setUnchanged gives cmd's flags that the command line left alone the
// file's values.
func (c *Config) setUnchanged(cmd *pflag.FlagSet, file *koanf.Koanf) error {
	for _, key := range file.Keys() {
		f := cmd.Lookup(key)
		if !sameFlag(c.keys, cmd, key) || f.Changed {
			continue
		}
		if err := set(cmd, f, Value(c.keys.Lookup(key))); err != nil {
			return fmt.Errorf("config: %s: %s: %w", c.Path, key, err)
		}
	}
	return nil
}

// set gives a flag a value as TOML or Value yields it: a list goes through
// the flag's Replace when it has one (else comma-joined), anything else
// through its textual form, so the flag's own parser checks it.
func set(fs *pflag.FlagSet, f *pflag.Flag, v any) error {
	if list, ok := asList(v); ok {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			if err := sv.Replace(list); err != nil {
				return err
			}
			f.Changed = true
			return nil
		}
		return fs.Set(f.Name, strings.Join(list, ","))
	}
	return fs.Set(f.Name, fmt.Sprint(v))
}

func asList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, len(l))
		for i, x := range l {
			out[i] = fmt.Sprint(x)
		}
		return out, true
	}
	return nil, false
}

func keyValue(f *pflag.Flag) (string, any) { return f.Name, Value(f) }

// Value is a flag's value as the configuration shows it: numbers and
// booleans typed, lists as lists, durations and everything else as text.
func Value(f *pflag.Flag) any {
	s := f.Value.String()
	switch f.Value.Type() {
	case "stringSlice", "stringArray", "strings":
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			return append([]string{}, sv.GetSlice()...)
		}
		if s == "" {
			return []string{}
		}
		return strings.Split(s, ",")
	case "int", "int64", "int32", "uint", "uint32":
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	case "uint64":
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			return n
		}
	case "float64", "float32":
		if x, err := strconv.ParseFloat(s, 64); err == nil {
			return x
		}
	case "bool":
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	}
	return s
}

// Keys lists every key, sorted.
func (c *Config) Keys() []string {
	var out []string
	c.keys.VisitAll(func(f *pflag.Flag) { out = append(out, f.Name) })
	sort.Strings(out)
	return out
}

// Get is a key's effective value (see Value); nil for an unknown key.
func (c *Config) Get(key string) any {
	f := c.keys.Lookup(key)
	if f == nil {
		return nil
	}
	return Value(f)
}

// String is a key's effective value as one string (lists comma-joined).
func (c *Config) String(key string) string { return Text(c.Get(key)) }

// Source says where a key's effective value came from.
func (c *Config) Source(key string) Source { return c.sources[key] }

// Usage is a key's flag usage line.
func (c *Config) Usage(key string) string {
	if f := c.keys.Lookup(key); f != nil {
		return f.Usage
	}
	return ""
}

// Text renders a value as one string: lists comma-joined.
func Text(v any) string {
	if l, ok := asList(v); ok {
		return strings.Join(l, ",")
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}
