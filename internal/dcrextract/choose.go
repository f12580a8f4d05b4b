package dcrextract

import (
	"fmt"
	"strings"
)

// LLMPrefix starts the name of an LLM extractor: llm:<model>.
const LLMPrefix = "llm:"

// llmGenerator is the generator kind whose models also extract graphs
// (regen's openai:<model>).
const llmGenerator = "openai:"

// DefaultExtractors are the extractors of a run that names none: the paper
// has every model it evaluates extract the graphs (llm:<model> for each
// openai:<model> generator); without an LLM generator, the static rules.
func DefaultExtractors(generators []string) []string {
	var out []string
	for _, g := range generators {
		if m, ok := strings.CutPrefix(strings.TrimSpace(g), llmGenerator); ok && m != "" {
			out = append(out, LLMPrefix+m)
		}
	}
	if len(out) == 0 {
		return []string{StaticName}
	}
	return out
}

// ReferenceFlagUsage describes --reference-extractor, which the dcr and o3 stages share.
const ReferenceFlagUsage = "O3: extractor whose sequences judge every model, graph_setting fixed (default: llm:<model> of the one " +
	"--generator openai:<model>, else static; required with several LLM generators); its graphs are extracted whatever --extractor says"

// DefaultReference is the extractor whose graphs judge every model (O3's
// fixed setting) when none is named: the first LLM model, else static.
func DefaultReference(generators []string) string {
	return DefaultExtractors(generators)[0]
}

// ChooseReference is the reference extractor of a run: the named one, or
// DefaultReference when at most one LLM generator runs. With several, the
// first one given is no choice (the paper has the strongest model extract
// the fixed graphs, §V-C, and which is strongest is the user's call), so it
// refuses, saying how to choose.
func ChooseReference(named string, generators []string) (string, error) {
	if named = strings.TrimSpace(named); named != "" {
		return named, nil
	}
	llms := DefaultExtractors(generators)
	if len(llms) > 1 {
		return "", fmt.Errorf("%d LLM generators and no --reference-extractor: name the extractor whose graphs judge "+
			"every model in O3's fixed setting (the paper: the strongest model, §V-C), one of %s, e.g. --reference-extractor %s "+
			"(or reference-extractor in solbehave.toml)", len(llms), strings.Join(llms, ", "), llms[0])
	}
	return llms[0], nil
}
