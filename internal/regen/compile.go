package regen

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
)

// CompileInput is the compile input of a sample (or skeleton) of rec: the
// original's compiler, optimizer, runs and EVM version, files as the
// sources, and, for a standard-JSON record, every other recorded setting
// (remappings, libraries, viaIR, ...) kept as it was.
func CompileInput(rec *deploy.Record, files map[string]string) (solc.Input, error) {
	in := rec.CompileInput(files)
	if rec.Files == nil || len(bytes.TrimSpace(rec.Files.StandardJSON)) == 0 {
		return in, nil
	}
	raw := bytes.TrimSpace(rec.Files.StandardJSON)
	if bytes.HasPrefix(raw, []byte("{{")) && bytes.HasSuffix(raw, []byte("}}")) {
		raw = raw[1 : len(raw)-1]
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return solc.Input{}, fmt.Errorf("recorded standard JSON: %w", err)
	}
	sources := map[string]map[string]string{}
	for name, text := range files {
		sources[name] = map[string]string{"content": text}
	}
	b, err := json.Marshal(sources)
	if err != nil {
		return solc.Input{}, err
	}
	doc["sources"] = b
	if in.StandardJSON, err = json.Marshal(doc); err != nil {
		return solc.Input{}, err
	}
	in.Sources = nil
	return in, nil
}
