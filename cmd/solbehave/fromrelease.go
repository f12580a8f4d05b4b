package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/pipeline"
)

// notFromRelease are the parameters a new model's run does not take from
// the release it starts from: its own generators and what follows from
// them, and where its endpoint is.
var notFromRelease = []string{"generator", "extractor", "llm-url"}

// takeRelease starts the data folder from the release at dir: its models
// come in as rows (release.Import), the run reads the release's corpus
// unless --corpus is given, and every parameter the command line and the
// configuration leave unset takes the release's value, so the new model is
// judged as the published ones were.
func takeRelease(cmd *cobra.Command, g *globals, dir string) error {
	if err := dataOutsideRelease(dir, g.data); err != nil { // before the locks: they would be written into the release
		return err
	}
	unlock, err := pipeline.LockStages(g.data, pipeline.Shard{}, slices.Clone(stagelist.Order), "solbehave run --from-release")
	if err != nil {
		return err
	}
	rel, err := release.Import(cmd.Context(), dir, g.data)
	unlock()
	if err != nil {
		return err
	}
	if !cmd.Flags().Changed("corpus") {
		if err := cmd.Flags().Set("corpus", filepath.Join(dir, release.ReleaseCorpus)); err != nil {
			return err
		}
	}
	for _, stage := range slices.Sorted(maps.Keys(rel.Params)) {
		if err := g.cfg.Underlay(cmd.Flags(), rel.Params[stage], notFromRelease); err != nil {
			return fmt.Errorf("--from-release: stage %s: %w", stage, err)
		}
	}
	models := make([]string, len(rel.Models))
	for i, m := range rel.Models {
		models[i] = m.Model
	}
	newLoggerTo(g.logw, g.quiet).Info("starting from a release", "title", rel.Title, "version", rel.Version, "models", models, "corpus", g.corpus)
	return nil
}

// dataOutsideRelease refuses a data folder that is the release at dir or
// lies inside it (through a link too): a run writes its locks, state and
// parts into its data folder, and the release, changed, would fail its
// checksums for every later import.
func dataOutsideRelease(dir, data string) error {
	rel, err := resolved(dir)
	if err != nil {
		return err
	}
	d, err := resolved(data)
	if err != nil {
		return err
	}
	if within(rel, d) {
		return fmt.Errorf("--from-release %s: --data %s is the release or a folder inside it; the run would write into the "+
			"release, which must stay as published: give another --data", dir, data)
	}
	return nil
}
