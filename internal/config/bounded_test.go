package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// A share or rate outside its range, from solbehave.toml or the command
// line, is refused with the key named; a value inside it is applied as a
// float64 flag's would be.
func TestSharesAndRatesAreInRange(t *testing.T) {
	flags := func() *pflag.FlagSet {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var share, rate float64
		Share(fs, &share, "keep-threshold", 0.8, "")
		Rate(fs, &rate, "etherscan-rate", 5, "")
		return fs
	}
	dir := t.TempDir()
	for _, tc := range []struct{ toml, args, want string }{
		{"keep-threshold = 7.5", "", "keep-threshold"},
		{"keep-threshold = -0.5", "", "keep-threshold"},
		{`keep-threshold = "nan"`, "", "keep-threshold"},
		{"etherscan-rate = 0.0", "", "etherscan-rate"},
		{"etherscan-rate = -3.0", "", "etherscan-rate"},
		{`etherscan-rate = "+Inf"`, "", "etherscan-rate"},
		{"", "--keep-threshold=1.01", "keep-threshold"},
		{"", "--etherscan-rate=-1", "etherscan-rate"},
		{"keep-threshold = 1.0\netherscan-rate = 0.5", "--keep-threshold=0", ""},
	} {
		path := filepath.Join(dir, "solbehave.toml")
		os.WriteFile(path, []byte(tc.toml+"\n"), 0o644)
		cmd := flags()
		err := cmd.Parse(strings.Fields(tc.args))
		if err == nil {
			_, err = Load(flags(), cmd, path)
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q %q: refused: %v", tc.toml, tc.args, err)
			} else if got := Value(cmd.Lookup("keep-threshold")); got != 0.0 {
				t.Errorf("keep-threshold %v, want the flag's 0", got)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%q %q: want a range error naming %s, got %v", tc.toml, tc.args, tc.want, err)
		}
	}
}

// TestJobsIsInRange: `jobs = -5` in solbehave.toml was accepted; an int
// flag with a range refuses it from the file and the command line, naming
// the key, and applies a value inside it.
func TestJobsIsInRange(t *testing.T) {
	flags := func() *pflag.FlagSet {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var jobs int
		IntBetween(fs, &jobs, "jobs", 4, 1, 1024, "")
		return fs
	}
	path := filepath.Join(t.TempDir(), "solbehave.toml")
	for _, tc := range []struct{ toml, args string }{{"jobs = -5", ""}, {"jobs = 0", ""}, {"jobs = 99999999", ""}, {"", "--jobs=-1"}} {
		os.WriteFile(path, []byte(tc.toml+"\n"), 0o644)
		cmd := flags()
		err := cmd.Parse(strings.Fields(tc.args))
		if err == nil {
			_, err = Load(flags(), cmd, path)
		}
		if err == nil || !strings.Contains(err.Error(), "jobs") || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%q %q: want a range error naming jobs, got %v", tc.toml, tc.args, err)
		}
	}
	os.WriteFile(path, []byte("jobs = 3\n"), 0o644)
	cmd := flags()
	if _, err := Load(flags(), cmd, path); err != nil || cmd.Lookup("jobs").Value.String() != "3" {
		t.Errorf("jobs = 3: %v, got %s", err, cmd.Lookup("jobs").Value.String())
	}
}
