package projection

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
)

// Unit is one measured unit: a row of the units dataset.
type Unit struct {
	Stage, ID, Contract, Model string
	CPU                        float64 // seconds
	Starts                     float64 // solc workers started (its share)
	Youth                      float64 // their youth (units.solc_youth)
}

// Measured is what a projection reads of a warehouse: every unit cost as a
// point (size, CPU s) per kind, and what the run was like (how many
// candidates, kept contracts, samples; compile and equivalence rates), so a
// target "like this run" can be scaled from it.
type Measured struct {
	Units     []Unit
	functions map[string]float64  // contract -> non-trivial functions (chain count)
	points    map[string][]point  // kind -> (size, CPU s) per unit
	owners    map[string][]string // kind -> the contract of each point (the bootstrap resamples contracts)
	// perCompile says some compile unit's points are one compile each (its
	// samples record their workers' age), not one per unit and outcome.
	perCompile bool
	Run        RunShape
}

// RunShape is the measured run's composition.
type RunShape struct {
	Candidates, Kept, Models int
	K                        float64   // samples per kept contract and model
	RawCompile, Repaired     float64   // pooled over models and samples
	Equivalent               float64   // compiling function pairs equivalent (pooled; campaigns only)
	O2Txs                    float64   // mean replayed transactions per contract O2 ran on
	O3Settings               float64   // mean graph settings a compiling sample is replayed on
	Compilers                int       // distinct compilers among the candidates
	CrawledSizes, KeptSizes  []float64 // non-trivial functions of each candidate, of each kept contract
	Jobs                     int       // the run's --jobs (max over units)
}

// Read reads a warehouse's units and rows through its views (`units`,
// `contracts`, `samples`, `fuzz_results`, `replay_calls`).
func Read(ctx context.Context, db *sql.DB) (*Measured, error) {
	m := &Measured{functions: map[string]float64{}, points: map[string][]point{}, owners: map[string][]string{}}
	for _, step := range []func(context.Context, *sql.DB) error{m.readUnits, m.readContracts, m.readSamples} {
		if err := step(ctx, db); err != nil {
			return nil, err
		}
	}
	if len(m.Units) == 0 {
		return nil, fmt.Errorf("projection: the warehouse records no unit costs (units made before costs were recorded? run the stages again with --force)")
	}
	compiling, err := m.compilingSamples(ctx, db)
	if err != nil {
		return nil, err
	}
	m.addStageUnits()
	if err := m.addCompiles(ctx, db); err != nil {
		return nil, err
	}
	if err := m.addReplays(ctx, db, compiling); err != nil {
		return nil, err
	}
	return m, m.addPairs(ctx, db)
}

func (m *Measured) readUnits(ctx context.Context, db *sql.DB) error {
	// A warehouse from before solc_youth was recorded has no such column in
	// its views, or NULL in it where views are built on today's schemas:
	// no youth, so no warm-up term.
	youth := "0"
	if has, err := hasColumn(ctx, db, "units", "solc_youth"); err != nil {
		return err
	} else if has {
		youth = "coalesce(solc_youth, 0)"
	}
	return query(ctx, db, `SELECT stage, unit, contract_id, model, cpu_ms / 1000.0, solc_starts, `+youth+`, jobs FROM units
		WHERE stage <> 'report' AND (cpu_ms > 0 OR wall_ms > 0) ORDER BY stage, unit`, func(r *sql.Rows) error {
		var u Unit
		var jobs int
		if err := r.Scan(&u.Stage, &u.ID, &u.Contract, &u.Model, &u.CPU, &u.Starts, &u.Youth, &jobs); err != nil {
			return err
		}
		m.Units = append(m.Units, u)
		m.Run.Jobs = max(m.Run.Jobs, jobs)
		return nil
	})
}

func (m *Measured) readContracts(ctx context.Context, db *sql.DB) error {
	compilers := map[string]bool{}
	err := query(ctx, db, `SELECT contract_id, n_nontrivial_functions, kept, compiler_requested FROM contracts ORDER BY contract_id`, func(r *sql.Rows) error {
		var id, compiler string
		var n float64
		var kept bool
		if err := r.Scan(&id, &n, &kept, &compiler); err != nil {
			return err
		}
		m.functions[id] = n
		m.Run.Candidates++
		m.Run.CrawledSizes = append(m.Run.CrawledSizes, n)
		compilers[compiler] = true
		if kept {
			m.Run.Kept++
			m.Run.KeptSizes = append(m.Run.KeptSizes, n)
		}
		return nil
	})
	m.Run.Compilers = len(compilers)
	return err
}

func (m *Measured) readSamples(ctx context.Context, db *sql.DB) error {
	return query(ctx, db, `SELECT count(DISTINCT model), count(*), count(DISTINCT contract_id || '/' || model),
		coalesce(avg(CAST(compiled_raw AS DOUBLE) ORDER BY compiled_raw), 0), coalesce(avg(CAST(compiled_repaired AS DOUBLE) ORDER BY compiled_repaired), 0)
		FROM samples WHERE NOT ablation`, func(r *sql.Rows) error {
		var samples, units float64
		if err := r.Scan(&m.Run.Models, &samples, &units, &m.Run.RawCompile, &m.Run.Repaired); err != nil {
			return err
		}
		if units > 0 {
			m.Run.K = samples / units
		}
		return nil
	})
}

// compilingSamples counts, per contract, the samples that compile after repair
// (the oracles' subjects), and per contract/model the samples generated.
func (m *Measured) compilingSamples(ctx context.Context, db *sql.DB) (map[string]float64, error) {
	out := map[string]float64{}
	err := query(ctx, db, `SELECT contract_id, count(DISTINCT model || '/' || sample) FROM samples
		WHERE compiled_repaired AND artifact <> '' AND NOT ablation GROUP BY contract_id`, func(r *sql.Rows) error {
		var c string
		var n float64
		if err := r.Scan(&c, &n); err != nil {
			return err
		}
		out[c] = n
		return nil
	})
	return out, err
}

// addStageUnits turns the units of the stages costed per unit into points.
func (m *Measured) addStageUnits() {
	for _, u := range m.Units {
		x := m.functions[u.Contract]
		switch u.Stage {
		case "crawl", "verify", "skeleton", "dcr", "sequences":
			m.addPoint(u.Stage, u.Contract, point{x, u.CPU, u.Starts, u.Youth})
		case "vuln": // an original's unit costs as a sample's
			m.addPoint(kindVuln, u.Contract, point{x, u.CPU, u.Starts, u.Youth})
		}
	}
}

// addCompiles prices a compile that succeeds apart from one that fails: a
// sample that does not compile stops solc before code generation, at a
// fraction of the cost. Samples no compiler ran on (a failed generation)
// are left out. A compile unit (contract and model) compiles its samples
// one after another, each raw and, when repaired, once more; its CPU is
// split over those compiles in proportion to their wall time
// (samples.compile_ms, recompile_ms; +1 ms each, so a warehouse from before
// they were recorded splits evenly). Where the samples record their
// workers' age (compile_solc_starts, compile_solc_youth, ...), each compile
// is a point with its own starts and youth, as a verify unit is, so the
// fits price a warm compile and the warm-up apart; a warehouse from before
// them gets a point per unit and outcome, the mean of its compiles, with
// the unit's starts split like its CPU and no youth.
func (m *Measured) addCompiles(ctx context.Context, db *sql.DB) error {
	hasAges, err := hasColumn(ctx, db, "samples", "compile_solc_youth")
	if err != nil {
		return err
	}
	// Parts from before the ages were recorded read NULL in today's views.
	ages := "false, 0, 0, 0, 0"
	if hasAges {
		ages = `compile_solc_starts IS NOT NULL, coalesce(compile_solc_starts, 0), coalesce(compile_solc_youth, 0),
			coalesce(recompile_solc_starts, 0), coalesce(recompile_solc_youth, 0)`
	}
	byUnit := map[string]*compileShare{}
	err = query(ctx, db, `SELECT contract_id || '/' || model, compiled_raw, coalesce(compile_ms, 0),
		compiled_repaired, coalesce(recompile_ms, 0), `+ages+` FROM samples WHERE compiler_used <> '' ORDER BY ALL`, func(r *sql.Rows) error {
		var unit string
		var aged bool
		var raw, re compileRun
		if err := r.Scan(&unit, &raw.ok, &raw.ms, &re.ok, &re.ms, &aged, &raw.starts, &raw.youth, &re.starts, &re.youth); err != nil {
			return err
		}
		s := byUnit[unit]
		if s == nil {
			s = &compileShare{aged: true}
			byUnit[unit] = s
		}
		s.aged = s.aged && aged
		s.runs = append(s.runs, raw)
		if re.ms > 0 { // the repaired sample was compiled
			s.runs = append(s.runs, re)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, u := range m.Units {
		if s := byUnit[u.ID]; u.Stage == "compile" && s != nil {
			m.addCompileUnit(u, s)
			m.perCompile = m.perCompile || s.aged
		}
	}
	return nil
}

// addCompileUnit adds one compile unit's points: one per compile, or with
// unaged samples one per outcome.
func (m *Measured) addCompileUnit(u Unit, s *compileShare) {
	x, total := m.functions[u.Contract], 0.0
	ms, n := map[bool]float64{}, map[bool]float64{}
	for _, c := range s.runs {
		total += c.ms + 1
		ms[c.ok], n[c.ok] = ms[c.ok]+c.ms+1, n[c.ok]+1
	}
	kind := map[bool]string{true: kindCompile, false: kindCompileFail}
	if s.aged {
		for _, c := range s.runs {
			m.addPoint(kind[c.ok], u.Contract, point{x, u.CPU * (c.ms + 1) / total, c.starts, c.youth})
		}
		return
	}
	for _, ok := range []bool{true, false} {
		if n[ok] > 0 {
			f := ms[ok] / total / n[ok]
			m.addPoint(kind[ok], u.Contract, point{x, u.CPU * f, u.Starts * f, 0})
		}
	}
}

// compileRun is one compile of a sample: its outcome, wall ms, and the
// workers' starts and youth it recorded.
type compileRun struct {
	ok                bool
	ms, starts, youth float64
}

// compileShare is one compile unit's compiles, in sample order.
type compileShare struct {
	runs []compileRun
	aged bool // every sample recorded its workers' age
}

// addReplays adds O2's and O3's points: each contract's replay CPU (the
// original's units and every model's) per compiling sample, and per graph
// setting for O3; O2's size is the transactions it replayed.
func (m *Measured) addReplays(ctx context.Context, db *sql.DB, compiling map[string]float64) error {
	txs, settings := map[string]float64{}, map[string]float64{}
	err := query(ctx, db, `SELECT contract_id, oracle, count(DISTINCT step) FILTER (WHERE oracle = 'O2'),
		count(DISTINCT model || '/' || sample || '/' || graph_setting) FILTER (WHERE oracle = 'O3')
		FROM replay_calls WHERE oracle IN ('O2', 'O3') GROUP BY contract_id, oracle`, func(r *sql.Rows) error {
		var c, oracle string
		var n2, n3 float64
		if err := r.Scan(&c, &oracle, &n2, &n3); err != nil {
			return err
		}
		if oracle == "O2" {
			txs[c] = n2
		} else {
			settings[c] = n3 // sample replays, one per compiling sample and setting
		}
		return nil
	})
	if err != nil {
		return err
	}
	cpu := map[string]float64{}
	for _, u := range m.Units {
		if u.Stage == "o2" || u.Stage == "o3" {
			cpu[u.Stage+" "+u.Contract] += u.CPU
		}
	}
	var sumTxs, nTxs, sumSet, nSet float64
	for _, c := range slices.Sorted(maps.Keys(compiling)) {
		if n := compiling[c]; n > 0 && txs[c] > 0 {
			m.add(kindO2, c, txs[c], cpu["o2 "+c]/n)
			sumTxs, nTxs = sumTxs+txs[c], nTxs+1
		}
		if replays := settings[c]; replays > 0 {
			m.add(kindO3, c, m.functions[c], cpu["o3 "+c]/replays)
			sumSet, nSet = sumSet+replays/compiling[c], nSet+1
		}
	}
	if nTxs > 0 {
		m.Run.O2Txs = sumTxs / nTxs
	}
	if nSet > 0 {
		m.Run.O3Settings = sumSet / nSet
	}
	return nil
}

// addPairs splits each O1 unit's CPU over its function pairs in proportion
// to their wall time (the unit runs them one after another on one
// goroutine), and counts the fuzzable pairs per sample.
func (m *Measured) addPairs(ctx context.Context, db *sql.DB) error {
	type pair struct {
		sample     int64
		elapsed    float64
		equivalent bool
		campaign   bool
	}
	byUnit := map[string][]pair{}
	err := query(ctx, db, `SELECT contract_id || '/' || model, sample, elapsed_ms, equivalent,
		stop_reason NOT IN ('undeployed', 'same_code') AND error = '' FROM fuzz_results ORDER BY ALL`, func(r *sql.Rows) error {
		var unit string
		var p pair
		if err := r.Scan(&unit, &p.sample, &p.elapsed, &p.equivalent, &p.campaign); err != nil {
			return err
		}
		byUnit[unit] = append(byUnit[unit], p)
		return nil
	})
	if err != nil {
		return err
	}
	var equivalent, campaigns float64
	for _, u := range m.Units {
		if u.Stage != "o1" {
			continue
		}
		pairs := byUnit[u.ID]
		perSample := map[int64]float64{}
		total := 0.0
		for _, p := range pairs {
			total += p.elapsed + 1
			perSample[p.sample]++
		}
		for _, k := range slices.Sorted(maps.Keys(perSample)) {
			m.add(kindO1Pairs, u.Contract, m.functions[u.Contract], perSample[k])
		}
		for _, p := range pairs {
			if !p.campaign {
				continue // no campaign ran: a model's equivalent pair is costed as a full campaign
			}
			kind := kindO1Neq
			if p.equivalent {
				kind, equivalent = kindO1Eq, equivalent+1
			}
			campaigns++
			m.add(kind, u.Contract, m.functions[u.Contract], u.CPU*(p.elapsed+1)/total)
		}
	}
	if campaigns > 0 {
		m.Run.Equivalent = equivalent / campaigns
	}
	return nil
}

func (m *Measured) add(kind, contract string, x, y float64) {
	m.addPoint(kind, contract, point{x: x, y: y})
}

func (m *Measured) addPoint(kind, contract string, p point) {
	m.points[kind] = append(m.points[kind], p)
	m.owners[kind] = append(m.owners[kind], contract)
}

// hasColumn says whether a view or table has a column.
func hasColumn(ctx context.Context, db *sql.DB, table, column string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.columns WHERE table_name = ? AND column_name = ?`, table, column).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("projection: %w", err)
	}
	return n > 0, nil
}

// query runs q and calls each for every row.
func query(ctx context.Context, db *sql.DB, q string, each func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("projection: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return fmt.Errorf("projection: %w", err)
		}
	}
	return rows.Err()
}
