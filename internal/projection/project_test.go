package projection

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFitLine(t *testing.T) {
	f := fitLine([]point{{1, 3, 0, 0}, {2, 5, 0, 0}, {4, 9, 0, 0}}) // y = 1 + 2x
	if math.Abs(f.Intercept-1) > 1e-9 || math.Abs(f.Slope-2) > 1e-9 || math.Abs(f.R2-1) > 1e-9 || f.MinSize != 1 || f.MaxSize != 4 {
		t.Errorf("y = 1 + 2x: got %+v", f)
	}
	// A cost that falls with size is noise: the mean, flat.
	if f := fitLine([]point{{1, 4, 0, 0}, {3, 2, 0, 0}}); f.Slope != 0 || f.Intercept != 3 {
		t.Errorf("falling: got %+v, want the mean 3 and slope 0", f)
	}
	if f := fitLine([]point{{5, 2, 0, 0}, {5, 4, 0, 0}}); f.Slope != 0 || f.Intercept != 3 {
		t.Errorf("one size: got %+v, want the mean", f)
	}
}

// TestProjectScalesToThePaper checks the arithmetic on flat unit costs:
// every stage is its unit cost times the paper's count of units, vuln stays
// beside the total, and the wall time spreads the total over the cores.
func TestProjectScalesToThePaper(t *testing.T) {
	flat := func(y float64) []point { return []point{{3, y, 0, 0}, {8, y, 0, 0}, {16, y, 0, 0}} }
	m := &Measured{points: map[string][]point{
		kindCrawl: flat(0.01), kindVerify: flat(1), kindSkeleton: flat(0.5), kindCompile: flat(0.4),
		kindO1Eq: flat(0.2), kindO1Neq: flat(0.02), kindO1Pairs: flat(10), kindO2: {{1000, 0.05, 0, 0}},
		kindDCR: flat(0.03), kindSequences: flat(0.3), kindO3: flat(0.04), kindVuln: flat(5),
	}}
	p := Project(m, Paper, Options{Args: []string{"--samples", "10"}, Cores: []int{16}})
	compiling := 2500 * (0.927 + 0.713 + 0.618 + 0.579 + 0.521 + 0.399 + 0.264) // Table I, repaired
	repairs := 2500 * (7 - (0.891 + 0.647 + 0.532 + 0.480 + 0.412 + 0.343 + 0.188))
	want := map[string]float64{
		"crawl": 8360 * 0.01, "verify": 8360 * 1, "skeleton": 250 * 0.5, "compile": 17500 * 0.4, "repair": repairs * 0.4,
		"o1":  compiling * 10 * (0.314*0.2 + 0.686*0.02),
		"o2":  compiling * 0.05,
		"dcr": 1750 * 0.03, "sequences": 1750 * 0.3, "o3": 2 * compiling * 0.04,
	}
	total := 0.0
	for stage, sec := range want {
		total += sec / 3600
		if got := p.CPUHours[stage]; math.Abs(got-sec/3600) > 2e-3 {
			t.Errorf("%s: %.4f CPU-hours, want %.4f", stage, got, sec/3600)
		}
	}
	if len(p.CPUHours) != len(want) {
		t.Errorf("stages in the total: %v", p.CPUHours)
	}
	if got, w := p.BesideCPUHours["vuln"], (250+compiling)*5/3600; math.Abs(got-w) > 2e-3 {
		t.Errorf("vuln beside: %.4f, want %.4f", got, w)
	}
	if math.Abs(p.TotalCPUHours-total) > 1e-2 || p.Met != (p.TotalCPUHours <= CPUGoal && p.TotalInterval[1] <= CPUGoalHigh) {
		t.Errorf("total %.4f (met %v), want %.4f", p.TotalCPUHours, p.Met, total)
	}
	if len(p.Wall) != 1 || p.Wall[0].Cores != 16 || math.Abs(p.Wall[0].Hours-p.TotalCPUHours/16) > 1e-3 {
		t.Errorf("wall on 16 cores: %+v, want %.4f h", p.Wall, p.TotalCPUHours/16)
	}
	p.SetWall(p.Cores(), 50) // 50 ms per unit on Temporal
	if w := (p.TotalCPUHours + Paper.PipelineUnits()*0.05/3600) / 16; math.Abs(p.Wall[0].Hours-w) > 1e-3 {
		t.Errorf("wall with Temporal's overhead: %+v, want %.4f h", p.Wall, w)
	}
}

// Sizes matter: a cost that grows with the function count is evaluated at
// Figure 2's sizes, not at the measured contracts' mean.
func TestProjectEvaluatesFitsAtThePaperSizes(t *testing.T) {
	m := &Measured{points: map[string][]point{kindVerify: {{0, 1, 0, 0}, {10, 2, 0, 0}, {20, 3, 0, 0}}}} // 1 + 0.1 x
	p := Project(m, Paper, Options{})
	perCandidate := 0.0
	for _, b := range Paper.CrawledMix {
		perCandidate += b.Share * (1 + 0.1*b.Functions)
	}
	if got, want := p.CPUHours["verify"], 8360*perCandidate/3600; math.Abs(got-want) > 1e-3 {
		t.Errorf("verify: %.4f CPU-hours, want %.4f", got, want)
	}
}

// Without a measured non-equivalent pair (a corpus whose mutants all stay
// equivalent), such pairs are costed as equivalent ones, not as free.
func TestProjectUnmeasuredNonEquivalentPairs(t *testing.T) {
	m := &Measured{points: map[string][]point{kindO1Eq: {{5, 0.2, 0, 0}}, kindO1Pairs: {{5, 10, 0, 0}}}}
	p := Project(m, Paper, Options{})
	if want := Paper.Compiling() * 10 * 0.2 / 3600; math.Abs(p.CPUHours["o1"]-want) > 1e-2 {
		t.Errorf("o1: %.4f CPU-hours, want %.4f (every pair at the equivalent cost)", p.CPUHours["o1"], want)
	}
}

// A unit that started a solc worker pays the compiler's load and warm-up:
// the projection costs units at the warm units' fit and prices the starts
// apart, as many as the evaluation makes (one per compiler version and job).
func TestProjectPricesWorkerStartsApart(t *testing.T) {
	m := &Measured{points: map[string][]point{kindVerify: {{0, 1, 0, 0}, {10, 2, 0, 0}, {20, 3, 0, 0}, {5, 4.5, 1, 0}, {15, 6.5, 2, 0}}}} // warm: 1 + 0.1 x
	p := Project(m, Paper, Options{})
	// The cold units spent 4.5 - 1.5 = 3 and 6.5 - 2.5 = 4 over the fit: 7 s for 3 starts.
	perCandidate := 0.0
	for _, b := range Paper.CrawledMix {
		perCandidate += b.Share * (1 + 0.1*b.Functions)
	}
	starts := float64(Paper.Compilers + Paper.Jobs)
	if got, want := p.CPUHours["verify"], (8360*perCandidate+starts*7.0/3)/3600; math.Abs(got-want) > 1e-3 {
		t.Errorf("verify: %.4f CPU-hours, want %.4f", got, want)
	}
	if c := p.Stages[1]; c.Stage != "verify" || math.Abs(c.StartCPU-7.0/3) > 1e-3 || c.WorkerStarts != starts {
		t.Errorf("verify row %+v: want %.3f s per start, %v starts", c, 7.0/3, starts)
	}
}

// Each compile unit of the cost run starts a worker (a new compiler version
// per contract), so none runs warm: the starts come out at the price verify's
// warm units set, not folded into every sample's cost.
func TestProjectTakesStartsOutAtTheSharedPrice(t *testing.T) {
	m := &Measured{points: map[string][]point{
		kindVerify:  {{0, 1, 0, 0}, {10, 1, 0, 0}, {5, 3, 1, 0}},            // warm 1 s; a start costs 2 s
		kindCompile: {{3, 0.5 + 2.0/10, 0.1, 0}, {16, 0.5 + 2.0/5, 0.2, 0}}, // 0.5 s warm, a start over k samples
	}}
	p := Project(m, Paper, Options{})
	starts := float64(Paper.Compilers + Paper.Jobs)
	if got, want := p.CPUHours["compile"], (17500*0.5+starts*2)/3600; math.Abs(got-want) > 1e-3 {
		t.Errorf("compile: %.4f CPU-hours, want %.4f (warm samples, starts apart)", got, want)
	}
	if got, want := p.CPUHours["repair"], Paper.Repairs()*0.5/3600; math.Abs(got-want) > 1e-3 {
		t.Errorf("repair: %.4f CPU-hours, want %.4f (a recompile on a warm worker)", got, want)
	}
}

// The interval resamples the measured points (here no contracts are named): constant costs give an interval
// of width 0 at the estimate; noisy ones an interval around it; the same
// seed the same interval; a fit on few units says so.
func TestProjectIntervals(t *testing.T) {
	flat := func(y float64) []point { return []point{{3, y, 0, 0}, {8, y, 0, 0}, {16, y, 0, 0}} }
	m := &Measured{points: map[string][]point{kindVerify: flat(1), kindO2: {{1000, 0.05, 0, 0}}}}
	p := Project(m, Paper, Options{Seed: 1})
	if iv := p.CPUHoursInterval["verify"]; iv[0] != p.CPUHours["verify"] || iv[1] != p.CPUHours["verify"] {
		t.Errorf("flat verify: interval %v, want width 0 at %v", iv, p.CPUHours["verify"])
	}
	var noisy []point
	for i := range 40 {
		noisy = append(noisy, point{float64(i % 5), float64(i%7) * 0.3, 0, 0})
	}
	m = &Measured{points: map[string][]point{kindVerify: noisy}}
	a, b := Project(m, Paper, Options{Seed: 7}), Project(m, Paper, Options{Seed: 7})
	iv := a.CPUHoursInterval["verify"]
	if !(iv[0] < a.CPUHours["verify"] && a.CPUHours["verify"] < iv[1]) {
		t.Errorf("noisy verify %v outside its interval %v", a.CPUHours["verify"], iv)
	}
	if a.TotalInterval != b.TotalInterval || a.TotalInterval[0] >= a.TotalInterval[1] {
		t.Errorf("same seed, intervals %v and %v", a.TotalInterval, b.TotalInterval)
	}
	if a.Resamples != DefaultResamples {
		t.Errorf("resamples %d", a.Resamples)
	}
	tooFew := map[string]bool{}
	for _, c := range a.Stages {
		tooFew[c.Stage] = c.TooFew != ""
	}
	if tooFew["verify"] || !tooFew["skeleton"] || !tooFew["o2"] {
		t.Errorf("too few: %v (verify has 40 units, skeleton and o2 none)", tooFew)
	}
}

// Warmth says how many units a worker start served in the measured run and
// in the evaluation, for the stages whose points are one unit each.
func TestWarmthComparesUnitsPerStart(t *testing.T) {
	m := &Measured{points: map[string][]point{
		// 6 candidates, 3 of them started a worker (plus the warm units' fit)
		kindVerify:   {{1, 3, 1, 0}, {2, 1, 0, 0}, {3, 1.2, 0, 0}, {1, 3.1, 1, 0}, {2, 1.1, 0, 0}, {4, 3.5, 1, 0}},
		kindSkeleton: {{1, 0.5, 0, 0}, {2, 0.6, 0, 0}}, // no start measured: nothing to compare
	}}
	p := Project(m, Paper, Options{})
	w := p.Warmth()
	starts := Paper.WorkerStarts()
	want := fmt.Sprintf("verify 2.0 compiles per worker start measured, %.1f in the evaluation (no warm-up term)", 8360/starts)
	if len(w) != 1 || w[0] != want {
		t.Errorf("warmth: %q, want [%q]", w, want)
	}
}

// A worker's first compiles cost more than its later ones: the warm units'
// fit takes the workers' youth as a second term, prices each unit on a
// long-warm worker, and charges the warm-up per start over the units a start
// serves in the evaluation (1 + 1/2 + ... + 1/(units per start - 1)).
func TestProjectPricesWarmupPerStart(t *testing.T) {
	cost := func(x, youth float64) float64 { return 1 + 0.1*x + 0.6*youth }
	var ps []point
	for i, w := range []float64{1, 0.5, 1.0 / 3, 1, 0.25, 0.5, 1, 0.2, 1.0 / 3, 1, 0.125, 0.5} {
		x := float64(2 + 3*(i%6) + i/6)
		ps = append(ps, point{x, cost(x, w), 0, w})
	}
	ps = append(ps, point{5, cost(5, 0) + 2, 1, 0}, point{9, cost(9, 0) + 2, 1, 0}) // a start costs 2 s
	// The same points as a compile's: no youth term (a compile point averages
	// a contract's samples), nor with fewer than 10 young points.
	if f, _ := warmFit(ps, 0, false); f.Youth != 0 {
		t.Errorf("a fit without youth: %+v", f)
	}
	if f := fitWarm(ps[3:]); f.Youth != 0 {
		t.Errorf("9 young points: %+v, want no youth term", f)
	}
	p := Project(&Measured{points: map[string][]point{kindVerify: ps}}, Paper, Options{})
	c := p.Stages[1]
	if w := p.Warmth(); len(w) != 1 || !strings.Contains(w[0], "warm-up 0.600 CPU-s at a worker's second compile") {
		t.Errorf("warmth %q: want verify's warm-up", w)
	}
	if c.Stage != "verify" || math.Abs(c.Fit.Youth-0.6) > 1e-3 || math.Abs(c.Fit.Intercept-1) > 1e-3 || math.Abs(c.Fit.Slope-0.1) > 1e-3 {
		t.Fatalf("verify fit %+v: want 1 + 0.1 x + 0.6 youth", c.Fit)
	}
	starts := Paper.WorkerStarts()
	warmup := 0.0
	for n := 1.0; n <= 8360/starts-1; n++ {
		warmup += 0.6 / n
	}
	if math.Abs(c.StartCPU-2) > 1e-3 || math.Abs(c.WarmupCPU-warmup) > 0.6/(8360/starts-1)+1e-3 {
		t.Errorf("verify per start: %.3f + warm-up %.3f, want 2 + %.3f", c.StartCPU, c.WarmupCPU, warmup)
	}
	perCandidate := 0.0
	for _, b := range Paper.CrawledMix {
		perCandidate += b.Share * (1 + 0.1*b.Functions)
	}
	if got, want := p.CPUHours["verify"], (8360*perCandidate+starts*(2+c.WarmupCPU))/3600; math.Abs(got-want) > 1e-3 {
		t.Errorf("verify: %.4f CPU-hours, want %.4f", got, want)
	}
}

// Youth that does not raise the cost is no warm-up: the plain fit stands.
func TestFitWarmLeavesOutAFallingYouth(t *testing.T) {
	thrice := func(ps []point) []point { return append(append(ps, ps...), ps...) }
	ps := thrice([]point{{1, 2, 0, 1}, {2, 2.5, 0, 0.5}, {3, 3, 0, 1}, {4, 3.5, 0, 0.2}}) // 1.5 + 0.5 x, youth no matter
	f := fitWarm(ps)
	if f.Youth != 0 || math.Abs(f.Slope-0.5) > 1e-9 || math.Abs(f.Intercept-1.5) > 1e-9 {
		t.Errorf("fit %+v: want 1.5 + 0.5 x, no youth term", f)
	}
	ps = thrice([]point{{1, 2.6, 0, 1}, {2, 2, 0, 0.5}, {3, 1.4, 0, 0.1}, {4, 2.08, 0, 1}}) // 2 - 0.2 x + 0.8 youth: size falls, youth alone
	if f := fitWarm(ps); f.Slope != 0 || f.Youth <= 0 {
		t.Errorf("fit %+v: want youth alone", f)
	}
}

// A compile stage's worker serves compiles of either outcome and repairs,
// one after another: each kind's fit takes its own youth term, and the
// warm-up per start is shared among the kinds by their count, over all the
// compiles a start serves; the start itself is charged once, on compile.
func TestCompileWarmupSharedByItsCompiles(t *testing.T) {
	var ok, fail []point
	for n := 1.0; n <= 12; n++ {
		x := float64(int(n)%4 + 2)
		ok = append(ok, point{x, 0.2 + 0.01*x + 0.3/n, 0, 1 / n})
		fail = append(fail, point{x, 0.02 + 0.05/n, 0, 1 / n})
	}
	ok = append(ok, point{3, 0.23 + 2, 1, 0}) // a start costs 2 s
	// Samples that record their workers' age: one contract's compiles.
	owned := func(ps []point) []string { return slices.Repeat([]string{"c"}, len(ps)) }
	m := &Measured{points: map[string][]point{kindCompile: ok, kindCompileFail: fail}, perCompile: true,
		owners: map[string][]string{kindCompile: owned(ok), kindCompileFail: owned(fail)}}
	p := Project(m, Paper, Options{})
	rows := map[string]StageCost{}
	for _, c := range p.Stages {
		rows[c.Unit] = c
	}
	compiles := Paper.Samples() + Paper.Repairs()
	starts := min(compiles, Paper.WorkerStarts())
	h := harmonic(compiles/starts - 1)
	for unit, want := range map[string]struct{ youth, start, units float64 }{
		"sample compiling raw":                       {0.3, 2, Paper.CompilingRaw()},
		"sample not compiling raw":                   {0.05, 0, Paper.Samples() - Paper.CompilingRaw()},
		"repair that compiles (its recompile)":       {0.3, 0, Paper.Compiling() - Paper.CompilingRaw()},
		"repair still not compiling (its recompile)": {0.05, 0, Paper.Repairs() - (Paper.Compiling() - Paper.CompilingRaw())},
	} {
		c := rows[unit]
		warmup := want.youth * want.units / compiles * h
		if math.Abs(c.Fit.Youth-want.youth) > 1e-3 || math.Abs(c.StartCPU-want.start) > 1e-3 || c.WorkerStarts != starts ||
			math.Abs(c.WarmupCPU-warmup) > 1e-3 || math.Abs(c.ServedPerStart-compiles/starts) > 1e-3 {
			t.Errorf("%s: youth %.3f, %v starts x (%.3f + %.3f warm-up), %v per start; want youth %.3f, %v x (%.3f + %.3f), %v",
				unit, c.Fit.Youth, c.WorkerStarts, c.StartCPU, c.WarmupCPU, c.ServedPerStart, want.youth, starts, want.start, warmup, compiles/starts)
		}
	}
	w := p.Warmth()
	if len(w) != 1 || !strings.HasPrefix(w[0], "compile 25.0 compiles per worker start measured") || !strings.Contains(w[0], "warm-up 0.300 / 0.050 CPU-s") {
		t.Errorf("warmth %q: want one line for the compile stage's workers", w)
	}
}

// TestHarmonicOfHugeCountsIsBounded: `cost --candidates 999999999999999999`
// summed the series term by term and spun; the expansion past exactSum
// agrees with the sum where they meet and returns at once far beyond.
func TestHarmonicOfHugeCountsIsBounded(t *testing.T) {
	sum := 0.0
	for i := 1.0; i <= exactSum+1; i++ {
		sum += 1 / i
	}
	if got := harmonic(exactSum + 1); math.Abs(got-sum) > 1e-9 {
		t.Errorf("harmonic(%d) = %.12f, summed %.12f", exactSum+1, got, sum)
	}
	if got := harmonic(1e18); math.Abs(got-(math.Log(1e18)+eulerGamma)) > 1e-9 {
		t.Errorf("harmonic(1e18) = %v", got)
	}
}

// TestProjectStopsWhenCancelled: a hundred million resamples ran 11 minutes
// and ignored SIGTERM; with the command's context done the bootstrap stops.
func TestProjectStopsWhenCancelled(t *testing.T) {
	m := &Measured{points: map[string][]point{kindCompile: {{3, 1, 0, 0}, {8, 2, 0, 0}}}}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	done := make(chan *Projection, 1)
	go func() { done <- Project(m, Paper, Options{Resamples: 100_000_000, Ctx: ctx}) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled projection still resampling after 10 s")
	}
}
