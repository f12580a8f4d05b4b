package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// PrintTable writes the report as tables: per contract, the totals, and the curve.
func (r *Report) PrintTable(w io.Writer) {
	fmt.Fprintf(w, "solbehave bench (%s): %s, %d runs, %d txs/contract, k=%d; %s/%s %d CPUs (load %s -> %s), %s, hardhat %s\n\n",
		r.Mode, r.Corpus, r.Settings.Runs, r.Settings.Txs, r.Settings.Samples, r.Machine.GOOS, r.Machine.GOARCH,
		r.Machine.CPUs, orDash(r.Machine.LoadAverageStart), orDash(r.Machine.LoadAverageEnd), r.Machine.Go, orDash(r.Machine.Hardhat))
	if len(r.Contracts) > 0 {
		r.printContracts(w)
		fmt.Fprintln(w)
		printFigures(w, r.Figures)
		fmt.Fprintln(w)
		r.printCurve(w)
		fmt.Fprintln(w)
	}
	if r.Projection != nil {
		r.Projection.PrintTable(w)
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "\nstatus differences (%d):\n", len(r.Findings))
		for i, f := range r.Findings {
			if i == 20 {
				fmt.Fprintf(w, "  ... %d more in latest.json\n", len(r.Findings)-20)
				break
			}
			fmt.Fprintf(w, "  %s tx %d %s: %s: ours %s (gas %d, %s), other %s (gas %d, %s), mainnet %s; rules hardhat %s, mainnet %s\n",
				f.Contract, f.Tx, short(f.Hash), f.Engines, f.Ours, f.OursGas, orDash(f.OursReason), f.Other, f.OtherGas,
				orDash(short(f.OtherReason)), f.Mainnet, f.HardhatRules, f.MainnetRules)
		}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w, "\nnotes:")
		for _, n := range r.Notes {
			fmt.Fprintln(w, "  -", n)
		}
	}
}

func (r *Report) printContracts(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "contract\ttxs\tbare tx/s\tours tx/s\to2eng tx/s\tcov tx/s\thardhat tx/s\tours/hh\tcpu\tours/bare\tcpu\tstatus diff hh\to2 e2e s\to3 e2e s\t")
	for _, c := range r.Contracts {
		if c.Skipped != "" {
			fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t\t\t\t\t\t\t skipped: %s\n", clip(c.ID, 32), clip(firstLine(c.Skipped), 90))
			continue
		}
		v := func(name, format string) string {
			if f, ok := findFigure(c.Figures, name); ok {
				return fmt.Sprintf(format, f.Value)
			}
			return "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", clip(c.ID, 32), c.Txs,
			v("replay.bare.tx_per_s", "%.0f"), v("replay.ours.tx_per_s", "%.0f"), v("replay.ours_o2engine.tx_per_s", "%.0f"),
			v("replay.ours_coverage.tx_per_s", "%.0f"), v("replay.hardhat.tx_per_s", "%.0f"),
			v("replay.ours_over_hardhat.ratio", "%.1fx"), v("replay.ours_over_hardhat_cpu.ratio", "%.1fx"),
			v("replay.ours_over_bare.overhead", "%.2fx"), v("replay.ours_over_bare_cpu.overhead", "%.2fx"),
			v("status.ours_vs_hardhat.differences", "%.0f"), v("o2.e2e_s_per_contract", "%.2f"), v("o3.e2e_s_per_contract", "%.2f"))
	}
	tw.Flush()
}

func printFigures(w io.Writer, figs []Figure) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure (all contracts)\tvalue\tunit\tgoal\truns")
	for _, f := range figs {
		goal := ""
		if f.Goal != "" {
			goal = f.Goal + " " + map[bool]string{true: "met", false: "MISSED"}[f.Met != nil && *f.Met]
		}
		var runs []string
		for _, x := range f.Runs {
			runs = append(runs, format(x))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, format(f.Value), f.Unit, goal, strings.Join(runs, " "))
	}
	tw.Flush()
}

// curveFigures are the figures the curve table shows.
var curveFigures = []struct{ name, head string }{
	{"replay.ours.tx_per_s", "ours tx/s"}, {"replay.hardhat.tx_per_s", "hardhat tx/s"},
	{"replay.ours_over_hardhat.ratio", "ours/hh"}, {"replay.ours_over_hardhat_cpu.ratio", "cpu"},
	{"replay.ours_over_bare.overhead", "ours/bare"}, {"replay.ours_over_bare_cpu.overhead", "cpu"},
	{"compile.persistent.compiles_per_s", "compiles/s"}, {"compile.spawn.compiles_per_s", "spawned/s"},
	{"o2.e2e_s_per_contract", "o2 e2e s"}, {"o3.e2e_s_per_contract", "o3 e2e s"},
	{"o3.sequence_calls_per_s", "seq calls/s"}, {"o1.call_pairs_per_s_per_core", "o1 pairs/s"},
	{"memory.peak_rss_bytes", "rss MiB"}, {"memory.hardhat_peak_rss_bytes", "hh rss MiB"}, {"wall.seconds", "wall s"},
}

func (r *Report) printCurve(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "curve: contracts\t")
	for _, c := range curveFigures {
		fmt.Fprint(tw, c.head+"\t")
	}
	fmt.Fprintln(tw)
	for _, p := range r.Curve {
		fmt.Fprintf(tw, "%d\t", p.Contracts)
		for _, c := range curveFigures {
			f, ok := findFigure(p.Figures, c.name)
			switch {
			case !ok:
				fmt.Fprint(tw, "-\t")
			case f.Unit == "bytes":
				fmt.Fprintf(tw, "%.0f\t", f.Value/(1<<20))
			default:
				fmt.Fprint(tw, format(f.Value)+"\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func format(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.3g", x)
	case x >= 100 || x == float64(int64(x)):
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func short(s string) string { return clip(s, 12) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
