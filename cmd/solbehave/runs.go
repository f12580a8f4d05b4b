package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// runRecord is the runs row of one invocation in the making.
type runRecord struct {
	row   schemas.RunRow
	start time.Time
}

// startRun opens the record of an invocation: id, build, configuration,
// corpus digest. Its id goes into every manifest the run writes.
func (g *globals) startRun(engine string) (*runRecord, error) {
	start := time.Now().UTC()
	digest, err := corpusDigest(g.corpus)
	if err != nil {
		return nil, err
	}
	v := readVersion()
	cfgFile := ""
	if g.cfg.Path != "" {
		cfgFile = filepath.Base(g.cfg.Path)
	}
	return &runRecord{start: start, row: schemas.RunRow{
		RunID: newRunID(start), Command: g.cmdline, ToolVersion: v.Version, VCSRevision: v.Revision,
		VCSTime: v.Time, VCSModified: v.Modified, GoVersion: v.Go, Engine: engine, ConfigFile: cfgFile,
		Parameters: g.parametersJSON(), CorpusDigest: digest, Seed: g.seed, StartedAt: start.Format(time.RFC3339),
	}}, nil
}

// newRunID is the start time and a random suffix: unique across the
// processes of a sharded run.
func newRunID(start time.Time) string {
	b := make([]byte, 4)
	rand.Read(b)
	return start.Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}

// finish completes the record with what the stages did and how the
// invocation ended, and writes it when any unit ran.
func (r *runRecord) finish(w *warehouse.Warehouse, counters []pipeline.Counters, exit int) (bool, error) {
	type stageCount struct {
		Stage                       string `json:"stage"`
		Units, Ran, Skipped, Failed int
		ElapsedMS                   int64 `json:"elapsed_ms"`
	}
	var stages []stageCount
	for _, c := range counters {
		r.row.UnitsRan += int64(c.Ran)
		r.row.UnitsSkipped += int64(c.Skipped)
		r.row.UnitsFailed += int64(c.Failed)
		stages = append(stages, stageCount{c.Stage, c.Units, c.Ran, c.Skipped, c.Failed, c.Elapsed.Milliseconds()})
	}
	if r.row.UnitsRan == 0 {
		return false, nil // nothing ran: nothing to record
	}
	b, err := json.Marshal(stages)
	if err != nil {
		return false, err
	}
	r.row.Stages = string(b)
	if r.row.Models, err = modelsOfRun(filepath.Dir(w.Root), r.row.RunID); err != nil {
		return false, err
	}
	r.row.EndedAt = time.Now().UTC().Format(time.RFC3339)
	r.row.ExitStatus = int64(exit)
	return true, warehouse.Write(w.Path(schemas.Runs.Name(), nil, r.row.RunID), []schemas.RunRow{r.row})
}

// modelsOfRun are the models whose units the run wrote, as a JSON array.
func modelsOfRun(data, runID string) (string, error) {
	ms, err := pipeline.ReadManifests(data)
	if err != nil {
		return "", err
	}
	models := []string{}
	for _, m := range ms {
		if m.Run == runID && m.Model != "" && !slices.Contains(models, m.Model) {
			models = append(models, m.Model)
		}
	}
	slices.Sort(models)
	b, err := json.Marshal(models)
	return string(b), err
}

// corpusDigest is sha256 over the corpus folder's files: each file's path
// relative to the folder and the sha256 of its content, sorted by path.
func corpusDigest(dir string) (string, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll // a live crawl writes its corpus elsewhere
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		sum, err := inputfile.Digest(path, inputfile.Whole)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		lines = append(lines, filepath.ToSlash(rel)+" "+sum)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("corpus digest: %w", err)
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		fmt.Fprintln(h, l)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// exitStatus is the status the process ends with for a run's error.
func exitStatus(err error) int {
	var fe *failedUnitsError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fe):
		return 2
	}
	return 1
}
