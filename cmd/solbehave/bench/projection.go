package bench

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// ProjectionConfig is the cost run behind the projection.
type ProjectionConfig struct {
	Samples     int      // k mutant samples per kept contract (0: no projection)
	VulnSamples int      // samples per kept contract the vuln stage analyses (0: none)
	Only        bool     // measure the projection alone, not the engines
	Cores       []int    // core counts the wall time is projected on
	Args        []string // further `solbehave run` flags (the smoke bench's small budgets)
}

// CPUGoal is the goal for the paper's evaluation, LLM generation apart.
const CPUGoal = 8.0

// Projection is the paper's evaluation costed from the unit costs measured
// on the bench's corpus: latest.json's `projection`.
type Projection struct {
	Args        []string `json:"args"` // the cost run's `solbehave run` flags over the stages' defaults
	Assumptions []string `json:"assumptions"`
	// MeasuredCPUSeconds is what the cost run itself spent, per stage.
	MeasuredCPUSeconds map[string]float64 `json:"measured_cpu_seconds"`
	Stages             []StageCost        `json:"stages"`
	CPUHours           map[string]float64 `json:"cpu_hours"`
	TotalCPUHours      float64            `json:"total_cpu_hours"`
	// BesideCPUHours are costed stages outside the paper's evaluation (vuln
	// on every original and compiling sample), left out of the total.
	BesideCPUHours map[string]float64 `json:"beside_cpu_hours"`
	Wall           []WallTime         `json:"wall"`
	// TemporalOverheadMS is the Temporal overhead per unit the wall time
	// includes (0: not measured yet; `make bench-temporal` measures it).
	TemporalOverheadMS float64 `json:"temporal_overhead_ms_per_unit"`
	Goal               string  `json:"goal"`
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
	CPUHours     float64 `json:"cpu_hours"`
	Beside       bool    `json:"beside,omitempty"` // not in the total
}

// Fit is cpu_s = Intercept + Slope*size, least squares over the measured
// units; a fit that falls with size is replaced by the mean (Slope 0).
type Fit struct {
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
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

// At is the fitted cost at size x.
func (f Fit) At(x float64) float64 { return f.Intercept + f.Slope*x }

// point is one measured unit: its size, its CPU seconds and the solc
// workers it started.
type point struct{ x, y, starts float64 }

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

// measured is what the projection reads of a cost run, per unit kind.
type measured struct {
	functions map[string]float64 // contract -> non-trivial functions (chain count)
	points    map[string][]point // stage cost name -> (size, CPU s) per unit
}

// costKinds name the unit costs, in the order the table lists them.
const (
	kindCrawl     = "crawl"
	kindVerify    = "verify"
	kindSkeleton  = "skeleton"
	kindCompile   = "compile"
	kindRepair    = "repair"
	kindO1Eq      = "o1 equivalent"
	kindO1Neq     = "o1 non-equivalent"
	kindO1Pairs   = "o1 pairs per sample"
	kindO2        = "o2"
	kindDCR       = "dcr"
	kindSequences = "sequences"
	kindO3        = "o3"
	kindVuln      = "vuln"
)

// readMeasured turns a cost run's unit CPU and rows into per-unit points.
func readMeasured(run *costRun) (*measured, error) {
	w := warehouse.New(run.data + "/warehouse")
	contracts, err := warehouse.ReadDataset(w, schemas.Contracts)
	if err != nil {
		return nil, err
	}
	m := &measured{functions: map[string]float64{}, points: map[string][]point{}}
	for _, c := range contracts {
		m.functions[c.ContractID] = float64(c.NNontrivialFunctions)
	}
	samples, err := warehouse.ReadDataset(w, schemas.Samples)
	if err != nil {
		return nil, err
	}
	generated := map[string]int{} // contract/model -> samples compiled in that unit
	for _, s := range samples {
		generated[s.ContractID+"/"+s.Model]++
	}
	compiling, err := subjects.CompilingSamples(w)
	if err != nil {
		return nil, err
	}
	txs, err := replayedTxs(run, compiling)
	if err != nil {
		return nil, err
	}
	for _, u := range run.units {
		x, y := m.functions[u.Contract], u.CPU.Seconds()
		n := float64(len(compiling[u.Contract]))
		switch u.Stage {
		case "crawl", "verify", "skeleton", "dcr", "sequences", "vuln":
			m.addStarts(u.Stage, x, y, float64(u.Starts))
		case "compile":
			if k := float64(generated[u.Unit]); k > 0 {
				m.addStarts(kindCompile, x, y/k, float64(u.Starts)/k)
			}
		case "o2":
			if n > 0 {
				m.add(kindO2, txs[u.Contract], y/n)
			}
		case "o3":
			if n > 0 {
				m.add(kindO3, x, y/n)
			}
		}
	}
	return m, m.addPairs(w, run)
}

func (m *measured) add(kind string, x, y float64) { m.addStarts(kind, x, y, 0) }

func (m *measured) addStarts(kind string, x, y, starts float64) {
	m.points[kind] = append(m.points[kind], point{x, y, starts})
}

// addPairs splits each O1 unit's CPU over its function pairs in proportion
// to their wall time (the unit runs them one after another on one
// goroutine), and counts the fuzzable pairs per sample.
func (m *measured) addPairs(w *warehouse.Warehouse, run *costRun) error {
	rows, err := warehouse.ReadDataset(w, schemas.FuzzResults)
	if err != nil {
		return err
	}
	byUnit := map[string][]schemas.FuzzResult{}
	perSample := map[string]int{}
	for _, r := range rows {
		byUnit[r.ContractID+"/"+r.Model] = append(byUnit[r.ContractID+"/"+r.Model], r)
		perSample[fmt.Sprintf("%s/%s/%d", r.ContractID, r.Model, r.Sample)]++
	}
	for key, n := range perSample {
		contract := key[:strings.Index(key, "/")]
		m.add(kindO1Pairs, m.functions[contract], float64(n))
	}
	for _, u := range run.units {
		if u.Stage != "o1" {
			continue
		}
		pairs := byUnit[u.Unit]
		total := 0.0
		for _, r := range pairs {
			total += float64(r.ElapsedMS + 1)
		}
		for _, r := range pairs {
			if r.StopReason == schemas.StopUndeployed || r.StopReason == schemas.StopSameCode || r.Error != "" {
				continue // no campaign ran: a model's equivalent pair is costed as a full campaign
			}
			kind := kindO1Neq
			if r.Equivalent {
				kind = kindO1Eq
			}
			m.add(kind, m.functions[u.Contract], u.CPU.Seconds()*float64(r.ElapsedMS+1)/total)
		}
	}
	return nil
}

// replayedTxs is, per contract with compiling samples, how many recorded
// transactions O2 replays: its history after the creation, up to the budget.
func replayedTxs(run *costRun, compiling map[string][]schemas.Sample) (map[string]float64, error) {
	budget := flagInt(run.args, "o2-budget", Paper.O2Txs)
	client, err := etherscan.NewRecorded(run.corpus)
	if err != nil {
		return nil, err
	}
	entries, err := etherscan.ListCorpus(run.corpus)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, e := range entries {
		if len(compiling[e.ID]) == 0 {
			continue
		}
		if rec, err := deploy.Load(client, e, budget); err == nil {
			out[e.ID] = float64(len(rec.Txs))
		}
	}
	return out, nil
}

// flagInt is the value of --name in args, else def.
func flagInt(args []string, name string, def int) int {
	for i, a := range args {
		var v string
		switch {
		case a == "--"+name && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--"+name+"="):
			v = strings.TrimPrefix(a, "--"+name+"=")
		default:
			continue
		}
		var n int
		if _, err := fmt.Sscan(v, &n); err == nil {
			return n
		}
	}
	return def
}

// warmFit fits the units that started no solc worker (when at least two
// did not), and prices a worker start: what the units that started one
// spent beyond that fit, per start. Where too few units ran warm (each
// compile unit of the cost run is a new compiler version), the starts are
// taken out at shared, the price another stage measured: a start is the
// same Node load and compiler warm-up whichever stage makes it.
func warmFit(ps []point, shared float64) (Fit, float64) {
	var warm []point
	starts := 0.0
	for _, p := range ps {
		if p.starts == 0 {
			warm = append(warm, p)
		}
		starts += p.starts
	}
	if starts == 0 {
		return fitLine(ps), 0
	}
	if len(warm) < 2 {
		if shared == 0 {
			return fitLine(ps), 0
		}
		return fitLine(lessStarts(ps, shared)), shared
	}
	f := fitLine(warm)
	extra := 0.0
	for _, p := range ps {
		if p.starts > 0 {
			extra += p.y - f.At(p.x)
		}
	}
	return f, max(extra/starts, 0)
}

// lessStarts is ps with price taken out per worker start.
func lessStarts(ps []point, price float64) []point {
	out := make([]point, len(ps))
	for i, p := range ps {
		out[i] = point{p.x, max(p.y-price*p.starts, 0), 0}
	}
	return out
}

// startPrice is a solc worker start's CPU as priced by the first compiling
// stage whose warm units can price it.
func startPrice(m *measured) float64 {
	for _, kind := range []string{kindVerify, kindSkeleton, kindCompile} {
		if _, price := warmFit(m.points[kind], 0); price > 0 {
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

// project scales the measured unit costs to the paper's evaluation.
func project(m *measured, p PaperScale, run *costRun, cores []int, overheadMS float64) *Projection {
	pr := &Projection{Args: run.args, MeasuredCPUSeconds: map[string]float64{}, CPUHours: map[string]float64{},
		BesideCPUHours: map[string]float64{}, Goal: fmt.Sprintf("< %g CPU-hours (LLM generation apart)", CPUGoal),
		Assumptions: projectionAssumptions(p)}
	for stage, d := range run.stageCPU {
		pr.MeasuredCPUSeconds[stage] = round2(d.Seconds())
	}
	pairs := atMixFit(m, kindO1Pairs, p.KeptMix)
	if len(m.points[kindO1Neq]) == 0 && len(m.points[kindO1Eq]) > 0 {
		m.points[kindO1Neq] = m.points[kindO1Eq]
		pr.Assumptions = append(pr.Assumptions, "o1: no non-equivalent pair was measured; those pairs are costed as equivalent ones (a full campaign)")
	}
	shared := startPrice(m)
	row := func(kind, stage, unit, size string, units float64, mix []SizeShare, x *float64, beside bool) {
		ps := m.points[kind]
		f, perStart := warmFit(ps, shared)
		per := 0.0
		if x != nil {
			per = max(f.At(*x), 0)
		} else {
			per = atMix(f, mix)
		}
		c := StageCost{Stage: stage, Unit: unit, Size: size, Measured: len(ps), MeanCPU: round4(meanY(ps)), Fit: roundFit(f),
			PerUnit: round4(per), Units: math.Round(units), Beside: beside}
		if perStart > 0 && kind != kindRepair {
			c.StartCPU = round4(perStart)
			c.WorkerStarts = min(units, p.WorkerStarts())
		}
		c.CPUHours = round4((per*units + c.StartCPU*c.WorkerStarts) / 3600)
		pr.Stages = append(pr.Stages, c)
		if len(ps) == 0 {
			pr.Assumptions = append(pr.Assumptions, fmt.Sprintf("%s (%s): not measured, costed 0", stage, unit))
		}
		if beside {
			pr.BesideCPUHours[stage] += c.CPUHours
		} else {
			pr.CPUHours[stage] += c.CPUHours
		}
	}
	fns, o2x := "non-trivial functions", float64(p.O2Txs)
	row(kindCrawl, "crawl", "candidate", fns, float64(p.Crawled), p.CrawledMix, nil, false)
	row(kindVerify, "verify", "candidate", fns, float64(p.Crawled), p.CrawledMix, nil, false)
	row(kindSkeleton, "skeleton", "kept contract", fns, float64(p.Kept), p.KeptMix, nil, false)
	row(kindCompile, "compile", "sample", fns, p.Samples(), p.KeptMix, nil, false)
	m.points[kindRepair] = m.points[kindCompile] // a repair is one more compile of the sample
	row(kindRepair, "repair", "sample not compiling raw (its recompile)", fns, p.Repairs(), p.KeptMix, nil, false)
	row(kindO1Eq, "o1", "equivalent function pair", fns, p.Compiling()*pairs*p.Equivalent, p.KeptMix, nil, false)
	row(kindO1Neq, "o1", "non-equivalent function pair", fns, p.Compiling()*pairs*(1-p.Equivalent), p.KeptMix, nil, false)
	row(kindO2, "o2", "compiling sample", "replayed transactions", p.Compiling(), nil, &o2x, false)
	row(kindDCR, "dcr", "kept contract and extractor (LLM apart: the static extractor's CPU)", fns, float64(p.Kept*p.Models), p.KeptMix, nil, false)
	row(kindSequences, "sequences", "kept contract and extractor (Algorithm 1, T = 1,000)", fns, float64(p.Kept*p.Models), p.KeptMix, nil, false)
	row(kindO3, "o3", "compiling sample and graph setting", fns, p.Compiling()*float64(p.O3Settings), p.KeptMix, nil, false)
	row(kindVuln, "vuln", "original or compiling sample", fns, float64(p.Kept)+p.Compiling(), p.KeptMix, nil, true)
	for _, h := range pr.CPUHours {
		pr.TotalCPUHours += h
	}
	pr.TotalCPUHours = round4(pr.TotalCPUHours)
	pr.Met = pr.TotalCPUHours < CPUGoal
	pr.SetWall(cores, overheadMS)
	return pr
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

func atMixFit(m *measured, kind string, mix []SizeShare) float64 {
	return atMix(fitLine(m.points[kind]), mix)
}

func projectionAssumptions(p PaperScale) []string {
	return []string{
		fmt.Sprintf("scale: %d candidates crawled and verified, %d kept, %d models x k = %d (%.0f samples), one repair pass for the %.0f samples not compiling raw (Table I), %.0f compiling samples reach the oracles",
			p.Crawled, p.Kept, p.Models, p.K, p.Samples(), p.Repairs(), p.Compiling()),
		fmt.Sprintf("O1: fuzzable function pairs per compiling sample fitted on the measured samples; %.1f%% of them equivalent (paper), the rest non-equivalent, each at its measured cost", 100*p.Equivalent),
		fmt.Sprintf("O2: every kept contract replays its first %d transactions (the budget); O3: %d graph settings per sample (fixed and matched, §V-D), T = 1,000", p.O2Txs, p.O3Settings),
		"sizes: costs fitted against contracts.n_nontrivial_functions of the measured contracts and evaluated at Figure 2's distribution (crawled for crawl and verify, kept for the rest; buckets at their middle, 11-20 at the median 16, 31+ at 40)",
		"LLM work is apart: generation, repair requests, NatSpec and DCR extraction replies; our side of it (compiles, graph parsing) is costed, the samples are mutants",
		"per-sample costs of o2 and o3 are unit CPU / compiling samples of the contract, so the original's replay is amortized over k samples here and over ~40 (7 models) in the paper: an overestimate",
		"o1 pair costs split each unit's CPU over its pairs in proportion to their wall time; pairs that ran no campaign (undeployed, same_code) are left out, so every equivalent pair is costed as a full campaign; vuln runs at its default budget, beside the total (our extension)",
		"CPU is user + system time of this process and its children (the Node solc workers) around each unit, one unit at a time: the machine's load does not change it",
		fmt.Sprintf("solc worker starts are priced apart (their CPU beyond a warm unit's, measured on the units that started one): the runner keeps each job on one compiler while its units last, so a compiling stage starts about one worker per compiler version and job, here %d versions + %d jobs", p.Compilers, p.Jobs),
	}
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

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
func round2(v float64) float64 { return math.Round(v*100) / 100 }

func roundFit(f Fit) Fit {
	return Fit{Intercept: round4(f.Intercept), Slope: round4(f.Slope), R2: round4(f.R2), MinSize: f.MinSize, MaxSize: f.MaxSize}
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
