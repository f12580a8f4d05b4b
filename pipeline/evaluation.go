package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// Evaluation is what a data folder pins of the evaluation its rows belong
// to: the choices every model's rows depend on (the skeletons' NatSpec
// model, O3's reference extractor, k, the seed, every budget and profile)
// and the corpus they were made from. The first run that makes a choice
// pins it (explicitly, or as its default resolved); every later run reuses
// it whatever its generators, so models that run one after another are
// judged as if they had run together. Only an explicit repin changes a pin.
type Evaluation struct {
	Corpus string         `json:"corpus,omitempty"` // the corpus the runs read: relative to the data folder where it can be
	Pins   map[string]Pin `json:"pins"`             // parameter key -> pin
}

// Pin is one pinned choice: its value (as config.Params records values)
// and the run that pinned it.
type Pin struct {
	Value string `json:"value"`
	Run   string `json:"run"`
}

func evaluationPath(data string) string { return filepath.Join(data, "state", "evaluation.json") }

// ReadEvaluation reads the data folder's pins; a folder no run pinned
// anything in gives an empty evaluation.
func ReadEvaluation(data string) (*Evaluation, error) {
	e := &Evaluation{Pins: map[string]Pin{}}
	b, err := inputfile.Read(evaluationPath(data), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return e, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, e); err != nil {
		return nil, fmt.Errorf("%s: %w", evaluationPath(data), err)
	}
	if e.Pins == nil {
		e.Pins = map[string]Pin{}
	}
	return e, nil
}

// WriteEvaluation stores the pins (atomically: a reader sees the old ones
// or the new ones).
func WriteEvaluation(data string, e *Evaluation) error {
	return writeJSON(evaluationPath(data), e)
}
