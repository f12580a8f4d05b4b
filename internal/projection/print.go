package projection

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// PrintTable writes the projection: each unit cost, its fit and projected
// CPU-hours with their interval, the total against the goal, and the wall
// time on N cores.
func (p *Projection) PrintTable(w io.Writer) {
	fmt.Fprintf(w, "projection of %s, LLM generation apart\n", p.Target)
	if len(p.Args) > 0 {
		fmt.Fprintf(w, "measured run: solbehave run %s\n", strings.Join(p.Args, " "))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "stage\tunit\tmeasured\tmean CPU s\tfit (warm units): a + b x size [+ c x youth] (r2)\tCPU s/unit\tunits\tworker starts x CPU s\tCPU-h\t")
	for _, c := range p.Stages {
		h := fmt.Sprintf("%.3f", c.CPUHours)
		if c.Beside {
			h += " (beside)"
		}
		if c.TooFew != "" {
			h += " (" + c.TooFew + ")"
		}
		starts := "-"
		if c.WorkerStarts > 0 {
			starts = fmt.Sprintf("%.0f x %.2f", c.WorkerStarts, c.StartCPU)
			if c.WarmupCPU > 0 {
				starts = fmt.Sprintf("%.0f x (%.2f + %.2f warm-up)", c.WorkerStarts, c.StartCPU, c.WarmupCPU)
			}
		}
		youth := ""
		if c.Fit.Youth > 0 {
			youth = fmt.Sprintf(" + %.3f x youth", c.Fit.Youth)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f + %.4f x %s%s (%.2f)\t%.3f\t%.0f\t%s\t%s\t\n", c.Stage, clip(c.Unit, 40), c.Measured, c.MeanCPU,
			c.Fit.Intercept, c.Fit.Slope, c.Size, youth, c.Fit.R2, c.PerUnit, c.Units, starts, h)
	}
	tw.Flush()
	fmt.Fprintf(w, "per stage, CPU-hours [95%% interval, %d resamples of the measured contracts, each with all its units]:", p.Resamples)
	for _, s := range sortedStages(p.CPUHours) {
		iv := p.CPUHoursInterval[s]
		fmt.Fprintf(w, " %s %.3f [%.3f–%.3f];", s, p.CPUHours[s], iv[0], iv[1])
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "total %.2f CPU-hours [%.2f–%.2f]", p.TotalCPUHours, p.TotalInterval[0], p.TotalInterval[1])
	if p.Goal != "" {
		met := "not met"
		if p.Met {
			met = "met"
		}
		fmt.Fprintf(w, " (goal %s: %s)", p.Goal, met)
	}
	for _, s := range sortedStages(p.BesideCPUHours) {
		iv := p.CPUHoursInterval[s]
		fmt.Fprintf(w, "; beside the total: %s %.2f [%.2f–%.2f] CPU-hours", s, p.BesideCPUHours[s], iv[0], iv[1])
	}
	fmt.Fprintln(w)
	if len(p.TooFew) > 0 {
		fmt.Fprintf(w, "too few units behind %s: the projection means little there; measure a larger run\n", strings.Join(p.TooFew, ", "))
	}
	if warmth := p.Warmth(); len(warmth) > 0 {
		how := "a fit with a warm-up term prices compiles on a long-warm worker (its youth term: units.solc_youth, samples.compile_solc_youth) and the warm-up per start; one without prices every compile at the measured warmth"
		if !p.youthFitted() {
			how = "no fit has a warm-up term (too few warm compiles with youth, none that raises the cost, or a warehouse from before the youth was recorded), so where a worker serves more compiles a stage is priced high"
		}
		fmt.Fprintf(w, "solc workers: %s; a worker's first compiles cost more than its later ones (BenchmarkWorkerWarmup, stages/verify): %s\n", strings.Join(warmth, "; "), how)
	}
	var walls []string
	for _, x := range p.Wall {
		walls = append(walls, fmt.Sprintf("%d cores %.2f h", x.Cores, x.Hours))
	}
	if len(walls) > 0 {
		fmt.Fprintf(w, "wall time through Temporal workers (--jobs = cores, %.0f ms/unit overhead): %s\n", p.TemporalOverheadMS, strings.Join(walls, ", "))
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// youthFitted says whether any stage's fit has a warm-up (youth) term.
func (p *Projection) youthFitted() bool {
	for _, c := range p.Stages {
		if c.Fit.Youth > 0 {
			return true
		}
	}
	return false
}
