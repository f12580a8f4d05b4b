package bench

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/projection"
)

const demoCorpus = "../../../data/corpus/demo"

// TestSmoke runs the smoke bench (`make bench-smoke`) on two demo contracts
// and checks latest.json: its layout, that every figure names its unit and
// command, and that every engine (Hardhat included, unless it cannot be
// installed here) agrees with ours on every transaction's status.
func TestSmoke(t *testing.T) {
	cfg := Smoke()
	cfg.Corpus, cfg.Data = demoCorpus, t.TempDir()
	cfg.Only = []string{"Vault", "EtherLocker"} // one compiler (0.4.24): a single worker serves both
	cfg.Command = "go test ./cmd/solbehave/bench -run TestSmoke"
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadReport(ReportPath(cfg.Data))
	if err != nil {
		t.Fatal(err)
	}
	if got.Schema != SchemaVersion || got.Mode != "smoke" || len(got.Contracts) != 2 || len(got.Curve) == 0 {
		t.Fatalf("latest.json: schema %q mode %q, %d contracts, %d curve points", got.Schema, got.Mode, len(got.Contracts), len(got.Curve))
	}
	checkFigures(t, "total", got.Figures)
	for _, c := range got.Contracts {
		if c.Skipped != "" || c.Txs != cfg.Txs {
			t.Fatalf("%s: skipped %q, %d txs (want %d)", c.ID, c.Skipped, c.Txs, cfg.Txs)
		}
		checkFigures(t, c.ID, c.Figures)
	}
	want := []string{"replay.bare.tx_per_s", "replay.ours.tx_per_s", "replay.ours_coverage.tx_per_s", "replay.ours_o2engine.tx_per_s",
		"replay.ours_over_bare.overhead", "replay.ours_over_bare_cpu.overhead", "compile.persistent.compiles_per_s",
		"compile.spawn.compiles_per_s", "o2.e2e_s_per_contract", "samples.generate_compile_s_per_contract",
		"o3.e2e_s_per_contract", "o3.sequence_calls_per_s", "o3.contracts", "o1.call_pairs_per_s_per_core", "memory.peak_rss_bytes"}
	if rep.Machine.Hardhat != "" {
		want = append(want, "replay.hardhat.tx_per_s", "replay.ours_over_hardhat.ratio", "contracts.hardhat_replayed")
	} else {
		t.Logf("Hardhat left out (%s); its figures are not checked", strings.Join(got.Notes, "; "))
	}
	for _, name := range want {
		f, ok := got.Figure(name)
		if !ok || f.Value <= 0 {
			t.Errorf("figure %s: present %v, value %v", name, ok, f.Value)
		}
	}
	agree := []string{"status.ours_vs_bare.differences", "status.ours_vs_variants.differences"}
	if rep.Machine.Hardhat != "" {
		agree = append(agree, "status.ours_vs_hardhat.differences")
	}
	for _, name := range agree {
		if f, ok := got.Figure(name); !ok || f.Value != 0 {
			t.Errorf("%s = %v (present %v): engines disagree; findings: %+v", name, f.Value, ok, got.Findings)
		}
	}
	if f, _ := got.Figure("transactions.replayed"); f.Value != float64(2*cfg.Txs) {
		t.Errorf("transactions.replayed = %v, want %d", f.Value, 2*cfg.Txs)
	}
	checkProjection(t, got.Projection)
}

// checkProjection: the cost run measured every stage, and the projection
// costs each one in the total (vuln beside it) and adds them up.
func checkProjection(t *testing.T, p *projection.Projection) {
	t.Helper()
	if p == nil {
		t.Fatal("latest.json has no projection")
	}
	total := 0.0
	for _, stage := range []string{"crawl", "verify", "skeleton", "compile", "repair", "o1", "o2", "dcr", "sequences", "o3"} {
		if p.CPUHours[stage] <= 0 {
			t.Errorf("projection: %s costs %v CPU-hours", stage, p.CPUHours[stage])
		}
		total += p.CPUHours[stage]
	}
	if math.Abs(total-p.TotalCPUHours) > 1e-3 || p.BesideCPUHours["vuln"] <= 0 || p.CPUHours["vuln"] != 0 {
		t.Errorf("projection: total %v, stages add to %v; vuln %v beside, %v inside", p.TotalCPUHours, total, p.BesideCPUHours["vuln"], p.CPUHours["vuln"])
	}
	for _, c := range p.Stages {
		if c.Measured == 0 && c.Unit != "non-equivalent function pair" {
			t.Errorf("projection: %s (%s) was not measured", c.Stage, c.Unit)
		}
	}
	for _, stage := range []string{"verify", "compile", "o1", "o2", "o3", "vuln"} {
		if p.MeasuredCPUSeconds[stage] <= 0 {
			t.Errorf("cost run: %s took %v CPU-s", stage, p.MeasuredCPUSeconds[stage])
		}
	}
	if len(p.Wall) == 0 || p.Wall[0].Hours <= 0 {
		t.Errorf("projection: wall %+v", p.Wall)
	}
}

// checkFigures insists on a name, a unit and a command for every figure, and
// a median that is one of (or between) its runs.
func checkFigures(t *testing.T, where string, figs []Figure) {
	t.Helper()
	if len(figs) == 0 {
		t.Fatalf("%s: no figures", where)
	}
	seen := map[string]bool{}
	for _, f := range figs {
		if f.Name == "" || f.Unit == "" || f.Command == "" || seen[f.Name] {
			t.Errorf("%s: figure %+v lacks a name, unit or command, or repeats", where, f)
		}
		seen[f.Name] = true
		if len(f.Runs) > 0 && (f.Value < minOf(f.Runs) || f.Value > maxOf(f.Runs)) {
			t.Errorf("%s: %s = %v is not the median of %v", where, f.Name, f.Value, f.Runs)
		}
	}
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func TestMedianAndRatios(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median(3,1,2) = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median(4,1,3,2) = %v", m)
	}
	if m := median(nil); m != 0 {
		t.Errorf("median() = %v", m)
	}
	// Run by run, not median over median: (10/1, 20/4, 30/2) -> 5, 10, 15.
	if r := median(ratios([]float64{10, 20, 30}, []float64{1, 4, 2})); r != 10 {
		t.Errorf("median ratio = %v, want 10", r)
	}
	if r := ratios([]float64{1}, []float64{0}); len(r) != 0 {
		t.Errorf("a zero denominator must be skipped: %v", r)
	}
}

func TestHardforkAt(t *testing.T) {
	for _, c := range []struct {
		b    chain.Block
		want string
	}{
		{chain.Block{Number: 4_000_000, Time: 1_500_000_000}, "spuriousDragon"},
		{chain.Block{Number: 4_370_000, Time: 1_508_131_331}, "byzantium"},
		{chain.Block{Number: 7_280_000}, "petersburg"},
		{chain.Block{Number: 12_965_000}, "london"},
		{chain.Block{Number: 15_537_394, Time: 1_663_224_179}, "merge"},
		{chain.Block{Number: 17_034_870, Time: 1_681_338_455}, "shanghai"},
		{chain.Block{Number: 19_426_587, Time: 1_710_338_135}, "cancun"},
	} {
		if got := hardforkAt(c.b); got != c.want {
			t.Errorf("hardforkAt(%+v) = %s, want %s", c.b, got, c.want)
		}
	}
}

func TestHardhatForkClamps(t *testing.T) {
	if got := hardhatFork(chain.Block{Number: 4_000_000, Time: 1_500_000_000}); got != "byzantium" {
		t.Errorf("pre-Byzantium block: Hardhat fork %s, want byzantium", got)
	}
	if got := hardhatFork(chain.Block{Number: 12_965_000}); got != "london" {
		t.Errorf("London block: Hardhat fork %s, want london", got)
	}
}

func TestCurveSizes(t *testing.T) {
	for _, c := range []struct {
		want []int
		n    int
		out  string
	}{
		{nil, 44, "[10 20 30 40 44]"}, {nil, 10, "[10]"}, {nil, 2, "[2]"}, {[]int{10, 20, 30, 44}, 44, "[10 20 30 44]"},
		{[]int{5, 50}, 20, "[5 20]"}, {[]int{20, 10}, 30, "[20 30]"}, {nil, 0, "[]"},
	} {
		if got := fmt.Sprint(curveSizes(c.want, c.n)); got != c.out {
			t.Errorf("curveSizes(%v, %d) = %s, want %s", c.want, c.n, got, c.out)
		}
	}
}

// TestConfigErrors: bad settings are errors, never a panic or a silent run.
func TestConfigErrors(t *testing.T) {
	for name, mutate := range map[string]func(*Config){
		"no corpus":    func(c *Config) { c.Corpus = "" },
		"zero runs":    func(c *Config) { c.Runs = 0 },
		"zero txs":     func(c *Config) { c.Txs = 0 },
		"hardhat mode": func(c *Config) { c.Hardhat = "maybe" },
	} {
		cfg := Smoke()
		cfg.Corpus, cfg.Data = demoCorpus, t.TempDir()
		mutate(&cfg)
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	cfg := Smoke()
	cfg.Corpus, cfg.Data, cfg.Only = demoCorpus, t.TempDir(), []string{"NoSuchContract"}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "NoSuchContract") {
		t.Errorf("unknown contract: %v", err)
	}
	cfg.Only, cfg.Corpus = nil, filepath.Join(t.TempDir(), "missing")
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Error("missing corpus: no error")
	}
}
