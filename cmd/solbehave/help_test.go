package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func TestEveryCommandHasAnExample(t *testing.T) {
	walk(newRoot(), func(c *cobra.Command) {
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no example", c.CommandPath())
		}
		if !strings.Contains(c.Example, "solbehave") {
			t.Errorf("%s: example does not show a command line: %q", c.CommandPath(), c.Example)
		}
	})
}

// pflag takes a `word` in a description as the value name; every flag's
// value name must be its type's.
func TestNoBacktickValueNames(t *testing.T) {
	walk(newRoot(), func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "`") {
				t.Errorf("%s --%s: backtick in %q", c.CommandPath(), f.Name, f.Usage)
			}
		})
	})
	out, err := solbehave(t, "run", "--help")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "--engine solbehave") || !strings.Contains(out, "--engine string") {
		t.Errorf("run --help shows a value name from the description:\n%s", grepLine(out, "--engine"))
	}
}

func TestMistypedFlagGetsSuggestionAndHint(t *testing.T) {
	_, err := solbehave(t, "run", "--untill", "verify")
	if err == nil {
		t.Fatal("an unknown flag must fail")
	}
	msg := err.Error()
	for _, want := range []string{"unknown flag: --untill", "Did you mean --until?", "Run 'solbehave run --help' for usage."} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if _, err := solbehave(t, "sql"); err == nil || !strings.Contains(err.Error(), "Run 'solbehave sql --help' for usage.") {
		t.Errorf("a missing argument must end with the --help hint, got %v", err)
	}
	if _, err := solbehave(t, "sql", "--formt", "csv", "SELECT 1"); err == nil || !strings.Contains(err.Error(), "--format") {
		t.Errorf("sql --formt: want a suggestion of --format, got %v", err)
	}
}

// Each command shows (and accepts) only the global flags it reads.
func TestOnlyTheFlagsACommandUses(t *testing.T) {
	for _, tc := range []struct {
		cmd        string
		has, lacks []string
	}{
		{"sql", []string{"--data", "--format", "--out"}, []string{"--shard", "--seed", "--jobs", "--corpus", "--force"}},
		{"errors", []string{"--data"}, []string{"--shard", "--seed", "--jobs", "--quiet"}},
		{"stages", nil, []string{"--data", "--config", "--shard"}},
		{"run", []string{"--data", "--corpus", "--seed", "--jobs", "--shard", "--force", "--config"}, nil},
		{"verify", []string{"--data", "--corpus", "--shard"}, nil},
		{"status", []string{"--data", "--shard"}, []string{"--jobs", "--force"}},
	} {
		out, err := solbehave(t, tc.cmd, "--help")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range tc.has {
			if !strings.Contains(out, "  "+f+" ") {
				t.Errorf("%s --help lacks %s", tc.cmd, f)
			}
		}
		for _, f := range tc.lacks {
			if strings.Contains(out, "  "+f+" ") {
				t.Errorf("%s --help shows %s, which it does not use", tc.cmd, f)
			}
		}
	}
	if _, err := solbehave(t, "errors", "--shard", "0/2"); err == nil {
		t.Error("errors --shard must be an unknown flag")
	}
}

func TestExitCodesDocumented(t *testing.T) {
	for _, cmd := range []string{"--help", "run --help", "retry --help"} {
		out, err := solbehave(t, strings.Fields(cmd)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "Exit status:") || !strings.Contains(out, "  2  ") {
			t.Errorf("solbehave %s does not document the exit codes", cmd)
		}
	}
}

func TestStatusAndErrorsNeedTheDataFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	for _, cmd := range []string{"status", "errors"} {
		_, err := solbehave(t, cmd, "--data", missing)
		if err == nil || !strings.Contains(err.Error(), "no data folder") {
			t.Errorf("%s --data %s: want an error naming the missing folder, got %v", cmd, missing, err)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("status/errors created %s", missing)
	}
}

// faultCrawl crawls data/faults (cheap: no compiler), leaving error rows.
func faultCrawl(t *testing.T) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	_, err := solbehave(t, "crawl", "--quiet", "--corpus", "../../data/faults", "--data", data)
	var fe *failedUnitsError
	if !errors.As(err, &fe) {
		t.Fatalf("crawl of the fault corpus: want failed units, got %v", err)
	}
	return data
}

// snapshot lists every file under dir with its size and modification time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %d %d", p, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// status and errors write nothing, count the same failed units, and say so
// when the data folder moved, naming `solbehave views`.
func TestStatusAndErrorsWriteNothingAndAgree(t *testing.T) {
	data := faultCrawl(t)
	before := snapshot(t, data)
	status, err := solbehave(t, "status", "--data", data, "--corpus", "../../data/faults")
	if err != nil {
		t.Fatal(err)
	}
	errs, err := solbehave(t, "errors", "--data", data, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, data); after != before {
		t.Errorf("status/errors changed the data folder:\nbefore\n%s\nafter\n%s", before, after)
	}
	rows := len(strings.Split(strings.TrimSpace(errs), "\n")) - 1
	if rows == 0 || !strings.Contains(status, fmt.Sprintf("%d unit(s) failed", rows)) {
		t.Errorf("errors lists %d rows; status says:\n%s", rows, status)
	}

	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(data, moved); err != nil {
		t.Fatal(err)
	}
	before = snapshot(t, moved)
	for _, cmd := range []string{"status", "errors"} {
		out, err := solbehave(t, cmd, "--data", moved)
		if err != nil {
			t.Fatalf("%s on a moved folder: %v", cmd, err)
		}
		if !strings.Contains(out, "solbehave views") || !strings.Contains(out, data) {
			t.Errorf("%s on a moved folder does not say so:\n%s", cmd, out)
		}
	}
	if cmd, err := solbehave(t, "errors", "--data", moved, "--format", "csv"); err != nil || !strings.Contains(cmd, "MalformedAnswer") {
		t.Errorf("errors on a moved folder must list this folder's rows: %v\n%s", err, cmd)
	}
	if after := snapshot(t, moved); after != before {
		t.Error("status/errors rebuilt the DuckDB file of a moved folder")
	}
}

func TestRetryRunsTheFailedUnitsAgain(t *testing.T) {
	data := faultCrawl(t)
	errs, _ := solbehave(t, "errors", "--data", data, "--format", "csv")
	failed := len(strings.Split(strings.TrimSpace(errs), "\n")) - 1
	retriable := strings.Count(errs, ",true,")
	// A plain run keeps them (nothing changed) but the retriable ones.
	root, g := newRootWithGlobals()
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&bytes.Buffer{})
	root.SetArgs([]string{"crawl", "--quiet", "--corpus", "../../data/faults", "--data", data})
	root.ExecuteContext(context.Background())
	if len(g.counters) != 1 || g.counters[0].Ran != retriable || g.counters[0].KeptFailed != failed-retriable {
		t.Fatalf("a second crawl should run the %d retriable failures only: %+v", retriable, g.counters)
	}
	root, g = newRootWithGlobals()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs([]string{"retry", "--only", "crawl", "--corpus", "../../data/faults", "--data", data})
	err := root.ExecuteContext(context.Background())
	var fe *failedUnitsError
	if !errors.As(err, &fe) {
		t.Fatalf("retry of units that fail again: want exit status 2, got %v\n%s", err, out.String())
	}
	if len(g.counters) != 1 || g.counters[0].Ran != failed {
		t.Errorf("retry ran %+v, want the %d failed units", g.counters, failed)
	}
	if !strings.Contains(out.String(), "retrying failed units") {
		t.Errorf("retry does not say what it retries:\n%s", out.String())
	}
}

// A one-stage command prints only its own tables.
func TestSummaryOnlyOfTheStagesRun(t *testing.T) {
	data := faultCrawl(t)
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&bytes.Buffer{})
	root.SetArgs([]string{"crawl", "--quiet", "--corpus", "../../data/faults", "--data", data})
	root.ExecuteContext(context.Background())
	for _, v := range summaryViews {
		if strings.Contains(out.String(), "\n"+v.view+"\n") {
			t.Errorf("crawl printed %s:\n%s", v.view, out.String())
		}
	}
	if !strings.Contains(out.String(), "contracts") {
		t.Errorf("crawl printed no construction summary:\n%s", out.String())
	}
}

func grepLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
