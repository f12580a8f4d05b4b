package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/pipeline"
)

// keySpace is a fresh flag set holding every configuration key at its
// default: the global flags, `run`'s engine flags, every stage's flags and
// publish's release metadata.
func keySpace() *pflag.FlagSet {
	fs := pflag.NewFlagSet("config", pflag.ContinueOnError)
	(&globals{}).bind(fs)
	var e engineFlags
	e.bind(fs)
	for _, s := range stagelist.All() {
		s.BindFlags(fs)
	}
	new(release.Meta).Bind(fs) // publish's title, creators, release-version, license
	return fs
}

// loadConfig makes the effective configuration the command runs with.
func (g *globals) loadConfig(cmd *cobra.Command) error {
	g.cmdline = commandLine(cmd)
	g.logw = cmd.ErrOrStderr()
	cfg, err := config.Load(keySpace(), cmd.Flags(), g.configPath)
	if err != nil {
		return err
	}
	g.cfg = cfg
	registerURLSecrets(cmd.Flags())
	return nil
}

// registerURLSecrets registers the credentials of every URL the command's
// flags hold, from the command line or the configuration file (an endpoint
// with user:password@, a key in a query), before anything is written.
func registerURLSecrets(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if strings.Contains(v, "://") {
				redact.AddURL(v)
			}
		}
	})
}

// stageKeys lists each stage's keys (from fresh stages).
func stageKeys() map[string][]string {
	var fresh []config.Binder
	for _, s := range stagelist.All() {
		fresh = append(fresh, s)
	}
	return config.StageKeys(fresh)
}

// runInfo is what this invocation's manifests record: its id and each
// stage's fingerprinted parameters.
func (g *globals) runInfo(id string) *pipeline.RunInfo {
	ri := &pipeline.RunInfo{ID: id, Params: map[string]map[string]string{}}
	for stage, keys := range stageKeys() {
		ri.Params[stage] = g.effective(g.cfg.Params(keys))
	}
	return ri
}

// effective fills the parameters a stage derives from an unset flag with the
// value it runs with, so manifests (status --explain, the release card) say
// what ran: no --generator runs the two controls, no --extractor each
// generator's default extractor, no --reference-extractor the one LLM
// generator's (or static), --natspec-model auto the model it picks.
func (g *globals) effective(params map[string]string) map[string]string {
	gens := splitList(g.cfg.String("generator"))
	if len(gens) == 0 {
		gens = regen.DefaultGenerators
	}
	if v, ok := params["generator"]; ok && v == "" {
		params["generator"] = strings.Join(gens, ",")
	}
	if v, ok := params["extractor"]; ok && v == "" {
		params["extractor"] = strings.Join(dcrextract.DefaultExtractors(gens), ",")
	}
	if v, ok := params["natspec-model"]; ok {
		params["natspec-model"] = resolveNatSpec(v, gens, g.cfg.String("llm-url"))
	}
	if v, ok := params["reference-extractor"]; ok && v == "" {
		params["reference-extractor"], _ = dcrextract.ChooseReference("", gens) // "" where the run is refused
	}
	return params
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// parametersJSON is the effective configuration as the runs dataset and
// `solbehave config --format json` give it.
func (g *globals) parametersJSON() string {
	b, err := json.Marshal(g.cfg.Parameters())
	if err != nil {
		panic(err) // strings, numbers, booleans and lists only
	}
	return string(b)
}

func newConfigCmd(g *globals, stages []pipeline.Stage) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "config [stage flags]",
		Short: "Print the effective configuration (" + config.FileName + " or --config FILE, under the flags given) and each value's source",
		Long: "Every global and stage flag is a key of " + config.FileName + " (flag names at the top level, e.g. " +
			"`o2-budget = 300`); the file is read from the working folder, or from --config FILE; flags given to a command " +
			"override it for that invocation. This prints every key's effective value with where it came from " +
			"(default, file, flag, or pinned by the evaluation in --data), as TOML that can serve as a solbehave.toml; --format json prints the values " +
			"only, exactly as the runs dataset records them. Keys marked `not fingerprinted` change how a run runs, " +
			"not what it produces.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := g.pinEvaluation(cmd, "", nil, pinSurvey); err != nil { // a data folder's pins, as a run there takes them
				return err
			}
			switch format {
			case "json":
				_, err := fmt.Fprintln(cmd.OutOrStdout(), g.parametersJSON())
				return err
			case "toml", "":
				return writeConfigTOML(cmd.OutOrStdout(), g.cfg, stages)
			}
			return fmt.Errorf("--format %q: want toml or json", format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "toml", "toml (values, sources, sections) or json (values only)")
	var e engineFlags
	e.bind(cmd.Flags())
	for _, s := range stages {
		s.BindFlags(cmd.Flags())
	}
	return cmd
}

// writeConfigTOML prints the keys by section (global and engine, then each
// stage in order; a shared key under its first stage), each with its source.
func writeConfigTOML(w io.Writer, cfg *config.Config, stages []pipeline.Stage) error {
	file := "none (defaults and flags)"
	if cfg.Path != "" {
		file = cfg.Path
	}
	fmt.Fprintf(w, "# solbehave effective configuration; file: %s\n", file)
	keys := stageKeys()
	owner := map[string]string{}
	for _, s := range stages {
		for _, k := range keys[s.Name()] {
			if owner[k] == "" {
				owner[k] = s.Name()
			}
		}
	}
	sections := []string{""}
	for _, s := range stages {
		sections = append(sections, s.Name())
	}
	for _, sec := range sections {
		var lines []string
		for _, k := range cfg.Keys() {
			if owner[k] == sec {
				lines = append(lines, configLine(cfg, k))
			}
		}
		if len(lines) == 0 {
			continue
		}
		title := "global and engine"
		if sec != "" {
			title = "stage " + sec
		}
		fmt.Fprintf(w, "\n# --- %s ---\n%s\n", title, strings.Join(lines, "\n"))
	}
	return nil
}

func configLine(cfg *config.Config, k string) string {
	v := cfg.Get(k)
	if s, ok := v.(string); ok {
		v = config.Redact(s)
	}
	b, err := toml.Marshal(map[string]any{k: v})
	if err != nil {
		return fmt.Sprintf("# %s: %v", k, err)
	}
	note := string(cfg.Source(k))
	if !config.Fingerprinted(k) {
		note += ", not fingerprinted"
	}
	return fmt.Sprintf("%-40s # %s", strings.TrimSpace(string(b)), note)
}

// commandLine is the command as given: its path after `solbehave` and the
// flags set on the command line (before the configuration sets any), with
// credentials in URL values removed.
func commandLine(cmd *cobra.Command) string {
	parts := strings.Fields(cmd.CommandPath())[1:]
	var set []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		v := config.Text(config.Value(f))
		set = append(set, "--"+f.Name+"="+config.Redact(v))
	})
	sort.Strings(set)
	return strings.Join(append(parts, set...), " ")
}
