package dcrextract

import "strings"

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

// DefaultReference is the extractor whose graphs judge every model (O3's
// fixed setting) when none is named: the first LLM model, else static.
func DefaultReference(generators []string) string {
	return DefaultExtractors(generators)[0]
}
