package pipeline

import (
	"encoding/json"

	"github.com/solbehave/solbehave/internal/atomicfile"
)

// writeJSON writes one of the data folder's state files (plans, pins, run
// state, model names, imported releases) as indented JSON, atomically: a
// reader sees the old content or the new. atomicfile makes the folder.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b, 0o644)
}
