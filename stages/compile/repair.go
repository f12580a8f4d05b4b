package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// The repair pass (solbehave paper §IV-C): an LLM sample that does not
// compile gets one request carrying solc's first error with its source
// excerpt; the reply is compiled once more. Mutant, reference and imported
// samples are not repaired.

// repairCall is the llm_calls row of one repair request.
type repairCall struct {
	row       schemas.LLMCall
	transient bool
}

// repair sends one repair request and compiles its result.
func (s *Stage) repair(ctx context.Context, c *compiler, g schemas.Generation, files map[string]string, raw outcome, row schemas.Sample) (schemas.Sample, *repairCall, error) {
	client, err := s.client(c.env, g.Model)
	if err != nil {
		return row, nil, failure.New(failure.LLM, false, err)
	}
	row.RepairAttempted = true
	start := time.Now()
	file := c.file(files)
	task := regen.RepairTask{ContractID: g.ContractID, Model: g.Model, Sample: int(g.Sample), Seed: g.Seed,
		Files: files, File: file, Target: c.target, Compiler: c.rec.Source.CompilerVersion, Error: raw.Formatted,
		Temperature: s.RepairTemperature, MaxTokens: s.RepairMaxTokens}
	repaired, call, err := regen.Repair(ctx, client, task)
	row.RepairMS = time.Since(start).Milliseconds()
	rc := &repairCall{row: call, transient: llm.IsTransient(err)}
	if err != nil {
		return row, rc, nil // still the raw outcome: compiled_repaired = compiled_raw = false
	}
	if err := writeRepaired(c.env.Data, g, file, repaired, &row); err != nil {
		return row, rc, err
	}
	res, cost, err := c.compileKeepingInterface(ctx, g.ContractID, repaired, ReasonRepairChangedInterface)
	if err != nil {
		return row, rc, err
	}
	row.RecompileMS, row.RecompileSolcStarts, row.RecompileSolcYouth = cost.ms, cost.starts, cost.youth
	res.fill(&row)
	return row, rc, nil
}

// writeRepaired stores a repaired sample beside the generated one: its
// target file (<k>.repaired.sol) and, for a multi-file source, every file
// (<k>.repaired.files.json: a repair may fix a base in another file).
func writeRepaired(data string, g schemas.Generation, file string, files map[string]string, row *schemas.Sample) error {
	base := path.Join(regen.SampleDir(g.ContractID, g.Model), strconv.Itoa(int(g.Sample))+".repaired")
	target := []byte(files[file])
	if err := regen.WriteSampleFile(data, base+".sol", target); err != nil {
		return err
	}
	sum := sha256.Sum256(target)
	row.SourcePath, row.SourceSHA256 = base+".sol", hex.EncodeToString(sum[:])
	if g.FilesPath == "" {
		return nil
	}
	b, err := json.Marshal(files)
	if err != nil {
		return err
	}
	row.FilesPath = base + ".files.json"
	return regen.WriteSampleFile(data, row.FilesPath, b)
}

func (s *Stage) repairConfig(generator string) string {
	if generator != regen.KindOpenAI || !s.Repair {
		return "no repair"
	}
	return fmt.Sprintf("repair temperature=%v max_tokens=%d prompt=%s", s.RepairTemperature, s.RepairMaxTokens, regen.PromptVersion)
}

// client returns the repair client for a model (openai:<name>).
func (s *Stage) client(env *pipeline.Env, model string) (*llm.Client, error) {
	name, ok := cutModel(model)
	if !ok {
		return nil, fmt.Errorf("model %q is not openai:<model>", model)
	}
	if s.LLM.BaseURL == "" {
		return nil, errors.New("repairs need --llm-url")
	}
	s.poolOnce.Do(func() { s.pool = llm.NewPool(s.LLM, env.Data) })
	return s.pool.Client(name), nil
}

func cutModel(model string) (string, bool) {
	name, ok := strings.CutPrefix(model, regen.KindOpenAI+":")
	return name, ok && name != ""
}
