package projection

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// writeRows writes one part of a dataset (partitioned by contract where the
// dataset is).
func writeRows[T any](t *testing.T, w *warehouse.Warehouse, d schemas.Table[T], contract string, rows ...T) {
	t.Helper()
	var parts []warehouse.Partition
	if contract != "" {
		parts = warehouse.ByContract(contract)
	}
	if err := warehouse.Write(w.Path(d.Name(), parts, "t"), rows); err != nil {
		t.Fatal(err)
	}
}

// readWarehouse is a small warehouse whose points are known: one kept
// contract c (4 functions) of two candidates, model m with two compiling
// samples; its O1 unit ran one campaign and one same_code pair, its O2
// replayed 10 transactions (the original's unit and the model's), its O3
// one graph setting.
func readWarehouse(t *testing.T) *Measured {
	t.Helper()
	w := warehouse.New(t.TempDir())
	unit := func(stage, id, model string, cpuMS int64) schemas.UnitRow {
		return schemas.UnitRow{Stage: stage, Unit: id, ContractID: "c", Model: model, CPUMS: cpuMS, WallMS: cpuMS, Jobs: 1}
	}
	writeRows(t, w, schemas.Units, "",
		unit("verify", "c", "", 1000), unit("verify", "d", "", 3000),
		unit("compile", "c/m", "m", 800),
		unit("o1", "c/m", "m", 2000),
		unit("o2", "c", "", 500), unit("o2", "c/m", "m", 1500),
		unit("o3", "c/paper", "", 200), unit("o3", "c/paper/m", "m", 600),
		unit("report", "report", "", 9000))
	writeRows(t, w, schemas.Contracts, "c", schemas.Contract{ContractID: "c", NNontrivialFunctions: 4, Kept: true, CompilerRequested: "v0.8.20"})
	writeRows(t, w, schemas.Contracts, "d", schemas.Contract{ContractID: "d", NNontrivialFunctions: 9, CompilerRequested: "v0.4.24"})
	sample := func(k int64) schemas.Sample {
		return schemas.Sample{ContractID: "c", Model: "m", Sample: k, CompiledRaw: true, CompiledRepaired: true, Artifact: "a",
			CompilerUsed: "0.8.20", CompileMS: 300}
	}
	writeRows(t, w, schemas.Samples, "c", sample(0), sample(1))
	writeRows(t, w, schemas.FuzzResults, "c",
		schemas.FuzzResult{ContractID: "c", Model: "m", Sample: 0, Equivalent: true, ElapsedMS: 999, StopReason: "budget"},
		schemas.FuzzResult{ContractID: "c", Model: "m", Sample: 1, Equivalent: true, ElapsedMS: 0, StopReason: schemas.StopSameCode})
	var calls []schemas.ReplayCall
	for k := range int64(2) {
		for step := range int64(10) {
			calls = append(calls, schemas.ReplayCall{ContractID: "c", Model: "m", Sample: k, Oracle: schemas.OracleO2, Step: step})
		}
		calls = append(calls, schemas.ReplayCall{ContractID: "c", Model: "m", Sample: k, Oracle: schemas.OracleO3, GraphSetting: "fixed"})
	}
	writeRows(t, w, schemas.ReplayCalls, "c", calls...)
	return readMeasured(t, w)
}

// readMeasured reads a test warehouse as a projection does.
func readMeasured(t *testing.T, w *warehouse.Warehouse) *Measured {
	t.Helper()
	db, err := views.OpenDatasetsInMemory(w.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, err := Read(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReadTurnsUnitsIntoPoints(t *testing.T) {
	m := readWarehouse(t)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	// A same_code pair ran no campaign: its near-zero share of the unit's CPU
	// must not pass for what an equivalent pair of a model's sample costs.
	if eq := m.points[kindO1Eq]; len(eq) != 1 {
		t.Fatalf("equivalent pairs %+v, want one campaign", eq)
	}
	near("o1 equivalent pair CPU", m.points[kindO1Eq][0].y, 2*1000.0/1001)
	near("o2 point (10 txs): the contract's replay CPU per compiling sample", m.points[kindO2][0].y, (0.5+1.5)/2)
	near("o2 size", m.points[kindO2][0].x, 10)
	near("o3 point: per sample and setting", m.points[kindO3][0].y, (0.2+0.6)/2)
	near("compile point: one sample's", m.points[kindCompile][0].y, 0.8/2)
	if v := m.points[kindVerify]; len(v) != 2 {
		t.Errorf("verify points %+v, want one per candidate", v)
	}
	r := m.Run
	if r.Candidates != 2 || r.Kept != 1 || r.Models != 1 || r.K != 2 || r.Compilers != 2 || r.Equivalent != 1 || r.O2Txs != 10 || r.O3Settings != 1 {
		t.Errorf("run shape %+v", r)
	}
	for _, u := range m.Units {
		if u.Stage == "report" {
			t.Error("the report's unit is not an evaluation cost")
		}
	}
}

// oldSample is schemas.Sample before the samples recorded their workers'
// age (compile_solc_starts and the rest), the columns the projection reads.
type oldSample struct {
	ContractID       string `parquet:"contract_id"`
	Model            string `parquet:"model"`
	Sample           int64  `parquet:"sample"`
	CompiledRaw      bool   `parquet:"compiled_raw"`
	RepairAttempted  bool   `parquet:"repair_attempted"`
	CompiledRepaired bool   `parquet:"compiled_repaired"`
	Error            string `parquet:"error"`
	CompilerUsed     string `parquet:"compiler_used"`
	CompileMS        int64  `parquet:"compile_ms"`
	RecompileMS      int64  `parquet:"recompile_ms"`
}

// compileUnitOf writes one compile unit (1 CPU-s, one worker start) and its
// samples: sample 0 compiles raw, sample 1 fails raw and after its repair,
// sample 2 fails raw and compiles repaired, sample 3 was never generated.
// Each sample's workers' age is recorded unless old.
func compileUnitOf(t *testing.T, old bool) *warehouse.Warehouse {
	w := warehouse.New(t.TempDir())
	writeRows(t, w, schemas.Units, "", schemas.UnitRow{Stage: "compile", Unit: "c/m", ContractID: "c", Model: "m", CPUMS: 1000, WallMS: 1000, Jobs: 1, SolcStarts: 1, SolcYouth: 2})
	writeRows(t, w, schemas.Contracts, "c", schemas.Contract{ContractID: "c", NNontrivialFunctions: 4, Kept: true, CompilerRequested: "v0.8.20"})
	rows := []schemas.Sample{
		{ContractID: "c", Model: "m", Sample: 0, CompiledRaw: true, CompiledRepaired: true, CompilerUsed: "0.8.20", CompileMS: 599, CompileSolcStarts: 1},
		{ContractID: "c", Model: "m", Sample: 1, RepairAttempted: true, CompilerUsed: "0.8.20", CompileMS: 99, RecompileMS: 99,
			CompileSolcYouth: 1, RecompileSolcYouth: 0.5},
		{ContractID: "c", Model: "m", Sample: 2, RepairAttempted: true, CompiledRepaired: true, CompilerUsed: "0.8.20", CompileMS: 99, RecompileMS: 599,
			CompileSolcYouth: 1.0 / 3, RecompileSolcYouth: 0.25},
		{ContractID: "c", Model: "m", Sample: 3, Error: "nothing was generated"}}
	if !old {
		writeRows(t, w, schemas.Samples, "c", rows...)
		return w
	}
	var olds []oldSample
	for _, r := range rows {
		olds = append(olds, oldSample{r.ContractID, r.Model, r.Sample, r.CompiledRaw, r.RepairAttempted, r.CompiledRepaired, r.Error, r.CompilerUsed, r.CompileMS, r.RecompileMS})
	}
	if err := warehouse.Write(w.Path(schemas.Samples.Name(), warehouse.ByContract("c"), "t"), olds); err != nil {
		t.Fatal(err)
	}
	return w
}

// Where the samples record their workers' age, each compile is a point:
// its share of the unit's CPU by wall time, and its own starts and youth.
func TestEachCompileIsAPoint(t *testing.T) {
	m := readMeasured(t, compileUnitOf(t, false))
	ok, fail := m.points[kindCompile], m.points[kindCompileFail]
	// Weights (ms + 1): succeeding 600 + 600, failing 100 x 3; 1,500 in all.
	wantOK := []point{{4, 0.4, 0, 0.25}, {4, 0.4, 1, 0}} // in the query's order: sample 2's repair, sample 0
	wantFail := []point{{4, 0.1 / 1.5, 0, 1}, {4, 0.1 / 1.5, 0, 0.5}, {4, 0.1 / 1.5, 0, 1.0 / 3}}
	same := func(a, b []point) bool {
		return slices.EqualFunc(a, b, func(p, q point) bool {
			return p.x == q.x && math.Abs(p.y-q.y) < 1e-9 && p.starts == q.starts && math.Abs(p.youth-q.youth) < 1e-9
		})
	}
	if !same(ok, wantOK) || !same(fail, wantFail) {
		t.Errorf("points: compiling %+v, failing %+v; want %+v and %+v", ok, fail, wantOK, wantFail)
	}
	if !m.perCompile || m.unitCounts()[kindCompile] != 1 || m.unitCounts()[kindCompileFail] != 1 {
		t.Errorf("per compile %v, units %v: the floor counts the one contract", m.perCompile, m.unitCounts())
	}
}

// A compile unit's CPU is split over its compiles by their wall time: a
// failing compile (sample 1 as generated, and its repair) is priced apart
// from one that succeeds (sample 0, and sample 2's repair); a sample no
// compiler ran on (a failed generation) has no share. Samples from before
// their workers' age was recorded give one point per unit and outcome.
func TestFailingCompilesArePricedApart(t *testing.T) {
	m := readMeasured(t, compileUnitOf(t, true))
	ok, fail := m.points[kindCompile], m.points[kindCompileFail]
	if len(ok) != 1 || len(fail) != 1 || m.perCompile {
		t.Fatalf("points: compiling %+v, failing %+v: want one each for the unit", ok, fail)
	}
	// Weights (ms + 1): succeeding 600 + 600, failing 100 x 3; 1,500 in all.
	if math.Abs(ok[0].y-1.0*1200/1500/2) > 1e-9 || math.Abs(fail[0].y-1.0*300/1500/3) > 1e-9 {
		t.Errorf("per compile: succeeding %v s, failing %v s; want 0.4 and 0.0667", ok[0].y, fail[0].y)
	}
	if math.Abs(ok[0].starts-0.8/2) > 1e-9 || math.Abs(fail[0].starts-0.2/3) > 1e-9 {
		t.Errorf("the unit's worker start is split likewise: %v + %v", ok[0].starts, fail[0].starts)
	}
	if ok[0].youth != 0 || fail[0].youth != 0 {
		t.Errorf("youth %v + %v: a point averaging a unit's compiles has none", ok[0].youth, fail[0].youth)
	}
	// The paper's scale: half the samples fail raw, most repairs fail again;
	// each is priced as what it is, not as a full compile.
	e := estimate(m.points, Paper, nil)
	failing := Paper.Samples() - Paper.CompilingRaw() + Paper.Repairs() - (Paper.Compiling() - Paper.CompilingRaw())
	want := (fail[0].y*failing + ok[0].y*Paper.Compiling()) / 3600
	if got := e.hours["compile"] + e.hours["repair"]; math.Abs(got-want) > 0.01 {
		t.Errorf("compile + repair %v CPU-hours, want %v (starts aside)", got, want)
	}
	for _, n := range e.notes {
		if strings.Contains(n, "no failing compile") {
			t.Errorf("failing compiles were measured, yet: %s", n)
		}
	}
}

// A run like the measured one, twice the size: the counts scale, the rates
// and sizes stay the measured run's.
func TestLikeRunScalesTheMeasuredRun(t *testing.T) {
	m := readWarehouse(t)
	s := LikeRun(m, Target{Candidates: 4, K: 10})
	if s.Crawled != 4 || s.Kept != 2 || s.Models != 1 || s.K != 10 || s.Samples() != 20 || s.Compiling() != 20 || s.Repairs() != 0 {
		t.Errorf("scale %+v: samples %v compiling %v repairs %v", s, s.Samples(), s.Compiling(), s.Repairs())
	}
	if len(s.KeptMix) != 1 || s.KeptMix[0].Functions != 4 || s.Compilers != 4 {
		t.Errorf("kept mix %+v, compilers %d", s.KeptMix, s.Compilers)
	}
	p := Project(m, s, Options{Seed: 42, Resamples: 50})
	if p.Goal != "" || len(p.TooFew) == 0 {
		t.Errorf("a run like the measured one has no goal (%q) and too few units here (%v)", p.Goal, p.TooFew)
	}
	if !slices.ContainsFunc(p.Assumptions, func(a string) bool { return strings.Contains(a, "no failing compile was measured") }) {
		t.Errorf("every sample compiled, yet no assumption says how a failing one is priced: %q", p.Assumptions)
	}
}

// A warehouse from before units.solc_youth was recorded still projects:
// its units read with no youth, so no fit takes a warm-up term.
func TestUnitsWithoutYouthRead(t *testing.T) {
	type oldUnit struct { // schemas.UnitRow before solc_youth
		Stage      string  `parquet:"stage"`
		Unit       string  `parquet:"unit"`
		ContractID string  `parquet:"contract_id"`
		Model      string  `parquet:"model"`
		Version    string  `parquet:"version"`
		WallMS     int64   `parquet:"wall_ms"`
		CPUMS      int64   `parquet:"cpu_ms"`
		SolcStarts float64 `parquet:"solc_starts"`
		Jobs       int64   `parquet:"jobs"`
	}
	w := warehouse.New(t.TempDir())
	if err := warehouse.Write(w.Path(schemas.Units.Name(), nil, "t"), []oldUnit{
		{Stage: "verify", Unit: "c", ContractID: "c", CPUMS: 1500, WallMS: 1500, SolcStarts: 1, Jobs: 1},
		{Stage: "verify", Unit: "d", ContractID: "d", CPUMS: 500, WallMS: 500, Jobs: 1},
	}); err != nil {
		t.Fatal(err)
	}
	writeRows(t, w, schemas.Contracts, "c", schemas.Contract{ContractID: "c", NNontrivialFunctions: 4, Kept: true, CompilerRequested: "v0.8.20"})
	writeRows(t, w, schemas.Contracts, "d", schemas.Contract{ContractID: "d", NNontrivialFunctions: 9, CompilerRequested: "v0.8.20"})
	m := readMeasured(t, w)
	v := m.points[kindVerify]
	if len(v) != 2 || v[0].youth != 0 || v[1].youth != 0 || v[0].y+v[1].y != 2 {
		t.Errorf("verify points %+v: want two, CPU 1.5 and 0.5 s, no youth", v)
	}
}
