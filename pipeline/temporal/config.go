package temporal

import (
	"time"

	"github.com/solbehave/solbehave/pipeline"
)

// Names of the workflows, activities and query, as workers register them
// and as the Temporal UI and CLI show them.
const (
	RunWorkflowName   = "solbehave.run"
	StageWorkflowName = "solbehave.stage"
	PlanActivityName  = "solbehave.plan"
	ProgressQuery     = "progress"
	DefaultTaskQueue  = "solbehave"

	// errPlanChanged: a scheduled unit is missing from a worker's plan of
	// its stage; retrying cannot help.
	errPlanChanged = "plan_changed"
)

// UnitActivityName is the activity type of one stage's units, so the UI
// tells stages apart and a worker registers only the stages it runs.
func UnitActivityName(stage string) string { return "solbehave.unit." + stage }

// Config is a run as the workflow carries it: everything a worker needs to
// rebuild the run's stages and environment. Corpus and Data are absolute
// paths that must name the same folders on every worker (a shared volume).
type Config struct {
	Stages        []string                     // in pipeline order
	Flags         map[string][]string          // every stage flag's effective value, by name
	RunID         string                       // the run's id, recorded in every manifest (runs dataset)
	Params        map[string]map[string]string // per stage, its fingerprinted parameters, recorded in manifests
	Corpus, Data  string
	Seed          int64
	Force         bool
	Shard         string
	TaskQueue     string        // workflows, plans and units
	GenerateQueue string        // generation units ("" = TaskQueue), e.g. GPU machines
	Fanout        int           // most units of a stage in flight at once
	Batch         int           // units per stage-workflow run before it continues as new
	Heartbeat     time.Duration // a unit whose worker is silent this long runs again elsewhere
	Attempts      int32         // tries of a unit that fails retriably
}

// withDefaults fills what the caller left zero.
func (c Config) withDefaults() Config {
	if c.TaskQueue == "" {
		c.TaskQueue = DefaultTaskQueue
	}
	if c.Fanout <= 0 {
		c.Fanout = 64
	}
	if c.Batch <= 0 {
		// A workflow history holds about six events per unit; 2,000 units
		// stay well below Temporal's 51,200-event limit.
		c.Batch = 2000
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = 30 * time.Second
	}
	if c.Attempts <= 0 {
		c.Attempts = 3
	}
	return c
}

// queue is the task queue of a stage's units.
func (c Config) queue(stage string) string {
	if stage == "generate" && c.GenerateQueue != "" {
		return c.GenerateQueue
	}
	return c.TaskQueue
}

// key identifies what a worker builds for a run: the stages with their
// flags and the environment. Queues and fan-out do not change outputs.
func (c Config) key() string {
	return pipeline.Fingerprint(c.Flags, c.Corpus, c.Data, c.Seed, c.Force, c.Shard, c.RunID)
}

// UnitRef names a scheduled unit; the worker rebuilds the rest from its plan.
type UnitRef struct {
	ID          string
	Fingerprint string
}

// StageInput is a stage workflow's input; after a continue-as-new it carries
// the units still to run and the counters so far.
type StageInput struct {
	Config   Config
	Stage    string
	Planned  bool
	Todo     []UnitRef
	ToRun    int // units the plan scheduled, all batches together
	Counters StageCounters
}

// PlanResult is what the plan activity found.
type PlanResult struct {
	Units, Skipped int
	KeptFailed     int // skipped units whose stored output is an error row
	Todo           []UnitRef
}

// UnitInput is a unit activity's input.
type UnitInput struct {
	Config Config
	Unit   UnitRef
}

// UnitResult says how a unit activity ended.
type UnitResult struct {
	Failed  bool  // an error row was stored
	Current bool  // already stored by an earlier attempt: nothing ran
	Attempt int32 // Temporal's attempt number (1 = first try)
}

// StageCounters are the local runner's counters plus the units that needed
// more than one attempt.
type StageCounters struct {
	pipeline.Counters
	Retried int
}

// RunProgress is the run workflow's answer to the progress query.
type RunProgress struct {
	Stages        []string
	Index         int    // of the stage now running
	StageWorkflow string // its workflow id ("" when the run is over)
	Finished      []StageCounters
}

// StageProgress is a stage workflow's answer to the progress query.
type StageProgress struct {
	Counters StageCounters // Ran and Failed so far
	ToRun    int           // units the plan scheduled
	Last     string        // the unit that finished last
}
