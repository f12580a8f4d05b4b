package config

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// TestConfigIsReadOnlyFromARegularFile: --config naming /dev/zero, a FIFO
// or a folder fails at once with the reason; a real file loads.
func TestConfigIsReadOnlyFromARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "solbehave.toml")
	os.WriteFile(good, []byte("seed = 7\n"), 0o644)
	flags := func() *pflag.FlagSet {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.Int64("seed", 42, "")
		return fs
	}
	for _, path := range []string{"/dev/zero", fifo, dir} {
		if _, err := Load(flags(), flags(), path); !errors.Is(err, inputfile.ErrNotRegular) {
			t.Errorf("--config %s: want a not-a-regular-file error, got %v", path, err)
		}
	}
	cmd := flags()
	if _, err := Load(flags(), cmd, good); err != nil {
		t.Fatal(err)
	}
	if v, _ := cmd.GetInt64("seed"); v != 7 {
		t.Errorf("the file's seed was not applied: %d", v)
	}
}
