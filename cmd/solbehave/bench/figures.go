package bench

import (
	"fmt"
	"time"
)

// figurer reduces raw measurements to figures.
type figurer struct {
	runs        int // of every replay, o2 and o1 measurement
	compileRuns int // spawned compiles per contract
	command     string
}

func (f figurer) fig(name, unit, method string, runs []float64) Figure {
	return Figure{Name: name, Value: median(runs), Unit: unit, Command: f.command, Method: method, Runs: runs}
}

func (f figurer) single(name, unit, method string, v float64) Figure {
	return Figure{Name: name, Value: v, Unit: unit, Command: f.command, Method: method}
}

func withGoal(fg Figure, goal string, met bool) Figure {
	fg.Goal, fg.Met = goal, &met
	return fg
}

// aggregate is every figure over a set of contracts (one for a contract's
// own figures).
func (f figurer) aggregate(crs []*contractRun) []Figure {
	var out []Figure
	out = append(out, f.replayFigures(crs)...)
	out = append(out, f.statusFigures(crs)...)
	out = append(out, f.compileFigures(crs)...)
	out = append(out, f.o2Figures(crs)...)
	out = append(out, f.o3Figures(crs)...)
	out = append(out, f.o1Figures(crs)...)
	return out
}

// replayTotals are, run by run, the transactions and time of an engine over
// the contracts that it and every engine alongside replayed.
func (f figurer) replayTotals(crs []*contractRun, engine string, alongside ...string) (txs int, times []timing) {
	times = make([]timing, f.runs)
	for _, cr := range crs {
		if !cr.replayed(engine, f.runs) || !allReplayed(cr, f.runs, alongside) {
			continue
		}
		txs += cr.Txs
		for r, t := range cr.Times[engine] {
			times[r].Wall += t.Wall
			times[r].CPU += t.CPU
		}
	}
	return txs, times
}

func allReplayed(cr *contractRun, runs int, engines []string) bool {
	for _, e := range engines {
		if !cr.replayed(e, runs) {
			return false
		}
	}
	return true
}

// clock picks one of a timing's clocks.
type clock struct {
	suffix, unit, what string
	of                 func(timing) time.Duration
}

var clocks = []clock{
	{"", "tx/s", "wall time", func(t timing) time.Duration { return t.Wall }},
	{"_cpu", "tx/cpu-s", "CPU time of the process (user+system, all threads)", func(t timing) time.Duration { return t.CPU }},
}

func (c clock) rates(txs int, times []timing) []float64 {
	if txs == 0 {
		return nil
	}
	out := make([]float64, len(times))
	for i, t := range times {
		out[i] = rate(txs, c.of(t))
	}
	return out
}

func (c clock) seconds(times []timing) []float64 {
	out := make([]float64, len(times))
	for i, t := range times {
		out[i] = c.of(t).Seconds()
	}
	return out
}

func (f figurer) replayFigures(crs []*contractRun) []Figure {
	var out []Figure
	for _, c := range clocks {
		method := fmt.Sprintf("replayed transactions / replay %s (fork or reset included, deployment not), over the contracts this engine replayed; median of %d runs", c.what, f.runs)
		for _, e := range append([]string{engineBare}, append(goEngines, engineHardhat)...) {
			if txs, times := f.replayTotals(crs, e); txs > 0 {
				out = append(out, f.fig("replay."+e+".tx_per"+c.suffix+"_s", c.unit, method, c.rates(txs, times)))
			}
		}
		for _, e := range goEngines {
			txs, ours := f.replayTotals(crs, e, engineHardhat)
			_, hh := f.replayTotals(crs, engineHardhat, e)
			if txs > 0 {
				fg := f.fig("replay."+e+"_over_hardhat"+c.suffix+".ratio", "x",
					"("+e+" rate) / (hardhat rate) by "+c.what+" on the same contracts, run by run; median", ratios(c.rates(txs, ours), c.rates(txs, hh)))
				out = append(out, withGoal(fg, ">= 10", fg.Value >= 10))
			}
			txs, ours = f.replayTotals(crs, e, engineBare)
			_, floor := f.replayTotals(crs, engineBare, e)
			if txs > 0 {
				fg := f.fig("replay."+e+"_over_bare"+c.suffix+".overhead", "x",
					"("+e+" replay "+c.what+") / (bare go-ethereum replay "+c.what+") on the same contracts, run by run; median", ratios(c.seconds(ours), c.seconds(floor)))
				out = append(out, withGoal(fg, "<= 2", fg.Value <= 2))
			}
		}
	}
	if startup, n := hardhatStartup(crs); n > 0 {
		out = append(out, f.single("replay.hardhat.startup_s", "s", "mean time for a Node process to load Hardhat and start EDR (not in the tx/s)", startup/float64(n)))
	}
	return out
}

func hardhatStartup(crs []*contractRun) (sum float64, n int) {
	for _, cr := range crs {
		if cr.HardhatStartup > 0 {
			sum += cr.HardhatStartup.Seconds()
			n++
		}
	}
	return sum, n
}

// statusFigures count the contracts and transactions compared and every
// status difference between engines.
func (f figurer) statusFigures(crs []*contractRun) []Figure {
	var total, replayed, hhReplayed, txs, hhTxs, vsHH, vsHHContracts, vsBare, vsOwn, vsMainnet, hhVsMainnet, gasDiff int
	for _, cr := range crs {
		total++
		if !cr.replayed(engineOurs, f.runs) {
			continue
		}
		replayed++
		txs += cr.Txs
		vsBare += len(cr.mismatches(engineOurs, engineBare))
		vsOwn += len(cr.mismatches(engineOurs, engineO2)) + len(cr.mismatches(engineOurs, engineCoverage))
		vsMainnet += len(cr.mismatches(engineOurs, engineMainnet))
		if cr.replayed(engineHardhat, f.runs) {
			hhReplayed++
			hhTxs += cr.Txs
			n := len(cr.mismatches(engineOurs, engineHardhat))
			vsHH += n
			if n > 0 {
				vsHHContracts++
			}
			hhVsMainnet += len(cr.mismatches(engineHardhat, engineMainnet))
			gasDiff += cr.gasDifferences()
		}
	}
	out := []Figure{
		f.single("contracts.total", "contracts", "corpus contracts attempted", float64(total)),
		f.single("contracts.replayed", "contracts", "compiled, deployed and replayed by ours and bare", float64(replayed)),
		f.single("contracts.hardhat_replayed", "contracts", "also deployed and replayed by Hardhat", float64(hhReplayed)),
		f.single("transactions.replayed", "tx", "historical transactions replayed per engine and run", float64(txs)),
		f.single("transactions.hardhat_replayed", "tx", "of them also replayed on Hardhat", float64(hhTxs)),
		withGoal(f.single("status.ours_vs_bare.differences", "tx", "transactions whose status differs between ours and bare go-ethereum", float64(vsBare)), "0", vsBare == 0),
		withGoal(f.single("status.ours_vs_variants.differences", "tx", "status differences of ours against its O2-engine and coverage variants", float64(vsOwn)), "0", vsOwn == 0),
		f.single("status.ours_vs_mainnet.differences", "tx", "transactions whose replayed status differs from mainnet's (reproducibility, not engine fidelity)", float64(vsMainnet)),
	}
	if hhReplayed > 0 {
		out = append(out,
			withGoal(f.single("status.ours_vs_hardhat.differences", "tx", "transactions whose status differs between ours and Hardhat: fidelity findings (see findings)", float64(vsHH)), "0", vsHH == 0),
			f.single("status.ours_vs_hardhat.contracts_differing", "contracts", "contracts with at least one such transaction", float64(vsHHContracts)),
			f.single("status.hardhat_vs_mainnet.differences", "tx", "transactions whose Hardhat status differs from mainnet's", float64(hhVsMainnet)),
			f.single("gas.ours_vs_hardhat.differences", "tx", "transactions of equal status whose gas used differs (fork rules, refunds)", float64(gasDiff)))
	}
	return out
}

// gasDifferences counts transactions with equal status and different gas.
func (cr *contractRun) gasDifferences() int {
	n := 0
	ours, hh := cr.Statuses[engineOurs], cr.Statuses[engineHardhat]
	for i := range min(len(cr.OursResults), len(cr.HardhatGas), len(ours), len(hh)) {
		if ours[i] == hh[i] && ours[i] != statusRejected && cr.OursResults[i] != nil && cr.OursResults[i].GasUsed != cr.HardhatGas[i] {
			n++
		}
	}
	return n
}

// compileFigures: persistent worker against one process per compile. Run
// r pairs every contract's r-th spawned compile with its persistent compiles
// of index r mod runs, so ratios are taken run by run.
func (f figurer) compileFigures(crs []*contractRun) []Figure {
	runs := f.compileRuns
	warmN, spawnN := make([]int, runs), make([]int, runs)
	warmT, spawnT := make([]time.Duration, runs), make([]time.Duration, runs)
	var first float64
	var firstN int
	for _, cr := range crs {
		if cr.CompileFirst > 0 {
			first += cr.CompileFirst.Seconds()
			firstN++
		}
		if len(cr.CompileWarm) == 0 || len(cr.CompileSpawn) != runs {
			continue
		}
		for i, d := range cr.CompileWarm {
			warmN[i%runs]++
			warmT[i%runs] += d
		}
		for i, d := range cr.CompileSpawn {
			spawnN[i]++
			spawnT[i] += d
		}
	}
	var out []Figure
	if runs == 0 || spawnN[0] == 0 {
		return out
	}
	warm, spawn := make([]float64, runs), make([]float64, runs)
	for r := range runs {
		warm[r], spawn[r] = rate(warmN[r], warmT[r]), rate(spawnN[r], spawnT[r])
	}
	out = append(out,
		f.fig("compile.persistent.compiles_per_s", "compiles/s", "compiles of the originals on one persistent solc worker, compiler already loaded; total compiles / total time, median of runs", warm),
		f.fig("compile.spawn.compiles_per_s", "compiles/s", "compiles of the originals, each in a fresh Node process that loads the compiler; total compiles / total time, median of runs", spawn),
		f.fig("compile.persistent_over_spawn.ratio", "x", "persistent / spawned throughput, run by run; median", ratios(warm, spawn)))
	if firstN > 0 {
		out = append(out, f.single("compile.first_s", "s", "mean first compile of an original (starts a worker when its compiler version is new)", first/float64(firstN)))
	}
	return out
}

// o2Figures: end to end seconds per contract with k samples.
func (f figurer) o2Figures(crs []*contractRun) []Figure {
	e2e, stage, samples, n := f.endToEnd(crs, func(cr *contractRun) []time.Duration { return cr.O2Stage })
	if n == 0 {
		return nil
	}
	return []Figure{
		f.fig("o2.e2e_s_per_contract", "s", "mean per contract of: generating and compiling k mutant samples + the o2 stage (deploy original and k samples, replay, compare, write); median of runs", e2e),
		f.fig("o2.stage_s_per_contract", "s", "the o2 stage alone, mean per contract; median of runs", stage),
		f.single("samples.generate_compile_s_per_contract", "s", "generating and compiling the k mutant samples, mean per contract (one measurement)", samples),
		f.single("o2.contracts", "contracts", "contracts o2 ran on", float64(n)),
	}
}

// o3Figures: end to end seconds per contract with k samples, and how fast
// Algorithm 1 executes calls while it builds the sequences.
func (f figurer) o3Figures(crs []*contractRun) []Figure {
	e2e, stage, _, n := f.endToEnd(crs, func(cr *contractRun) []time.Duration { return cr.O3Stage })
	if n == 0 {
		return nil
	}
	calls, times := make([]int, f.runs), make([]time.Duration, f.runs)
	for _, cr := range crs {
		if len(cr.SeqStage) != f.runs {
			continue
		}
		for r, d := range cr.SeqStage {
			calls[r] += cr.SeqCalls
			times[r] += d
		}
	}
	perSecond := make([]float64, f.runs)
	for r := range f.runs {
		perSecond[r] = rate(calls[r], times[r])
	}
	return []Figure{
		f.fig("o3.e2e_s_per_contract", "s", "mean per contract of: generating and compiling k mutant samples + dcr (static) + sequences (Algorithm 1) + the o3 stage; median of runs", e2e),
		f.fig("o3.stages_s_per_contract", "s", "dcr + sequences + o3 alone, mean per contract; median of runs", stage),
		f.fig("o3.sequence_calls_per_s", "calls/s", "calls Algorithm 1 executed on the original (sequence_calls rows, kept and pruned) / sequences stage time, all contracts; median of runs", perSecond),
		f.single("o3.contracts", "contracts", "contracts o3 ran on", float64(n)),
	}
}

// endToEnd averages, per run over the contracts with every run of the
// stage times, stage time plus the samples' time, and the stage alone.
func (f figurer) endToEnd(crs []*contractRun, times func(*contractRun) []time.Duration) (e2e, stage []float64, samples float64, n int) {
	e2e, stage = make([]float64, f.runs), make([]float64, f.runs)
	for _, cr := range crs {
		if len(times(cr)) != f.runs {
			continue
		}
		n++
		samples += cr.SampleCompile.Seconds()
		for r, d := range times(cr) {
			stage[r] += d.Seconds()
			e2e[r] += d.Seconds() + cr.SampleCompile.Seconds()
		}
	}
	if n == 0 {
		return nil, nil, 0, 0
	}
	for r := range f.runs {
		e2e[r] /= float64(n)
		stage[r] /= float64(n)
	}
	return e2e, stage, samples / float64(n), n
}

// o1Figures: differential call pairs per second on one core.
func (f figurer) o1Figures(crs []*contractRun) []Figure {
	calls, times := make([]int, f.runs), make([]time.Duration, f.runs)
	functions, divergent := 0, 0
	for _, cr := range crs {
		if len(cr.O1Calls) != f.runs {
			continue
		}
		functions += cr.O1Functions
		divergent += cr.O1Divergences
		for r := range f.runs {
			calls[r] += cr.O1Calls[r]
			times[r] += cr.O1Time[r]
		}
	}
	if functions == 0 {
		return nil
	}
	pairs, typical := make([]float64, f.runs), make([]float64, f.runs)
	for r := range f.runs {
		pairs[r] = rate(calls[r], times[r])
		var perContract []float64
		for _, cr := range crs {
			if len(cr.O1Calls) == f.runs {
				perContract = append(perContract, rate(cr.O1Calls[r], cr.O1Time[r]))
			}
		}
		typical[r] = median(perContract)
	}
	return []Figure{
		f.fig("o1.call_pairs_per_s_per_core", "pairs/s", "fuzz.Differential call pairs (original vs a second build of its source, coverage-guided) / campaign time, one goroutine, all contracts together (a contract whose calls loop to the gas limit weighs in with its time); median of runs", pairs),
		f.fig("o1.call_pairs_per_s_per_core.median_contract", "pairs/s", "the same rate per contract, median over the contracts; median of runs", typical),
		f.single("o1.functions", "functions", "functions fuzzed", float64(functions)),
		f.single("o1.divergent_functions", "functions", "campaigns that found a disagreement between two builds of the same source (should be 0)", float64(divergent)),
	}
}

// point is what holds at the last contract of crs: memory and wall time.
func (f figurer) point(crs []*contractRun) []Figure {
	if len(crs) == 0 {
		return nil
	}
	last := crs[len(crs)-1]
	var sys uint64
	var hh int64
	for _, cr := range crs {
		sys = max(sys, cr.Mem.Sys)
		hh = max(hh, cr.HardhatRSS)
	}
	out := []Figure{
		f.single("memory.peak_rss_bytes", "bytes", "getrusage(RUSAGE_SELF) maxrss of the bench process (solc workers and Node not included)", float64(last.Mem.MaxRSS)),
		f.single("memory.go_sys_bytes", "bytes", "largest runtime.MemStats.Sys seen after a contract", float64(sys)),
		f.single("wall.seconds", "s", "wall time of the bench up to this contract, every measurement included", last.Wall.Seconds()),
	}
	if hh > 0 {
		out = append(out, f.single("memory.hardhat_peak_rss_bytes", "bytes", "largest maxrss of a Hardhat Node process", float64(hh)))
	}
	return out
}

// contract is one contract's report.
func (f figurer) contract(cr *contractRun) ContractReport {
	c := ContractReport{ID: cr.ID, Compiler: cr.Compiler, Txs: cr.Txs, Skipped: cr.Skip, HardhatError: cr.HardhatErr}
	if cr.Skip != "" {
		return c
	}
	c.Hardfork, c.LastHardfork = cr.Hardfork, cr.LastHardfork
	for _, e := range []string{cr.CompileErr, cr.SampleErr, cr.O2Err, cr.O3Err, cr.O1Err} {
		if e != "" {
			c.Errors = append(c.Errors, e)
		}
	}
	for _, e := range cr.Unstable {
		c.Errors = append(c.Errors, e+": statuses changed between runs")
	}
	c.Figures = f.aggregate([]*contractRun{cr})
	return c
}
