package regen

import "strings"

// NatSpecModel is the model that writes the skeletons' NatSpec under the
// setting given (--natspec-model), bare ("" for the template): "auto" picks
// the first openai:<model> generator where an endpoint is set; a model named
// stays the model without one, so a later run of other generators plans the
// skeletons it made as current (the skeleton stage and the evaluation's pin
// both decide by this).
func NatSpecModel(setting string, generators []string, endpoint bool) string {
	switch setting {
	case "":
		return ""
	case "auto":
		if !endpoint {
			return ""
		}
		for _, g := range generators {
			if m, ok := strings.CutPrefix(strings.TrimSpace(g), KindOpenAI+":"); ok && m != "" {
				return m
			}
		}
		return ""
	}
	return strings.TrimPrefix(setting, KindOpenAI+":")
}
