package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/projection"
)

// SchemaVersion names the layout of latest.json.
const SchemaVersion = "solbehave-bench/1"

// Figure is one named measurement.
type Figure struct {
	Name    string    `json:"name"`
	Value   float64   `json:"value"`
	Unit    string    `json:"unit"`
	Command string    `json:"command"`          // the command line that measured it
	Method  string    `json:"method,omitempty"` // what was timed and how it was reduced
	Runs    []float64 `json:"runs,omitempty"`   // per-run values; Value is their median
	Goal    string    `json:"goal,omitempty"`   // e.g. ">= 10"
	Met     *bool     `json:"met,omitempty"`
}

// Report is what latest.json holds.
type Report struct {
	Schema    string           `json:"schema"`
	Created   time.Time        `json:"created"`
	Mode      string           `json:"mode"`
	Complete  bool             `json:"complete"` // false while (or if) the run has not reached every contract
	Planned   int              `json:"planned"`  // contracts the run set out to measure
	Command   string           `json:"command"`
	Corpus    string           `json:"corpus"`
	Machine   Machine          `json:"machine"`
	Settings  Settings         `json:"settings"`
	Figures   []Figure         `json:"figures"` // over all contracts
	Contracts []ContractReport `json:"contracts"`
	Curve     []CurvePoint     `json:"curve"`
	Findings  []Finding        `json:"findings"` // status differences between engines
	Notes     []string         `json:"notes"`    // what was left out, and why
	// Projection is the paper's evaluation costed from measured unit costs
	// (absent when the run made none).
	Projection *projection.Projection `json:"projection,omitempty"`
}

// Machine is where the figures were measured.
type Machine struct {
	GOOS, GOARCH string
	CPUs         int
	Go           string
	Hardhat      string `json:",omitempty"`
	// LoadAverage is /proc/loadavg (1, 5, 15 minutes) at the start and the
	// end of the run: wall-clock figures on a shared machine depend on it.
	LoadAverageStart, LoadAverageEnd string `json:",omitempty"`
}

// Settings are the run's parameters.
type Settings struct {
	Contracts, Txs, Runs, Samples, SampleCompiles, SpawnCompiles, FuzzCalls, FuzzFunctions int
	Only                                                                                   []string `json:",omitempty"`
	Hardhat                                                                                string
}

// ContractReport is one contract's figures.
type ContractReport struct {
	ID           string   `json:"id"`
	Compiler     string   `json:"compiler,omitempty"`
	Txs          int      `json:"txs"`
	Hardfork     string   `json:"hardfork,omitempty"`      // Hardhat ran the whole replay under it
	LastHardfork string   `json:"last_hardfork,omitempty"` // mainnet's rules at the last replayed transaction
	Skipped      string   `json:"skipped,omitempty"`
	HardhatError string   `json:"hardhat_error,omitempty"`
	Errors       []string `json:"errors,omitempty"` // other steps that failed
	Figures      []Figure `json:"figures"`
}

// CurvePoint is the figures over the first Contracts contracts.
type CurvePoint struct {
	Contracts int      `json:"contracts"`
	Figures   []Figure `json:"figures"`
}

// Finding is one transaction on which two engines disagree on status.
type Finding struct {
	Contract     string `json:"contract"`
	Tx           int    `json:"tx"` // position in the replayed history
	Hash         string `json:"hash,omitempty"`
	Engines      string `json:"engines"` // e.g. "ours vs hardhat"
	Ours         string `json:"ours"`
	Other        string `json:"other"`
	Mainnet      string `json:"mainnet"`
	OursGas      uint64 `json:"ours_gas"`
	OtherGas     uint64 `json:"other_gas,omitempty"`
	OursReason   string `json:"ours_reason,omitempty"`
	OtherReason  string `json:"other_reason,omitempty"`
	HardhatRules string `json:"hardhat_rules,omitempty"`
	MainnetRules string `json:"mainnet_rules,omitempty"`
}

// Figure looks a figure up by name.
func (r *Report) Figure(name string) (Figure, bool) { return findFigure(r.Figures, name) }

func findFigure(fs []Figure, name string) (Figure, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// Write stores the report as indented JSON, atomically.
func (r *Report) Write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}

// TemporalOverheadFigure is the Temporal figure the projection's wall time
// adds per unit (written by `bench --temporal`).
const TemporalOverheadFigure = "temporal_overhead_ms_per_unit"

// TemporalOverheadMS is that figure of a report; 0 when absent.
func TemporalOverheadMS(r *Report) float64 {
	if r == nil {
		return 0
	}
	f, _ := r.Figure(TemporalOverheadFigure)
	return f.Value
}

// ReadReport loads a latest.json.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := &Report{}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// report turns the raw measurements into figures. A projection-only run
// keeps the engine figures latest.json held.
func (b *bencher) report(done []*contractRun, planned int) *Report {
	if b.cfg.Projection.Only && b.previous != nil {
		r := *b.previous
		r.Projection = b.projection
		return &r
	}
	f := figurer{runs: b.cfg.Runs, compileRuns: b.cfg.SpawnCompiles, command: b.cfg.Command}
	r := &Report{Schema: SchemaVersion, Created: time.Now().UTC(), Mode: b.cfg.Mode, Command: b.cfg.Command,
		Complete: len(done) == planned, Planned: planned,
		Corpus: b.cfg.Corpus, Notes: b.notes,
		Machine: Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version(),
			LoadAverageStart: b.loadStart, LoadAverageEnd: loadAverage()},
		Settings: Settings{Contracts: len(done), Txs: b.cfg.Txs, Runs: b.cfg.Runs, Samples: b.cfg.Samples,
			SampleCompiles: b.cfg.SampleCompiles, SpawnCompiles: b.cfg.SpawnCompiles, FuzzCalls: b.cfg.FuzzCalls, FuzzFunctions: b.cfg.FuzzFunctions, Only: b.cfg.Only, Hardhat: b.cfg.Hardhat}}
	if b.hardhat != nil {
		r.Machine.Hardhat = b.hardhat.Version
	}
	r.Figures = append(f.aggregate(done), f.point(done)...)
	for _, cr := range done {
		r.Contracts = append(r.Contracts, f.contract(cr))
		r.Findings = append(r.Findings, findings(cr)...)
	}
	for _, n := range curveSizes(b.cfg.Curve, len(done)) {
		r.Curve = append(r.Curve, CurvePoint{Contracts: n, Figures: append(f.aggregate(done[:n]), f.point(done[:n])...)})
	}
	r.Notes = append(r.Notes, sectionNotes(done)...)
	r.Projection = b.projection
	if c := b.cfg.SampleCompiles; c > 0 && c < b.cfg.Samples {
		r.Notes = append(r.Notes, fmt.Sprintf("o2: only %d of the k=%d samples were recompiled per contract (--sample-compiles); the others reuse those outputs, and o2 end to end counts k compiles at the measured mean", c, b.cfg.Samples))
	}
	return r
}

// sectionNotes says which measurements were left out.
func sectionNotes(done []*contractRun) []string {
	notes := []string{
		"o2, o3: the k samples are mutants (internal/regen's mutant generator on the original's skeleton, rate 0.3), generated and compiled on the persistent worker; end to end = that + the oracle's stages (pipeline runner, one unit each): o2; dcr (static) + sequences + o3",
		"hardhat: one hardfork per contract (the creation block's), as its in-process network cannot switch rules by block; one transaction per block, so transactions that shared a mainnet block see later block numbers there",
	}
	for _, cr := range done {
		if cr.SampleCompileEstimated {
			notes = append(notes, fmt.Sprintf("samples: %s: fewer than k mutants generated and compiled; the k samples reuse them and their time is k times the mean", cr.ID))
		}
		if cr.SamplesFailed > 0 {
			notes = append(notes, fmt.Sprintf("samples: %s: %d mutant(s) did not compile and were left out", cr.ID, cr.SamplesFailed))
		}
		if cr.Skip == "" && len(cr.Blocks) > 0 && cr.Hardfork != hardforkAt(cr.Blocks[0]) {
			notes = append(notes, fmt.Sprintf("hardhat: %s starts under %s on mainnet, which Hardhat 2 cannot run; it ran under %s", cr.ID, hardforkAt(cr.Blocks[0]), cr.Hardfork))
		}
		if cr.Skip == "" && len(cr.Blocks) > 0 && hardforkAt(cr.Blocks[0]) != cr.LastHardfork {
			notes = append(notes, fmt.Sprintf("hardhat: mainnet moved from %s to %s during %s's replayed history; Hardhat ran it all under %s", hardforkAt(cr.Blocks[0]), cr.LastHardfork, cr.ID, cr.Hardfork))
		}
	}
	return notes
}

// curveSizes are the curve's contract counts: the configured ones up to n
// (every 10 by default), and n itself.
func curveSizes(want []int, n int) []int {
	if want == nil {
		for k := 10; k < n; k += 10 {
			want = append(want, k)
		}
	}
	var out []int
	for _, k := range want {
		if k > 0 && k < n && (len(out) == 0 || k > out[len(out)-1]) {
			out = append(out, k)
		}
	}
	if n > 0 {
		out = append(out, n)
	}
	return out
}

// findings lists every status difference of ours against the other engines.
func findings(cr *contractRun) []Finding {
	var out []Finding
	for _, other := range []string{engineHardhat, engineBare, engineO2, engineCoverage} {
		for _, i := range cr.mismatches(engineOurs, other) {
			fd := Finding{Contract: cr.ID, Tx: i, Engines: engineOurs + " vs " + other,
				Ours: cr.Statuses[engineOurs][i], Other: cr.Statuses[other][i], Mainnet: cr.Recorded[i],
				HardhatRules: cr.Hardfork, MainnetRules: cr.rulesAt(i)}
			if i < len(cr.Hashes) {
				fd.Hash = cr.Hashes[i]
			}
			if i < len(cr.OursResults) && cr.OursResults[i] != nil {
				fd.OursGas, fd.OursReason = cr.OursResults[i].GasUsed, failureText(cr.OursResults[i])
			}
			if other == engineHardhat && i < len(cr.HardhatGas) {
				fd.OtherGas, fd.OtherReason = cr.HardhatGas[i], cr.HardhatReasons[i]
			}
			out = append(out, fd)
		}
	}
	return out
}
