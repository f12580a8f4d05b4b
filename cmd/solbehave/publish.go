package main

import (
	"fmt"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/spf13/cobra"
)

func newPublishCmd(g *globals, _ []pipeline.Stage) *cobra.Command {
	p := &release.Publisher{}
	cmd := &cobra.Command{
		Use:   "publish --out DIR --creators NAME... [--title T] [--release-version V] [--license SPDX] [--archive] [--allow-mixed] [--allow-stale]",
		Short: "Write a release folder a dataset host accepts: one Parquet file per dataset, metadata, datasheet, checksums, DuckDB file",
		Long: "Writes into DIR (new or empty) one Parquet file per dataset (sorted by contract, each row with the run_id of " +
			"the run that made it), the runs that made them and the units' manifests (runs, units), the files rows point " +
			"at (files: DCR graphs, sample sources, skeletons), the schema docs and views bundled, a README that is both " +
			"a Hugging Face dataset card and the datasheet (intended uses, limitations, parameters, provenance), " +
			"CITATION.cff, .zenodo.json, a Frictionless datapackage.json, LICENSE, SHA256SUMS and solbehave.duckdb " +
			"(paths relative to DIR). Parameters and versions come from the runs and manifests of the rows published, " +
			"not from this command's flags: a fingerprinted parameter with two values in one dataset stops publish " +
			"(--allow-mixed publishes anyway and says so), except the parameters that separate rows by design " +
			"(generator, extractor, O3 graph setting and profile, ablation). A unit that is stale (its inputs or parameters " +
			"changed after it ran) or failed also stops publish (--allow-stale publishes the current units' rows " +
			"and lists the others). No file names a folder of this machine. " +
			"Whoever publishes is the dataset's creator: --creators (or creators in solbehave.toml) is required, with " +
			"--title, --release-version and --license (or title, release-version, license); the paper whose protocol " +
			"ran stays the preferred citation.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := g.pinEvaluation(cmd, "", nil, pinSurvey); err != nil { // the corpus the folder's rows were made from
				return err
			}
			p.Data, p.Corpus, p.Warehouse = g.data, g.corpus, g.env().Warehouse
			if p.Out != "" {
				if err := g.refuseInsideData(p.Out, p.Out, "where the views would read the release's "+
					"Parquet files as the warehouse's own; give a folder outside it"); err != nil {
					return fmt.Errorf("publish: %w", err)
				}
			}
			if err := p.Publish(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "published %s: %d files, %d datasets, %d rows\n", p.Out, p.Files, p.Datasets, p.Rows)
			if p.NoCorpus != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "WARNING: %s cannot take a new model (run --from-release refuses it): %s; "+
					"give the corpus the runs read with --corpus\n", p.Out, p.NoCorpus)
			}
			if p.Archive {
				fmt.Fprintf(cmd.OutOrStdout(), "archive %s\n", release.ArchivePath(p.Out))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&p.Out, "out", "", "release folder to write")
	f.BoolVar(&p.Archive, "archive", false, "also write DIR.tar.zst beside the folder (one file to upload)")
	f.BoolVar(&p.AllowMixed, "allow-mixed", false, "publish even when a dataset mixes values of a fingerprinted parameter (the datasheet lists them)")
	f.BoolVar(&p.AllowStale, "allow-stale", false, "publish even when units are stale or failed: the current units' rows only (the datasheet lists the others)")
	p.Meta.Bind(f)
	return cmd
}

// newViewsCmd rebuilds the DuckDB file, e.g. after the data folder moved.
func newViewsCmd(g *globals) *cobra.Command {
	var layout string
	cmd := &cobra.Command{
		Use:   "views [--layout absolute|relative]",
		Short: "Rebuild the DuckDB file's views (after moving the data folder, or to change the path layout)",
		Long: "absolute (the default for a new file): views read the warehouse by absolute path, so the file " +
			"works from any folder in any DuckDB client, until the data folder moves (then run this again; " +
			"solbehave's own commands do it by themselves). relative: paths relative to the file's folder, so " +
			"the file moves with the warehouse; clients open it from that folder or SET file_search_path to it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := g.env().Warehouse.Root
			var err error
			if layout == "" {
				err = views.Build(g.dbPath(), root)
			} else {
				err = views.BuildLayout(g.dbPath(), root, views.Layout(layout))
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "rebuilt %s\n", g.dbPath())
			return nil
		},
	}
	cmd.Flags().StringVar(&layout, "layout", "", "absolute or relative (default: keep the file's)")
	return cmd
}
