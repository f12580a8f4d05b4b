package dcrextract

import (
	"strings"

	"github.com/solbehave/solbehave/internal/dcrgraph"
)

// EventKey names an event independently of the id an extractor gave it:
// `<function>.<branch>`, with `fallback` / `receive` for the unnamed entry
// points and `success` for an empty branch. Annotations and the validation
// view match relations by these keys, so graphs from different extractors
// compare.
func EventKey(e dcrgraph.Event) string {
	fn := e.Function
	if fn == "" {
		fn = "fallback"
		if strings.HasPrefix(strings.ToLower(e.ID), "receive") {
			fn = "receive"
		}
	}
	branch := strings.ToLower(strings.TrimSpace(e.Branch))
	if branch == "" {
		branch = "success"
	}
	return fn + "." + branch
}
