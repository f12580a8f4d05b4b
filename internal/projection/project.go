package projection

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Goals of the paper's evaluation, LLM generation apart (issue 38): the
// projected total and the upper end of its 95% interval, in CPU-hours.
const (
	CPUGoal     = 5.0
	CPUGoalHigh = 8.0
)

// DefaultResamples is the bootstrap's B.
const DefaultResamples = 1000

// Options are what a projection adds to the measured units.
type Options struct {
	Cores      []int              // core counts the wall time is given for
	OverheadMS float64            // Temporal's overhead per unit (0: not measured)
	Args       []string           // the measured run's `solbehave run` flags, as shown
	StageCPU   map[string]float64 // each stage's whole CPU the measuring run took (the bench's), as shown
	Resamples  int                // bootstrap resamples (0: DefaultResamples)
	Seed       int64              // the bootstrap's seed (the run's)
	// Ctx stops the bootstrap when done (Ctrl-C, SIGTERM): the projection
	// is then incomplete and the caller reports Ctx.Err(). Nil: never stops.
	Ctx context.Context
}

// Projection is an evaluation costed from the unit costs a run recorded:
// `solbehave cost` prints it and latest.json's `projection` holds the bench's.
type Projection struct {
	Target      string   `json:"target"` // what is projected: the paper's evaluation, or a run like the measured one
	Args        []string `json:"args"`   // the measured run's `solbehave run` flags over the stages' defaults
	Assumptions []string `json:"assumptions"`
	// MeasuredCPUSeconds is what the measuring run itself spent, per stage.
	MeasuredCPUSeconds map[string]float64 `json:"measured_cpu_seconds"`
	Stages             []StageCost        `json:"stages"`
	CPUHours           map[string]float64 `json:"cpu_hours"`
	// CPUHoursInterval is each stage's 95% percentile bootstrap interval
	// (the measured contracts resampled with all their units, B times, seeded).
	CPUHoursInterval map[string][2]float64 `json:"cpu_hours_interval"`
	TotalCPUHours    float64               `json:"total_cpu_hours"`
	TotalInterval    [2]float64            `json:"total_cpu_hours_interval"`
	Resamples        int                   `json:"resamples"`
	// TooFew names the stages whose fits rest on fewer units than the floor.
	TooFew []string `json:"too_few,omitempty"`
	// BesideCPUHours are costed stages outside the paper's evaluation (vuln
	// on every original and compiling sample), left out of the total.
	BesideCPUHours map[string]float64 `json:"beside_cpu_hours"`
	Wall           []WallTime         `json:"wall"`
	// TemporalOverheadMS is the Temporal overhead per unit the wall time
	// includes (0: not measured yet; `make bench-temporal` measures it).
	TemporalOverheadMS float64 `json:"temporal_overhead_ms_per_unit"`
	Goal               string  `json:"goal,omitempty"`
	Met                bool    `json:"met"`
}

// StageCost is one stage's unit cost, how it grows with size, and what the
// paper's evaluation makes of it.
type StageCost struct {
	Stage    string  `json:"stage"`
	Unit     string  `json:"unit"`
	Size     string  `json:"size"`     // what the fit's x is
	Measured int     `json:"measured"` // units measured
	MeanCPU  float64 `json:"mean_cpu_s"`
	Fit      Fit     `json:"fit"`
	PerUnit  float64 `json:"cpu_s_per_unit"` // at the paper's sizes
	Units    float64 `json:"units"`          // in the paper's evaluation
	// StartCPU is what one solc worker start (Node, the compiler's load and
	// its warm-up) costs beyond a warm unit, measured on the units that
	// started one; WorkerStarts is how many the evaluation makes.
	StartCPU     float64 `json:"start_cpu_s,omitempty"`
	WorkerStarts float64 `json:"worker_starts,omitempty"`
	// MeasuredStarts is how many workers the measured units started, for
	// the kinds whose point is one unit (verify, skeleton; compile's point
	// is a contract's samples, averaged), the kinds whose fit may take a
	// youth term. Units per start, measured against
	// the evaluation's, says how warm the fit's units ran beside the
	// evaluation's: a worker's first compiles cost more than its later ones
	// (BenchmarkWorkerWarmup, stages/verify): the fit's youth term
	// (Fit.Youth) prices that apart, per start (WarmupCPU).
	MeasuredStarts float64 `json:"measured_worker_starts,omitempty"`
	// MeasuredPerStart is how many compiles a measured worker start served
	// (a compile stage's worker: of either outcome), against the
	// evaluation's (its units over WorkerStarts, the compile stage's all
	// outcomes and repairs together).
	MeasuredPerStart float64 `json:"measured_compiles_per_start,omitempty"`
	ServedPerStart   float64 `json:"compiles_per_start,omitempty"`
	// WarmupCPU is what a worker's warm-up costs beyond its units' cost on
	// a long-warm worker (PerUnit), over the units it serves in the
	// evaluation: Fit.Youth x (1 + 1/2 + ... + 1/(units per start - 1)),
	// charged per worker start with StartCPU.
	WarmupCPU float64 `json:"warmup_cpu_s,omitempty"`
	CPUHours  float64 `json:"cpu_hours"`
	Beside    bool    `json:"beside,omitempty"` // not in the total
	// TooFew says, when the fit rests on fewer units than the floor, how
	// many would be enough.
	TooFew string `json:"too_few,omitempty"`
}

// Fit is cpu_s = Intercept + Slope*size + Youth*youth, least squares over
// the measured units; a fit that falls with size is replaced by the mean
// (Slope 0). youth is how young the solc workers were that served the
// unit's compiles (units.solc_youth: the sum of 1/n over its compiles on a
// worker that had served n ≥ 1 before), so Intercept + Slope*size is a
// compile on a long-warm worker and Youth what a worker's second compile
// costs beyond it; Youth is 0 where the units compile nothing, or where
// no warm-up shows.
type Fit struct {
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
	Youth     float64 `json:"youth,omitempty"`
	R2        float64 `json:"r2"`
	MinSize   float64 `json:"min_size"`
	MaxSize   float64 `json:"max_size"`
}

// WallTime is the evaluation's wall time on a machine of Cores cores running
// one Temporal worker with --jobs = Cores.
type WallTime struct {
	Cores int     `json:"cores"`
	Hours float64 `json:"hours"`
}

// At is the fitted cost at size x on a long-warm worker.
func (f Fit) At(x float64) float64 { return f.Intercept + f.Slope*x }

// at is the fitted cost of a measured point.
func (f Fit) at(p point) float64 { return f.At(p.x) + f.Youth*p.youth }

// point is one measured unit: its size, its CPU seconds, the solc workers
// it started and their youth (units.solc_youth).
type point struct{ x, y, starts, youth float64 }

// minYoungPoints is how many points with youth a youth term needs (the
// unit floor of a stage's fit).
const minYoungPoints = 10

// fitWarm fits the size and, where enough points have youth, the workers'
// youth; a youth term that comes out negative (no warm-up shows) is left
// out, and a size slope that does is fitted away as fitLine does.
func fitWarm(ps []point) Fit {
	line := fitLine(ps)
	young := 0
	for _, p := range ps {
		if p.youth > 0 {
			young++
		}
	}
	if young < minYoungPoints {
		return line
	}
	n := float64(len(ps))
	var mx, my, mw float64
	for _, p := range ps {
		mx, my, mw = mx+p.x/n, my+p.y/n, mw+p.youth/n
	}
	var sxx, sxw, sww, sxy, swy, syy float64
	for _, p := range ps {
		dx, dw, dy := p.x-mx, p.youth-mw, p.y-my
		sxx, sxw, sww = sxx+dx*dx, sxw+dx*dw, sww+dw*dw
		sxy, swy, syy = sxy+dx*dy, swy+dw*dy, syy+dy*dy
	}
	if sww == 0 {
		return line
	}
	f := line
	f.Slope, f.Youth = 0, swy/sww // youth alone, unless size adds to it
	if d := sxx*sww - sxw*sxw; sxx > 0 && d > 1e-9*sxx*sww {
		if b, c := (sxy*sww-swy*sxw)/d, (swy*sxx-sxy*sxw)/d; b >= 0 {
			f.Slope, f.Youth = b, c
		}
	}
	if f.Youth <= 0 {
		return line
	}
	f.Intercept = my - f.Slope*mx - f.Youth*mw
	f.R2 = 0
	if syy > 0 {
		res := 0.0
		for _, p := range ps {
			d := p.y - f.at(p)
			res += d * d
		}
		f.R2 = 1 - res/syy
	}
	return f
}

// harmonic is 1 + 1/2 + ... + 1/n: the youth a worker accumulates over
// n compiles after its first.
//
// Past exactSum terms the sum is its asymptotic expansion (exact to 1e-13
// there): summed term by term, a projection at a billion candidates spun
// for hours.
func harmonic(n float64) float64 {
	if n > exactSum {
		return math.Log(n) + eulerGamma + 1/(2*n) - 1/(12*n*n)
	}
	s := 0.0
	for i := 1.0; i <= n; i++ {
		s += 1 / i
	}
	if frac := n - math.Floor(n); frac > 0 {
		s += frac / (math.Floor(n) + 1)
	}
	return s
}

const (
	exactSum   = 1000
	eulerGamma = 0.57721566490153286061
)

func fitLine(ps []point) Fit {
	if len(ps) == 0 {
		return Fit{}
	}
	var sx, sy float64
	f := Fit{MinSize: math.Inf(1), MaxSize: math.Inf(-1)}
	for _, p := range ps {
		sx, sy = sx+p.x, sy+p.y
		f.MinSize, f.MaxSize = min(f.MinSize, p.x), max(f.MaxSize, p.x)
	}
	n := float64(len(ps))
	mx, my := sx/n, sy/n
	var sxx, sxy, syy float64
	for _, p := range ps {
		sxx += (p.x - mx) * (p.x - mx)
		sxy += (p.x - mx) * (p.y - my)
		syy += (p.y - my) * (p.y - my)
	}
	f.Intercept = my
	if sxx > 0 && sxy > 0 {
		f.Slope = sxy / sxx
		f.Intercept = my - f.Slope*mx
		if syy > 0 {
			f.R2 = sxy * sxy / (sxx * syy)
		}
	}
	return f
}

// costKinds name the unit costs, in the order the table lists them.
const (
	kindCrawl       = "crawl"
	kindVerify      = "verify"
	kindSkeleton    = "skeleton"
	kindCompile     = "compile"         // a compile that succeeds
	kindCompileFail = "compile failing" // a compile that fails (no code generation)
	kindRepair      = "repair"
	kindRepairFail  = "repair failing"
	kindO1Eq        = "o1 equivalent"
	kindO1Neq       = "o1 non-equivalent"
	kindO1Pairs     = "o1 pairs per sample"
	kindO2          = "o2"
	kindDCR         = "dcr"
	kindSequences   = "sequences"
	kindO3          = "o3"
	kindVuln        = "vuln"
)

// youthKinds are the compiling kinds whose measured point is one compile:
// their fits may take the workers' youth (warmFit). A verify or skeleton
// unit is one compile; a compile unit's point is one sample's compile where
// the samples record their workers' age (an older warehouse's compile
// points average a unit's samples and carry no youth).
var youthKinds = []string{kindVerify, kindSkeleton, kindCompile, kindCompileFail, kindRepair, kindRepairFail}

// startsOnCompile are the kinds that share the compile stage's workers,
// whose starts are charged once, on kindCompile.
var startsOnCompile = []string{kindCompileFail, kindRepair, kindRepairFail}

// compileStage are the kinds one compile stage's workers serve, one after
// another: a worker's warm-up is shared among them.
var compileStage = append([]string{kindCompile}, startsOnCompile...)

// warmFit fits the units that started no solc worker (when at least two
// did not), and prices a worker start: what the units that started one
// spent beyond that fit, per start. Where too few units ran warm (each
// compile unit of the cost run is a new compiler version), the starts are
// taken out at shared, the price another stage measured: a start is the
// same Node load and compiler warm-up whichever stage makes it. With youth,
// the fit has a term in the workers' youth (fitWarm): only for the kinds
// whose point is one unit, where a warm point's youth is its one compile's
// 1/n; a compile unit's point averages a contract's samples, whose youth
// moves with its share of a start, and a youth term there would price the
// start twice.
func warmFit(ps []point, shared float64, youth bool) (Fit, float64) {
	fit := fitLine
	if youth {
		fit = fitWarm
	}
	var warm []point
	starts := 0.0
	for _, p := range ps {
		if p.starts == 0 {
			warm = append(warm, p)
		}
		starts += p.starts
	}
	if starts == 0 {
		return fit(ps), 0
	}
	if len(warm) < 2 {
		if shared == 0 {
			return fit(ps), 0
		}
		return fit(lessStarts(ps, shared)), shared
	}
	f := fit(warm)
	extra := 0.0
	for _, p := range ps {
		if p.starts > 0 {
			extra += p.y - f.at(p)
		}
	}
	return f, max(extra/starts, 0)
}

// lessStarts is ps with price taken out per worker start.
func lessStarts(ps []point, price float64) []point {
	out := make([]point, len(ps))
	for i, p := range ps {
		out[i] = point{p.x, max(p.y-price*p.starts, 0), 0, p.youth}
	}
	return out
}

// startPrice is a solc worker start's CPU as priced by the first compiling
// stage whose warm units can price it.
func startPrice(points map[string][]point) float64 {
	for _, kind := range []string{kindVerify, kindSkeleton, kindCompile} {
		if _, price := warmFit(points[kind], 0, slices.Contains(youthKinds, kind)); price > 0 {
			return price
		}
	}
	return 0
}

// atMix is a fit evaluated over a size distribution.
func atMix(f Fit, mix []SizeShare) float64 {
	s := 0.0
	for _, b := range mix {
		s += b.Share * max(f.At(b.Functions), 0)
	}
	return s
}

// Project scales the measured unit costs to the evaluation p, with a 95%
// interval per stage and for the total.
func Project(m *Measured, p Scale, opt Options) *Projection {
	pr := &Projection{Target: p.Name, Args: opt.Args, MeasuredCPUSeconds: map[string]float64{}, Assumptions: projectionAssumptions(p)}
	for stage, sec := range opt.StageCPU {
		pr.MeasuredCPUSeconds[stage] = round2(sec)
	}
	e := estimate(m.points, p, m.unitCounts())
	pr.Stages, pr.CPUHours, pr.BesideCPUHours, pr.TotalCPUHours = e.rows, roundAll(e.hours), roundAll(e.beside), round4(e.total)
	pr.Assumptions = append(pr.Assumptions, e.notes...)
	pr.setIntervals(m, p, opt)
	for i, c := range pr.Stages {
		if floor, what := unitFloor(c.Stage); c.Measured < floor {
			pr.Stages[i].TooFew = fmt.Sprintf("too few units: %d %s measured, %d would be enough", c.Measured, what, floor)
			if !slices.Contains(pr.TooFew, c.Stage) {
				pr.TooFew = append(pr.TooFew, c.Stage)
			}
		}
	}
	if p.Name == Paper.Name {
		pr.Goal = fmt.Sprintf("≤ %g CPU-hours, the interval's upper end ≤ %g (LLM generation apart)", CPUGoal, CPUGoalHigh)
		pr.Met = pr.TotalCPUHours <= CPUGoal && pr.TotalInterval[1] <= CPUGoalHigh
	}
	pr.SetWall(opt.Cores, opt.OverheadMS)
	return pr
}

// unitFloor is how many measured points a stage's fit needs before its
// projection means much, and what a point is: O1's pairs and vuln's units
// are one per sample (30 of them), every other stage's points one per
// contract (10), a contract's samples averaged into its point.
func unitFloor(stage string) (int, string) {
	switch stage {
	case "o1":
		return 30, "function pairs"
	case "vuln":
		return 30, "units"
	}
	return 10, "contracts"
}

// setIntervals resamples the measured contracts with replacement, B times,
// each drawn contract bringing all its units (the units of one contract share
// its code and size: resampled one by one they would give too narrow an
// interval), and takes each stage's and the total's 2.5th and 97.5th
// percentiles.
func (pr *Projection) setIntervals(m *Measured, p Scale, opt Options) {
	b := opt.Resamples
	if b <= 0 {
		b = DefaultResamples
	}
	pr.Resamples = b
	rng := rand.New(rand.NewPCG(uint64(opt.Seed), 0x50726f6a))
	stages := map[string][]float64{}
	var totals []float64
	for range b {
		if opt.Ctx != nil && opt.Ctx.Err() != nil {
			break
		}
		e := estimate(m.resample(rng), p, nil)
		for stage, h := range e.hours {
			stages[stage] = append(stages[stage], h)
		}
		for stage, h := range e.beside {
			stages[stage] = append(stages[stage], h)
		}
		totals = append(totals, e.total)
	}
	pr.CPUHoursInterval = map[string][2]float64{}
	for stage, hs := range stages {
		pr.CPUHoursInterval[stage] = percentiles(hs)
	}
	pr.TotalInterval = percentiles(totals)
}

// resample is one bootstrap replicate of the points: contracts drawn with
// replacement, each bringing its points as often as it was drawn. A kind
// whose points name no contract (or that no drawn contract has) resamples its
// points one by one.
func (m *Measured) resample(rng *rand.Rand) map[string][]point {
	var contracts []string
	seen := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(m.owners)) {
		for _, c := range m.owners[k] {
			if !seen[c] {
				seen[c] = true
				contracts = append(contracts, c)
			}
		}
	}
	slices.Sort(contracts)
	drawn := map[string]int{}
	for range contracts {
		drawn[contracts[rng.IntN(len(contracts))]]++
	}
	out := make(map[string][]point, len(m.points))
	for _, k := range slices.Sorted(maps.Keys(m.points)) {
		ps, owners := m.points[k], m.owners[k]
		var r []point
		if len(owners) == len(ps) {
			for i, pt := range ps {
				for range drawn[owners[i]] {
					r = append(r, pt)
				}
			}
		}
		if len(r) == 0 && len(ps) > 0 {
			r = make([]point, len(ps))
			for i := range r {
				r[i] = ps[rng.IntN(len(ps))]
			}
		}
		out[k] = r
	}
	return out
}

// percentiles are the 2.5th and 97.5th percentiles of xs (nearest rank).
func percentiles(xs []float64) [2]float64 {
	if len(xs) == 0 { // a bootstrap stopped before its first resample
		return [2]float64{}
	}
	slices.Sort(xs)
	at := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(xs)))) - 1
		return round4(xs[min(max(i, 0), len(xs)-1)])
	}
	return [2]float64{at(0.025), at(0.975)}
}

// estimation is one projection's figures, before any interval.
type estimation struct {
	rows          []StageCost
	hours, beside map[string]float64
	total         float64
	notes         []string
}

// estimate scales unit costs (points per kind, left unchanged) to p; units
// are how many units each kind's points came from, where that is not one
// each (compile's points are its samples' compiles; nil: one each).
func estimate(measured map[string][]point, p Scale, unitsOf map[string]int) estimation {
	points := make(map[string][]point, len(measured)+1)
	for k, ps := range measured {
		points[k] = ps
	}
	e := estimation{hours: map[string]float64{}, beside: map[string]float64{}}
	pairs := atMix(fitLine(points[kindO1Pairs]), p.KeptMix)
	if len(points[kindCompileFail]) == 0 && len(points[kindCompile]) > 0 {
		points[kindCompileFail] = points[kindCompile]
		e.notes = append(e.notes, "compile: no failing compile was measured (every sample compiled); a sample that does not compile is costed as one that does (an overestimate: solc stops before code generation; a run with `--generator mutant:compile-error` measures it)")
	}
	if len(points[kindO1Neq]) == 0 && len(points[kindO1Eq]) > 0 {
		points[kindO1Neq] = points[kindO1Eq]
		e.notes = append(e.notes, "o1: no non-equivalent pair was measured; those pairs are costed as equivalent ones (a full campaign)")
	}
	counted := func(kind string, ps []point) int {
		if n, ok := unitsOf[kind]; ok {
			return n
		}
		return len(ps)
	}
	shared := startPrice(points)
	// A compile stage's worker serves its samples' compiles and repairs,
	// whatever their outcome: its warm-up is shared among them by count.
	compiles := p.Samples() + p.Repairs()
	row := func(kind, stage, unit, size string, units float64, mix []SizeShare, x *float64, beside bool) {
		ps := points[kind]
		f, perStart := warmFit(ps, shared, slices.Contains(youthKinds, kind))
		per := 0.0
		if x != nil {
			per = max(f.At(*x), 0)
		} else {
			per = atMix(f, mix)
		}
		c := StageCost{Stage: stage, Unit: unit, Size: size, Measured: counted(kind, ps), MeanCPU: round4(meanY(ps)), Fit: roundFit(f),
			PerUnit: round4(per), Units: math.Round(units), Beside: beside}
		onCompile := slices.Contains(startsOnCompile, kind)
		if perStart > 0 && !onCompile || f.Youth > 0 {
			served := units // the units a worker of this kind serves
			if slices.Contains(compileStage, kind) {
				served = compiles
			}
			c.WorkerStarts = min(served, p.WorkerStarts())
			c.ServedPerStart = round4(served / c.WorkerStarts)
			if !onCompile {
				c.StartCPU = round4(perStart)
			}
			// A compile point is one compile only where the samples record
			// their workers' age (unitsOf then counts its contracts).
			if slices.Contains(youthKinds, kind) && len(ps) > 0 && (unitsOf != nil || !slices.Contains(compileStage, kind)) {
				c.MeasuredStarts = round4(sumStarts(ps))
				c.MeasuredPerStart = round4(perStartMeasured(points, kind))
			}
			if served > 0 {
				c.WarmupCPU = round4(f.Youth * units / served * harmonic(max(served/c.WorkerStarts-1, 0)))
			}
		}
		hours := (per*units + (c.StartCPU+c.WarmupCPU)*c.WorkerStarts) / 3600
		c.CPUHours = round4(hours)
		e.rows = append(e.rows, c)
		if len(ps) == 0 {
			e.notes = append(e.notes, fmt.Sprintf("%s (%s): not measured, costed 0", stage, unit))
		}
		if beside {
			e.beside[stage] += hours
		} else {
			e.hours[stage] += hours
			e.total += hours
		}
	}
	fns, o2x := "non-trivial functions", float64(p.O2Txs)
	row(kindCrawl, "crawl", "candidate", fns, float64(p.Crawled), p.CrawledMix, nil, false)
	row(kindVerify, "verify", "candidate", fns, float64(p.Crawled), p.CrawledMix, nil, false)
	row(kindSkeleton, "skeleton", "kept contract", fns, float64(p.Kept), p.KeptMix, nil, false)
	row(kindCompile, "compile", "sample compiling raw", fns, p.CompilingRaw(), p.KeptMix, nil, false)
	row(kindCompileFail, "compile", "sample not compiling raw", fns, p.Samples()-p.CompilingRaw(), p.KeptMix, nil, false)
	// A repair is one more compile of the sample: priced as one that
	// succeeds or fails by its outcome.
	points[kindRepair], points[kindRepairFail] = points[kindCompile], points[kindCompileFail]
	row(kindRepair, "repair", "repair that compiles (its recompile)", fns, p.Compiling()-p.CompilingRaw(), p.KeptMix, nil, false)
	row(kindRepairFail, "repair", "repair still not compiling (its recompile)", fns, p.Repairs()-(p.Compiling()-p.CompilingRaw()), p.KeptMix, nil, false)
	row(kindO1Eq, "o1", "equivalent function pair", fns, p.Compiling()*pairs*p.Equivalent, p.KeptMix, nil, false)
	row(kindO1Neq, "o1", "non-equivalent function pair", fns, p.Compiling()*pairs*(1-p.Equivalent), p.KeptMix, nil, false)
	row(kindO2, "o2", "compiling sample", "replayed transactions", p.Compiling(), nil, &o2x, false)
	row(kindDCR, "dcr", "kept contract and extractor (LLM apart: the static extractor's CPU)", fns, float64(p.Kept*p.Models), p.KeptMix, nil, false)
	row(kindSequences, "sequences", "kept contract and extractor (Algorithm 1, T = 1,000)", fns, float64(p.Kept*p.Models), p.KeptMix, nil, false)
	row(kindO3, "o3", "compiling sample and graph setting", fns, p.Compiling()*p.O3Settings, p.KeptMix, nil, false)
	row(kindVuln, "vuln", "original or compiling sample", fns, float64(p.Kept)+p.Compiling(), p.KeptMix, nil, true)
	return e
}

// SetWall projects the wall time on each core count: the CPU spread over the
// cores, plus Temporal's overhead per unit (ms of wall time, measured by
// `bench --temporal`; 0 when not measured) spread likewise.
func (pr *Projection) SetWall(cores []int, overheadMS float64) {
	pr.Wall = nil
	pr.TemporalOverheadMS = overheadMS
	units := Paper.PipelineUnits()
	for _, n := range cores {
		h := (pr.TotalCPUHours + units*overheadMS/1000/3600) / float64(n)
		pr.Wall = append(pr.Wall, WallTime{Cores: n, Hours: round4(h)})
	}
}

// Cores are the core counts the wall time is projected on.
func (pr *Projection) Cores() []int {
	var out []int
	for _, w := range pr.Wall {
		out = append(out, w.Cores)
	}
	return out
}

func projectionAssumptions(p Scale) []string {
	return []string{
		fmt.Sprintf("scale: %d candidates crawled and verified, %d kept, %d models x k = %d (%.0f samples), one repair pass for the %.0f samples not compiling raw (Table I), %.0f compiling samples reach the oracles",
			p.Crawled, p.Kept, p.Models, p.K, p.Samples(), p.Repairs(), p.Compiling()),
		fmt.Sprintf("O1: fuzzable function pairs per compiling sample fitted on the measured samples; %.1f%% of them equivalent (paper), the rest non-equivalent, each at its measured cost", 100*p.Equivalent),
		fmt.Sprintf("O2: every kept contract replays its first %d transactions (the budget); O3: %.2g graph settings per sample (the paper: fixed and matched, §V-D), T = 1,000", p.O2Txs, p.O3Settings),
		"sizes: costs fitted against contracts.n_nontrivial_functions of the measured contracts and evaluated at the target's distribution (the paper's: Figure 2, crawled for crawl and verify, kept for the rest, buckets at their middle, 11-20 at the median 16, 31+ at 40; a run like the measured one: the measured contracts' own sizes)",
		"LLM work is apart: generation, repair requests, NatSpec and DCR extraction replies; our side of it (compiles, graph parsing) is costed, the samples are mutants",
		"per-sample costs of o2 and o3 are the contract's replay CPU (the original's units and every model's) / its compiling samples (o3: / sample replays, one per sample and graph setting), so the original's replay is amortized over the measured samples, over ~40 (7 models) in the paper: an overestimate there",
		"o1 pair costs split each unit's CPU over its pairs in proportion to their wall time; pairs that ran no campaign (undeployed, same_code) are left out, so every equivalent pair is costed as a full campaign; vuln runs at its default budget, beside the total (our extension)",
		"CPU is user + system time of the process and its children (the Node solc workers) around each unit, as the units dataset records it (each unit's share when units ran side by side): on a machine whose cores are shared (SMT, busy neighbours) a unit's CPU grows with the load; the interval resamples the measured contracts, each with all its units (bootstrap, seeded), and says nothing of a machine unlike the measuring one",
		fmt.Sprintf("solc worker starts are priced apart (their CPU beyond a warm unit's, measured on the units that started one): the runner keeps each job on one compiler while its units last, so a compiling stage starts about one worker per compiler version and job, here %d versions + %d jobs", p.Compilers, p.Jobs),
		"a worker's warm-up is priced per start too: the warm units' fit has a term in their workers' youth (units.solc_youth, the sum of 1/n over compiles on a worker that had served n before), a unit is priced on a long-warm worker (youth 0), and each start adds the term's coefficient x (1 + 1/2 + ... + 1/(units per start - 1)) at the evaluation's units per start; verify's and skeleton's points are one compile each, compile's and repair's one sample's compile each (samples.compile_solc_youth, recompile_solc_youth; the unit's CPU split over its compiles by their wall time, the original's reference compile spread with it), all only where at least 10 warm points have youth; a compile kind's warm-up per start is its coefficient's harmonic sum at the evaluation's compiles per start, shared by the kinds in proportion to their compiles; the 1/n shape is an assumption (BenchmarkWorkerWarmup, stages/verify, checks it), and where the youth term does not raise the cost it is left out",
	}
}

// unitCounts is, for the kinds whose points are not one unit each (compile's,
// one per sample's compile), the contracts they came from: the unit floor
// counts contracts.
func (m *Measured) unitCounts() map[string]int {
	if !m.perCompile {
		return nil
	}
	out := map[string]int{}
	for _, kind := range []string{kindCompile, kindCompileFail} {
		seen := map[string]bool{}
		for _, c := range m.owners[kind] {
			seen[c] = true
		}
		out[kind] = len(seen)
	}
	out[kindRepair], out[kindRepairFail] = out[kindCompile], out[kindCompileFail]
	return out
}

// perStartMeasured is how many compiles a measured worker start served: a
// compile stage's worker serves compiles of either outcome.
func perStartMeasured(points map[string][]point, kind string) float64 {
	ps := points[kind]
	if slices.Contains(compileStage, kind) {
		ps = append(slices.Clone(points[kindCompile]), points[kindCompileFail]...)
	}
	if starts := sumStarts(ps); starts > 0 {
		return float64(len(ps)) / starts
	}
	return 0
}

func sumStarts(ps []point) float64 {
	s := 0.0
	for _, p := range ps {
		s += p.starts
	}
	return s
}

// Warmth compares, for each stage that starts solc workers, the compiles a
// start served in the measured run with those it serves in the evaluation,
// and says what the warm-up costs: a worker's first compiles cost more than
// its later ones (V8 is still compiling the compiler's hot code), so the
// fit prices compiles on a long-warm worker and the warm-up apart, per
// start. A compile stage's worker serves the compile and repair rows
// together: one line for them, its warm-up the rows' sum.
func (pr *Projection) Warmth() []string {
	var out []string
	done := map[string]bool{}
	for _, c := range pr.Stages {
		group := workerGroup(c.Stage)
		if c.MeasuredStarts <= 0 || c.WorkerStarts <= 0 || done[group] {
			continue
		}
		done[group] = true
		var youth []string
		warmup := 0.0
		for _, d := range pr.Stages {
			if workerGroup(d.Stage) != group {
				continue
			}
			warmup += d.WarmupCPU
			if d.Fit.Youth > 0 && d.Stage == c.Stage {
				youth = append(youth, fmt.Sprintf("%.3f", d.Fit.Youth))
			}
		}
		text := "no warm-up term"
		if len(youth) > 0 {
			text = fmt.Sprintf("warm-up %s CPU-s at a worker's second compile, %.2f per start", strings.Join(youth, " / "), warmup)
		}
		out = append(out, fmt.Sprintf("%s %.1f compiles per worker start measured, %.1f in the evaluation (%s)",
			c.Stage, c.MeasuredPerStart, c.ServedPerStart, text))
	}
	return out
}

// workerGroup names the stage whose solc workers a stage's compiles run
// on: a repair's recompile runs in the compile stage.
func workerGroup(stage string) string {
	if stage == "repair" {
		return "compile"
	}
	return stage
}

func meanY(ps []point) float64 {
	if len(ps) == 0 {
		return 0
	}
	s := 0.0
	for _, p := range ps {
		s += p.y
	}
	return s / float64(len(ps))
}

func roundAll(m map[string]float64) map[string]float64 {
	for k, v := range m {
		m[k] = round4(v)
	}
	return m
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
func round2(v float64) float64 { return math.Round(v*100) / 100 }

func roundFit(f Fit) Fit {
	return Fit{Intercept: round4(f.Intercept), Slope: round4(f.Slope), Youth: round4(f.Youth), R2: round4(f.R2), MinSize: f.MinSize, MaxSize: f.MaxSize}
}

// sortedStages lists a map's stages in pipeline order.
func sortedStages(m map[string]float64) []string {
	order := []string{"crawl", "verify", "skeleton", "compile", "repair", "o2", "dcr", "sequences", "o3", "o1", "vuln"}
	var out []string
	for _, s := range order {
		if _, ok := m[s]; ok {
			out = append(out, s)
		}
	}
	for s := range m {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
