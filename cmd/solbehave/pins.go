package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/pipeline"
)

// A data folder is one evaluation: the choices every model's rows depend
// on are pinned in it by the first run that makes them (pipeline.Evaluation)
// and every later run takes them, whatever its generators. A run that names
// another value is refused; --repin KEY=VALUE changes a pin on purpose.

// perModel are the fingerprinted keys a run sets for its own models only:
// which models run, how each extracts its graphs, where its endpoint is,
// and the settings whose values separate rows by design (an O3 profile, a
// vuln ablation). O3's reference extractor separates rows too, but it
// judges every model: it is the evaluation's.
func perModel(key string) bool {
	switch key {
	case "generator", "extractor", "llm-url":
		return true
	case "reference-extractor":
		return false
	}
	return config.SeparatesRowsByDesign(key)
}

// evaluationKeys are the keys an evaluation pins: every fingerprinted stage
// parameter that is not a model's own, and the seed.
func evaluationKeys() []string {
	keys := map[string]bool{"seed": true}
	for _, stage := range stageKeys() {
		for _, k := range stage {
			if config.Fingerprinted(k) && !perModel(k) {
				keys[k] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(keys))
}

// resolved is a key's effective value as a pin records it: a default that
// depends on the run's generators (the NatSpec model, the reference
// extractor) resolved to the choice it makes, credentials removed. ok is
// false where the run makes no choice (several LLM generators and no
// reference named: O3 refuses the run).
func (g *globals) resolved(key string) (value string, ok bool) {
	v := config.Redact(g.cfg.String(key))
	gens := splitList(g.cfg.String("generator"))
	if len(gens) == 0 {
		gens = regen.DefaultGenerators
	}
	switch key {
	case "natspec-model":
		return resolveNatSpec(v, gens, g.cfg.String("llm-url")), true
	case "reference-extractor":
		r, err := dcrextract.ChooseReference(v, gens)
		return r, err == nil
	}
	return v, true
}

// resolveNatSpec is the skeleton stage's choice of NatSpec model, named as
// the skeletons dataset names it: openai:<model>, or "" for the template.
func resolveNatSpec(v string, gens []string, llmURL string) string {
	if m := regen.NatSpecModel(v, gens, llmURL != ""); m != "" {
		return regen.KindOpenAI + ":" + m
	}
	return ""
}

// explicit says whether the invocation itself set key (its command line,
// its configuration file or the release it starts from).
func (g *globals) explicit(key string) bool {
	src := g.cfg.Source(key)
	return src == config.Flag || src == config.File || src == config.Release
}

// parseRepins reads --repin KEY=VALUE values.
func parseRepins(values []string) (map[string]string, error) {
	keys := evaluationKeys()
	out := map[string]string{}
	for _, v := range values {
		k, val, ok := strings.Cut(v, "=")
		k = strings.TrimSpace(k)
		if !ok || !slices.Contains(keys, k) {
			return nil, fmt.Errorf("--repin %q: want KEY=VALUE with KEY one of the evaluation's choices (%s)", v, strings.Join(keys, ", "))
		}
		out[k] = val
	}
	return out, nil
}

// pinMode is how an invocation meets the pins.
type pinMode int

const (
	pinCheck  pinMode = iota // refuse a value other than the pinned one, write nothing (before a run writes)
	pinWrite                 // the same, and pin what no run pinned yet (a run, once it has an id)
	pinSurvey                // take the pins where unset, refuse nothing (status: what would a run with these values do)
)

// pinEvaluation makes this invocation run under the data folder's pins:
// every pinned key the invocation leaves unset takes the pinned value; one
// it sets to another value is refused unless --repin names it; the keys of
// the stages it runs (ran) that no run pinned yet are pinned now (mode
// pinWrite: a crawl pins no NatSpec model). It returns the keys whose pin
// this invocation changes.
func (g *globals) pinEvaluation(cmd *cobra.Command, runID string, repin map[string]string, mode pinMode, ran ...string) ([]string, error) {
	dry := mode != pinWrite
	own := map[string]bool{"seed": true}
	keys := stageKeys()
	for _, stage := range ran {
		for _, k := range keys[stage] {
			own[k] = true
		}
	}
	ev, err := pipeline.ReadEvaluation(g.data)
	if err != nil {
		return nil, err
	}
	for k, v := range repin {
		if err := g.cfg.Set(cmd.Flags(), k, v, config.Flag); err != nil {
			return nil, fmt.Errorf("--repin %s: %w", k, err)
		}
	}
	var changed, fresh []string
	for _, k := range evaluationKeys() {
		pin, pinned := ev.Pins[k]
		_, re := repin[k]
		switch {
		case pinned && !re && !g.explicit(k):
			if err := g.cfg.Set(cmd.Flags(), k, pin.Value, config.Pinned); err != nil {
				return nil, fmt.Errorf("the evaluation's %s: %w", k, err)
			}
			continue
		case pinned && !re && mode == pinSurvey:
			continue
		case pinned && !re:
			if v, ok := g.resolved(k); ok && v != pin.Value {
				return nil, refusedPin(k, v, pin, g.data)
			}
			continue
		}
		v, ok := g.resolved(k)
		if !ok || !pinned && !re && !own[k] {
			continue
		}
		if pinned && v != pin.Value {
			changed = append(changed, k)
		}
		if !pinned || v != pin.Value {
			fresh = append(fresh, k)
			ev.Pins[k] = pipeline.Pin{Value: v, Run: runID}
		}
	}
	moved, err := g.pinCorpus(cmd, ev, mode)
	if err != nil || dry || len(fresh) == 0 && !moved {
		return changed, err
	}
	return changed, pipeline.WriteEvaluation(g.data, ev)
}

func refusedPin(key, value string, pin pipeline.Pin, data string) error {
	shown := func(v string) string {
		if v == "" {
			return `"" (none: the default)`
		}
		return v
	}
	return fmt.Errorf("%s is pinned to %s for the evaluation in %s (by run %s): every model there is judged under it, "+
		"and this run names %s. Leave %s unset to run under the pinned value, or change it for every model on purpose with "+
		"--repin %s=%s (its units of every model become stale and run again)", key, shown(pin.Value), data, pin.Run,
		shown(value), key, key, value)
}

// pinCorpus records the corpus the folder's rows are made from: a run
// records the one it reads (saying so when it is another than the one
// before); with no --corpus, the recorded one is read. It says whether the
// record changed.
func (g *globals) pinCorpus(cmd *cobra.Command, ev *pipeline.Evaluation, mode pinMode) (bool, error) {
	abs, err := filepath.Abs(g.corpus)
	if err != nil {
		return false, err
	}
	before := g.recordedCorpus(cmd, ev, mode != pinCheck)
	switch {
	case before == "":
	case !cmd.Flags().Changed("corpus") && g.cfg.Source("corpus") == config.Default:
		g.corpus = before
		return false, nil
	case before == abs:
		return false, nil
	case mode == pinCheck: // the run's pinWrite says it
	case mode == pinSurvey:
		fmt.Fprintf(cmd.ErrOrStderr(), "note: the rows in %s were made from the corpus %s, not %s\n", g.data, before, g.corpus)
	default:
		newLoggerTo(g.logw, g.quiet).Warn("this run reads another corpus than the one the rows in the data folder were made from: "+
			"the units whose inputs differ run again", "corpus", g.corpus, "before", before)
	}
	ev.Corpus = corpusRecord(g.data, abs)
	return true, nil
}

// corpusRecord is how the evaluation records a corpus path: relative to
// the data folder where it can be (a checkout that moves with its data/
// and data/corpus/ keeps it right), else absolute.
func corpusRecord(data, abs string) string {
	absData, err := filepath.Abs(data)
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(absData, abs); err == nil {
		return rel
	}
	return abs
}

// recordedCorpus is the corpus the folder's rows were made from, as an
// absolute path; "" where none is recorded, or where it is gone (a moved
// or deleted corpus: said once, and the invocation's own is read).
func (g *globals) recordedCorpus(cmd *cobra.Command, ev *pipeline.Evaluation, say bool) string {
	if ev.Corpus == "" {
		return ""
	}
	path := ev.Corpus
	if !filepath.IsAbs(path) {
		path = filepath.Join(g.data, path)
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err == nil {
		return abs
	}
	if say {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: the corpus the rows in %s were made from (%s) is not there any more; reading %s\n", g.data, ev.Corpus, g.corpus)
	}
	return ""
}

// reportRepin says, before a run that changed pins runs anything, how many
// units of how many models the change makes stale at once (the stages it
// runs, as they plan now; the stages after them follow as their inputs
// change) and which models this run does not run again.
func reportRepin(cmd *cobra.Command, g *globals, env *pipeline.Env, changed []string) error {
	if len(changed) == 0 {
		return nil
	}
	r := &pipeline.Runner{Env: env}
	stale := map[string]int{} // model ("" : contract-level) -> units
	for _, s := range stagelist.All() {
		if err := g.cfg.Apply(stageFlags(s)); err != nil {
			return err
		}
		units, err := r.Plan(cmd.Context(), s)
		if err != nil {
			continue // a stage that cannot plan yet has nothing to make stale
		}
		for _, u := range units {
			if strings.HasPrefix(r.Why(s, u), "parameters changed") {
				stale[u.Model]++
			}
		}
	}
	models, err := pipeline.Models(g.data)
	if err != nil {
		return err
	}
	total, named := 0, 0
	for m, n := range stale {
		total += n
		if m != "" {
			named++
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "repinning %s: %d unit(s) stale now (%d of them of %d model(s), the rest contract-level); "+
		"every unit built on them follows. This run runs again those of its own generators; the other models in the folder (%s) "+
		"keep stale rows, hidden by the views, until a run names them.\n",
		strings.Join(changed, ", "), total, total-stale[""], named, strings.Join(models, ", "))
	return nil
}

// stageFlags binds a stage to a fresh flag set and returns it.
func stageFlags(s pipeline.Stage) *pflag.FlagSet {
	fs := pflag.NewFlagSet(s.Name(), pflag.ContinueOnError)
	s.BindFlags(fs)
	return fs
}
