package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is one re-runnable step of the pipeline.
type Stage interface {
	Name() string
	Summary() string // one line for `solbehave stages`
	Version() string // bump when the stage's output for the same input changes
	BindFlags(fs *pflag.FlagSet)
	Plan(ctx context.Context, env *Env) ([]Unit, error)
	// Run does one unit. On failure it may return rows too (a dataset row
	// that records the reason): they are written beside the error row.
	Run(ctx context.Context, env *Env, u Unit) (*Output, error)
}

// Scoped is a stage whose plan covers only some of its units, by setting:
// the runner removes the outputs of a unit the plan no longer lists only
// when InScope says the unit is one this run could have planned (an O3 run
// of one profile leaves the other profile's units alone; a run of one
// generator leaves every other generator's samples, so an evaluation grows
// model by model and only `solbehave forget` removes a model).
type Scoped interface {
	InScope(unitID string) bool
}

// Unit is one independent piece of a stage's work.
type Unit struct {
	ID       string // unique within the stage, e.g. a contract id or contract/model/sample
	Contract string // partition value of every row the unit writes
	// Model is the model (generator) whose rows the unit writes, "" for a
	// unit of no one model (an original's, a contract's): `forget` removes
	// a model's units by it, and `status` and `runs` say which runs wrote
	// each model's rows.
	Model       string
	Fingerprint string // digest of everything the output depends on (see Fingerprint)
	Payload     any    // stage-private data from Plan to Run
	// Files are the files or folders outside the warehouse the unit writes,
	// relative to the data folder and named by the function that makes the
	// path (samples/…, dcr/…): the plan refuses two units that share one.
	Files []string
	// Affinity groups units that share a warm engine (a compiler version:
	// each needs its own Node worker, which takes seconds of CPU to load and
	// warm up): the runner runs units of one affinity one after another.
	Affinity string
}

// Env is what every stage sees of the run.
type Env struct {
	Corpus    string
	Data      string
	Seed      int64
	Jobs      int
	Log       *slog.Logger
	Out       io.Writer // where summaries go (stdout)
	Warehouse *warehouse.Warehouse
	Engines   *Engines
	Run       *RunInfo // the invocation, as manifests record it (nil: nothing recorded)
}

// Output collects the rows a unit produced, per dataset.
type Output struct {
	writes []datasetWrite
}

type datasetWrite struct {
	dataset string
	rows    int
	write   func(path string) error
}

// Add queues rows of one dataset for the unit's atomic write. Adding the same
// dataset twice writes two parts.
func Add[T any](o *Output, dataset schemas.Table[T], rows []T) {
	o.writes = append(o.writes, datasetWrite{dataset: dataset.Name(), rows: len(rows), write: func(path string) error {
		return warehouse.Write(path, rows)
	}})
}

// Rows reports how many rows the output holds for a dataset.
func (o *Output) Rows(dataset string) int {
	n := 0
	for _, w := range o.writes {
		if w.dataset == dataset {
			n += w.rows
		}
	}
	return n
}

// Fingerprint digests its parts (anything JSON-encodable) into a hex string.
func Fingerprint(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		switch v := p.(type) {
		case []byte:
			h.Write(v)
		case string:
			h.Write([]byte(v))
		default:
			b, err := json.Marshal(v)
			if err != nil {
				panic(fmt.Sprintf("pipeline: fingerprint part %T: %v", p, err))
			}
			h.Write(b)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// NameScope is the scope of a stage whose units are "<contract>/<name>"
// (a generator's, an extractor's): the names a run planned and the contracts
// it could plan them for. A unit of another name is another run's, left
// alone; a unit of a contract the plan no longer has lost its input.
type NameScope struct {
	Names     map[string]bool
	Contracts map[string]bool
}

// NewNameScope is the scope of a plan of these names, its contracts filled
// by the stage's Plan.
func NewNameScope(names ...string) *NameScope {
	sc := &NameScope{Names: map[string]bool{}, Contracts: map[string]bool{}}
	for _, n := range names {
		sc.Names[n] = true
	}
	return sc
}

// Covers says whether unitID is one this scope's plan judges; a nil scope
// (nothing planned yet) judges every unit.
func (sc *NameScope) Covers(unitID string) bool {
	if sc == nil {
		return true
	}
	contract, name, _ := strings.Cut(unitID, "/")
	return sc.Names[name] || !sc.Contracts[contract]
}
