package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/pipeline"
)

// printPlan is `run --dry-run`: per stage, the units a run would run and
// why, over the outputs as they are now; nothing is run, removed or written.
func printPlan(cmd *cobra.Command, g *globals, stages []pipeline.Stage) error {
	shard, err := pipeline.ParseShard(g.shard)
	if err != nil {
		return err
	}
	env := g.env()
	defer env.Engines.Close()
	env.Run = g.runInfo("")
	r := &pipeline.Runner{Env: env, Force: g.force, Shard: shard}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "plan (nothing runs; a stage after one that would run is planned over today's outputs)\n")
	for _, s := range stages {
		d, err := r.DryRun(cmd.Context(), s)
		if err != nil {
			fmt.Fprintf(w, "%s: cannot plan: %v\n", s.Name(), err)
			continue
		}
		toRun := d.Units - d.Current
		fmt.Fprintf(w, "%s: %d units, %d current, %d to run\n", d.Stage, d.Units, d.Current, toRun)
		writeReasons(w, d.Run, 3)
	}
	return nil
}

// writeReasons lists reasons with their units (at most show ids each), the
// most frequent first.
func writeReasons(w io.Writer, reasons map[string][]string, show int) {
	whys := make([]string, 0, len(reasons))
	for why := range reasons {
		whys = append(whys, why)
	}
	sort.Slice(whys, func(i, j int) bool {
		if len(reasons[whys[i]]) != len(reasons[whys[j]]) {
			return len(reasons[whys[i]]) > len(reasons[whys[j]])
		}
		return whys[i] < whys[j]
	})
	for _, why := range whys {
		ids := reasons[why]
		sort.Strings(ids)
		more := ""
		if len(ids) > show {
			ids, more = ids[:show], fmt.Sprintf(", … %d more", len(reasons[why])-show)
		}
		fmt.Fprintf(w, "  %d: %s  [%s%s]\n", len(reasons[why]), why, strings.Join(ids, ", "), more)
	}
}
