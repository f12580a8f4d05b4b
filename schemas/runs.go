package schemas

import _ "embed"

//go:embed runs.md
var runsDoc string

// RunRow is one row of the `runs` dataset: one invocation of solbehave that
// ran units (`run`, a stage command), with the version that ran, its
// effective parameters and what it did. Manifests and released rows carry
// its run_id.
type RunRow struct {
	RunID        string `parquet:"run_id"`
	Command      string `parquet:"command"`
	ToolVersion  string `parquet:"tool_version"`
	VCSRevision  string `parquet:"vcs_revision"`
	VCSTime      string `parquet:"vcs_time"`
	VCSModified  bool   `parquet:"vcs_modified"`
	GoVersion    string `parquet:"go_version"`
	Engine       string `parquet:"engine"`
	ConfigFile   string `parquet:"config_file"`
	Parameters   string `parquet:"parameters"`
	CorpusDigest string `parquet:"corpus_digest"`
	Seed         int64  `parquet:"seed"`
	StartedAt    string `parquet:"started_at"`
	EndedAt      string `parquet:"ended_at"`
	ExitStatus   int64  `parquet:"exit_status"`
	UnitsRan     int64  `parquet:"units_ran"`
	UnitsSkipped int64  `parquet:"units_skipped"`
	UnitsFailed  int64  `parquet:"units_failed"`
	Stages       string `parquet:"stages"`
	Models       string `parquet:"models"`
}

// Runs is the runs dataset: rows of RunRow.
var Runs = Define[RunRow](Dataset{Name: "runs", RunRecord: true,
	Volatile: []string{"run_id", "command", "started_at", "ended_at"}, Doc: runsDoc})
