package temporal

import (
	"fmt"
	"sort"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/pipeline"
)

// StageFlags returns every stage flag of fs (a command that bound every
// stage's flags and holds the effective configuration: solbehave.toml under
// the flags given), by name, as the workflow carries them to the workers, so
// a worker runs with the submitter's configuration, not its own file or
// defaults. Secrets never travel this way: the stages read keys from the
// environment.
func StageFlags(fs *pflag.FlagSet, stages []pipeline.Stage) map[string][]string {
	probe := pflag.NewFlagSet("probe", pflag.ContinueOnError)
	for _, s := range stages {
		s.BindFlags(probe)
	}
	out := map[string][]string{}
	fs.VisitAll(func(f *pflag.Flag) {
		if probe.Lookup(f.Name) == nil {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			out[f.Name] = sv.GetSlice()
			return
		}
		out[f.Name] = []string{f.Value.String()}
	})
	return out
}

// applyFlags sets the carried flags on a worker's fresh stages.
func applyFlags(fs *pflag.FlagSet, flags map[string][]string) error {
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := fs.Lookup(n)
		if f == nil {
			return fmt.Errorf("flag --%s: no stage of this worker defines it (an older solbehave?)", n)
		}
		if err := setFlag(fs, f, flags[n]); err != nil {
			return fmt.Errorf("flag --%s: %w", n, err)
		}
	}
	return nil
}

func setFlag(fs *pflag.FlagSet, f *pflag.Flag, vals []string) error {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		return sv.Replace(vals)
	}
	if len(vals) != 1 {
		return fmt.Errorf("want one value, got %d", len(vals))
	}
	return fs.Set(f.Name, vals[0])
}
