package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// exitCodes is the part of the help that says what the exit status means.
const exitCodes = `Exit status:
  0  everything asked for was done
  1  an error: bad usage, a stage that could not run, a query that failed
  2  the run finished but some units failed (their error rows: solbehave errors; solbehave retry runs them again)`

const rootExample = `  solbehave run                                 # every stage on the demo corpus into ./data
  solbehave run --until verify --corpus C --data D
  solbehave status                              # what is done, stale, failed or pending (runs nothing)
  solbehave sql "SELECT * FROM table5_o1"
  solbehave export replay_calls --format parquet --out replay_calls.parquet`

// examples are each command's examples, by command path after "solbehave";
// a stage command without an entry gets stageExample.
var examples = map[string]string{
	"stages": `  solbehave stages`,
	"run": `  solbehave run                                   # every stage, demo corpus, ./data
  solbehave run --until compile --samples 3        # stop after compile, 3 samples per generator
  solbehave run --only o2,o3 --data D              # two stages over an existing data folder
  solbehave run --dry-run                          # what would run, and why
  solbehave run --from-release R --data D --generator openai:m   # one more model beside a release's
  solbehave run --engine temporal --temporal localhost:7233`,
	"retry": `  solbehave retry                       # re-run every failed unit, then what depends on it
  solbehave retry --only compile --data D`,
	"sql": `  solbehave sql "SELECT * FROM fig4_replay"
  solbehave sql --format csv "SELECT model, compile_raw_rate FROM table2_compile" > compile.csv
  solbehave sql --format parquet --out o2.parquet "SELECT * FROM replay_calls WHERE oracle = 'O2'"`,
	"errors": `  solbehave errors
  solbehave errors --format csv --data D`,
	"status": `  solbehave status
  solbehave status --explain --o2-budget 300     # which units a new budget makes stale, and why`,
	"digest": `  solbehave digest --data D > digests.txt
  solbehave digest --data D --model mutant       # one model's rows: another model's run leaves them as they are`,
	"forget": `  solbehave forget --generator mutant --data D        # what it would remove
  solbehave forget --generator mutant --data D --yes  # remove it`,
	"cost": `  solbehave cost --data D                              # the paper's evaluation from D's unit costs
  solbehave cost --data D --candidates 44 --kept 18 --k 10   # a run like D's, twice its size
  solbehave cost --data D --json > projection.json`,
	"bench": `  solbehave bench --smoke
  solbehave bench --contracts 10 --txs 200`,
	"worker": `  solbehave worker --temporal localhost:7233
  solbehave worker --temporal localhost:7233 --task-queue gpu --stages generate`,
	"temporal": `  solbehave temporal dev-server --port 7233`,
	"temporal dev-server": `  solbehave temporal dev-server --port 7233
  solbehave temporal dev-server --build-only`,
	"export": `  solbehave export replay_calls --format parquet               # replay_calls.parquet
  solbehave export table5_o1 --format csv                      # CSV on stdout
  solbehave export fuzz_results --format arrow --out o1.arrow  # Arrow IPC, zstd-compressed`,
	"publish": `  solbehave publish --out release --creators "Lovelace, Ada" --archive
  solbehave publish --out release   # title, creators, release-version, license from solbehave.toml`,
	"views": `  solbehave views                      # after moving or copying the data folder
  solbehave views --layout relative    # paths relative to the file, so it moves with the warehouse`,
	"config": `  solbehave config > solbehave.toml
  solbehave config --format json --o2-budget 300`,
	"version": `  solbehave version`,
	"help":    `  solbehave help run`,
}

func stageExample(name string) string {
	return fmt.Sprintf("  solbehave %s                   # this stage only, over ./data and the demo corpus\n"+
		"  solbehave %s --data D --force   # recompute every unit", name, name)
}

// polish walks every command: examples, value names without the backtick
// trap, a suggestion for a mistyped flag and a --help hint on usage errors.
func polish(root *cobra.Command) {
	root.SetFlagErrorFunc(flagError)
	walk(root, func(c *cobra.Command) {
		path := strings.TrimSpace(strings.TrimPrefix(c.CommandPath(), root.Name()))
		if c.Example == "" && path != "" {
			c.Example = examples[path]
			if c.Example == "" {
				c.Example = stageExample(path)
			}
		}
		c.Flags().VisitAll(noBacktickValueName)
		if c.Args != nil {
			c.Args = hinted(c.Args)
		}
	})
}

func walk(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walk(sub, f)
	}
}

// noBacktickValueName: pflag takes a `word` in a flag's description as its
// value name ("--engine solbehave worker"); quotes keep the text and leave
// the value name to the flag's type.
func noBacktickValueName(f *pflag.Flag) {
	f.Usage = strings.ReplaceAll(f.Usage, "`", "'")
}

// usageError is an error in how a command was called.
type usageError struct {
	err error
	cmd *cobra.Command
}

func (e *usageError) Error() string {
	return fmt.Sprintf("%v\nRun '%s --help' for usage.", e.err, e.cmd.CommandPath())
}

func (e *usageError) Unwrap() error { return e.err }

func hinted(args cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if err := args(cmd, a); err != nil {
			return &usageError{err: err, cmd: cmd}
		}
		return nil
	}
}

// flagError adds the nearest flag names to an unknown flag, and the hint.
func flagError(cmd *cobra.Command, err error) error {
	var ue *usageError
	if errors.As(err, &ue) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if near := nearFlags(cmd, name); len(near) > 0 {
			err = fmt.Errorf("%w\nDid you mean %s?", err, "--"+strings.Join(near, " or --"))
		}
	}
	return &usageError{err: err, cmd: cmd}
}

// nearFlags are the command's flags within two edits of name, or that start
// with it, nearest first.
func nearFlags(cmd *cobra.Command, name string) []string {
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		d := editDistance(name, f.Name)
		if d <= 2 || (len(name) >= 3 && strings.HasPrefix(f.Name, name)) {
			cands = append(cands, cand{f.Name, d})
		}
	})
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
