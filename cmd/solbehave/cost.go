package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/projection"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
)

// newCostCmd projects an evaluation's CPU from the unit costs a data folder
// recorded: the paper's by default, or a run like the measured one at the
// size the flags give.
func newCostCmd(g *globals) *cobra.Command {
	var t projection.Target
	var resamples int
	var cores []int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "cost",
		Short: "Project an evaluation's CPU-hours, with a 95% interval, from the unit costs a run recorded",
		Long: "Reads the units a data folder (or a release) holds, each with the CPU it took, fits each unit kind's cost " +
			"against contract size, prices solc worker starts apart, and projects the paper's evaluation (§IV-A, §V; LLM " +
			"generation apart), or, with --candidates, --kept, --models or --k, a run like the measured one at that size " +
			"(its compile and equivalence rates and contract sizes). Every stage and the total come with a 95% percentile " +
			"bootstrap interval over the measured contracts, each drawn with all its units (seeded by the warehouse's first run); a stage whose fit rests on " +
			"fewer than 10 contracts or 30 samples is marked \"too few units\". `make bench`'s projection is this one.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkCostFlags(t, resamples, cores); err != nil {
				return err
			}
			if err := g.requireData(); err != nil {
				return err
			}
			if _, err := os.Stat(filepath.Join(g.data, "state")); err == nil {
				if err := pipeline.WriteUnits(g.data); err != nil { // the costs of units a run left unlisted (killed before its end)
					return err
				}
			}
			db, err := views.OpenDatasetsInMemory(g.env().Warehouse.Root)
			if err != nil {
				return err
			}
			defer db.Close()
			m, err := projection.Read(cmd.Context(), db)
			if err != nil {
				return err
			}
			scale := projection.Paper
			if t != (projection.Target{}) {
				scale = projection.LikeRun(m, t)
			}
			seed := g.seed
			db.QueryRowContext(cmd.Context(), "SELECT seed FROM runs ORDER BY started_at, run_id LIMIT 1").Scan(&seed)
			p := projection.Project(m, scale, projection.Options{Cores: cores, Resamples: resamples, Seed: seed, Ctx: cmd.Context()})
			if err := cmd.Context().Err(); err != nil { // stopped (Ctrl-C, SIGTERM): the intervals are incomplete
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(p)
			}
			p.PrintTable(cmd.OutOrStdout())
			fmt.Fprintf(cmd.OutOrStdout(), "measured: %d units of %s\n", len(m.Units), g.data)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&t.Candidates, "candidates", 0, "project a run like the measured one with this many candidates (crawled and verified)")
	f.IntVar(&t.Kept, "kept", 0, "... with this many kept contracts (default: the candidates at the measured keep rate)")
	f.IntVar(&t.Models, "models", 0, "... with this many models (default: the measured run's)")
	f.IntVar(&t.K, "k", 0, "... with this many samples per kept contract and model (default: the measured run's)")
	f.IntVar(&t.Jobs, "target-jobs", 0, "... on this many jobs (each starts its own solc workers; default: the measured run's)")
	f.IntVar(&resamples, "resamples", projection.DefaultResamples, "bootstrap resamples behind each interval")
	f.IntSliceVar(&cores, "cores", []int{2, 16, 64}, "core counts the projected wall time is given for")
	f.BoolVar(&asJSON, "json", false, "print the projection as JSON (latest.json's `projection` object)")
	return cmd
}

// costRange is one numeric flag's accepted values. The upper ends are far
// past any evaluation (the paper's: 8,360 candidates, 7 models, k = 10) and
// keep the work bounded: a projection holds a compile rate per model and a
// row per resample and stage.
type costRange struct {
	flag     string
	value    int
	min, max int
}

func checkCostFlags(t projection.Target, resamples int, cores []int) error {
	ranges := []costRange{
		{"candidates", t.Candidates, 0, 100_000_000}, {"kept", t.Kept, 0, 100_000_000},
		{"models", t.Models, 0, 1000}, {"k", t.K, 0, 10_000}, {"target-jobs", t.Jobs, 0, 4096},
		{"resamples", resamples, 1, 100_000},
	}
	if len(cores) == 0 || len(cores) > 64 {
		return fmt.Errorf("--cores: %d core counts; want 1 to 64", len(cores))
	}
	for _, c := range cores {
		ranges = append(ranges, costRange{"cores", c, 1, 1_000_000})
	}
	for _, r := range ranges {
		if r.value < r.min || r.value > r.max {
			return fmt.Errorf("--%s %d: want %d to %d", r.flag, r.value, r.min, r.max)
		}
	}
	return nil
}
