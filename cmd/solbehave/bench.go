package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/cmd/solbehave/bench"
)

// mainnetCorpus is where the real corpus sits beside a checkout.
const mainnetCorpus = "../shared/corpus/mainnet"

// newBenchCmd is `solbehave bench`: our replay against Hardhat's and bare
// go-ethereum's on the same transactions, and the other cost figures.
func newBenchCmd(g *globals) *cobra.Command {
	cfg := bench.Defaults()
	var smoke bool
	var curve string
	var temporalWorkers []int
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "measure replay (ours, bare go-ethereum, Hardhat EDR), compile, O1, O2 and O3 costs, and project the paper's evaluation in CPU-hours; write <data>/bench/latest.json",
		Long: "Replays the same recorded transactions of each corpus contract through our harness, bare go-ethereum and " +
			"Hardhat 2's in-process network (installed from npm into the cache on first use), compares their statuses, " +
			"and measures compile throughput, O2 and O3 end to end on k mutant samples, Algorithm 1 calls per second, O1 call pairs per second and peak memory, with medians of " +
			"several runs and the curve from 10 contracts to all. Then a cost run takes every stage through the pipeline runner at the paper's " +
			"parameters with k mutant samples and k that do not compile (mutant:compile-error, so a failing compile is priced apart), one unit at a time, measures each unit's CPU (this process and its solc workers), fits it " +
			"against contract size and projects the paper's evaluation (8,360 candidates, 250 kept, 7 models x k=10) in CPU-hours per stage. " +
			"Without --corpus it uses " + mainnetCorpus + " when present.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(temporalWorkers) > 0 {
				return benchTemporal(cmd, g, temporalWorkers) // bench_temporal.go
			}
			run := cfg
			if smoke {
				run = smokeConfig(cmd, cfg)
			}
			run.Corpus, run.Data, run.Log = benchCorpus(cmd, g), g.data, os.Stderr
			run.Command = "solbehave " + strings.Join(os.Args[1:], " ")
			var err error
			if run.Curve, err = parseCurve(curve); err != nil {
				return err
			}
			rep, err := bench.Run(cmd.Context(), run)
			if rep != nil {
				rep.PrintTable(cmd.OutOrStdout())
				fmt.Fprintln(cmd.OutOrStdout(), "\nwrote", bench.ReportPath(run.Data))
			}
			return err
		},
	}
	f := cmd.Flags()
	f.BoolVar(&smoke, "smoke", false, "small run (2 contracts, 20 transactions, 2 runs, k=2) unless flags say otherwise")
	f.IntVar(&cfg.Contracts, "contracts", cfg.Contracts, "first n corpus contracts (0: all)")
	f.StringSliceVar(&cfg.Only, "only", nil, "contract names or ids to bench (default all; --contracts then takes the first n of them)")
	f.IntVar(&cfg.Txs, "txs", cfg.Txs, "recorded transactions replayed per contract")
	f.IntVar(&cfg.Runs, "runs", cfg.Runs, "runs per measurement (figures are medians)")
	f.IntVar(&cfg.Samples, "samples", cfg.Samples, "k: mutant samples per contract for O2 and O3 end to end")
	f.IntVar(&cfg.SampleCompiles, "sample-compiles", cfg.SampleCompiles, "samples really generated and compiled per contract (0: all k); the rest reuse them and their time is estimated")
	f.IntVar(&cfg.O3Budget, "o3-budget", cfg.O3Budget, "T: successful calls Algorithm 1 collects per contract (0: the paper's 1,000)")
	f.IntVar(&cfg.SpawnCompiles, "spawn-compiles", cfg.SpawnCompiles, "compiles per contract in a fresh Node process each (the compile baseline)")
	f.IntVar(&cfg.FuzzCalls, "fuzz-calls", cfg.FuzzCalls, "O1 call pairs per fuzzed function (0: skip O1)")
	f.IntVar(&cfg.FuzzFunctions, "fuzz-functions", cfg.FuzzFunctions, "functions fuzzed per contract")
	f.StringVar(&cfg.Hardhat, "hardhat", cfg.Hardhat, "auto (install, leave out on failure), on (failure is an error) or off")
	f.StringVar(&cfg.Cache, "cache", "", "cache folder for Hardhat (default $SOLBEHAVE_CACHE or ~/.cache/solbehave)")
	f.IntSliceVar(&temporalWorkers, "temporal", nil, "instead: the Temporal figure group, units/s of the whole pipeline on --corpus with the local runner and with these worker counts (e.g. 1,2,3), merged into latest.json")
	f.StringVar(&curve, "curve", "", "contract counts of the curve, e.g. 10,20,30 (default every 10, and all)")
	f.IntVar(&cfg.Projection.Samples, "projection-samples", cfg.Projection.Samples, "k of the cost run behind the projection: mutant samples per kept contract through every stage at the paper's parameters, and as many mutant:compile-error ones (0: no projection)")
	f.IntVar(&cfg.Projection.VulnSamples, "projection-vuln", cfg.Projection.VulnSamples, "samples per kept contract the cost run's vuln stage analyses (0: none)")
	f.BoolVar(&cfg.Projection.Only, "projection-only", false, "only the cost run and the projection, merged into latest.json (the engine figures stay)")
	f.IntSliceVar(&cfg.Projection.Cores, "projection-cores", cfg.Projection.Cores, "core counts the projected wall time is given for")
	return cmd
}

// smokeConfig is bench.Smoke with every flag the user set kept.
func smokeConfig(cmd *cobra.Command, full bench.Config) bench.Config {
	s := bench.Smoke()
	s.Cache, s.Only = full.Cache, full.Only
	set := func(name string, dst *int, v int) {
		if cmd.Flags().Changed(name) {
			*dst = v
		}
	}
	set("contracts", &s.Contracts, full.Contracts)
	set("txs", &s.Txs, full.Txs)
	set("runs", &s.Runs, full.Runs)
	set("samples", &s.Samples, full.Samples)
	set("spawn-compiles", &s.SpawnCompiles, full.SpawnCompiles)
	set("sample-compiles", &s.SampleCompiles, full.SampleCompiles)
	set("o3-budget", &s.O3Budget, full.O3Budget)
	set("fuzz-calls", &s.FuzzCalls, full.FuzzCalls)
	set("fuzz-functions", &s.FuzzFunctions, full.FuzzFunctions)
	set("projection-samples", &s.Projection.Samples, full.Projection.Samples)
	set("projection-vuln", &s.Projection.VulnSamples, full.Projection.VulnSamples)
	s.Projection.Only = full.Projection.Only
	if cmd.Flags().Changed("projection-cores") {
		s.Projection.Cores = full.Projection.Cores
	}
	if cmd.Flags().Changed("hardhat") {
		s.Hardhat = full.Hardhat
	}
	return s
}

// benchCorpus is --corpus when given, else the mainnet corpus when present,
// else the default (demo) corpus.
func benchCorpus(cmd *cobra.Command, g *globals) string {
	if cmd.Flags().Changed("corpus") {
		return g.corpus
	}
	if st, err := os.Stat(mainnetCorpus); err == nil && st.IsDir() {
		return mainnetCorpus
	}
	return g.corpus
}

func parseCurve(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("--curve: %q is not a positive contract count", part)
		}
		out = append(out, n)
	}
	return out, nil
}
