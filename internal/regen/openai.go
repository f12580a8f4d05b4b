package regen

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/schemas"
)

// openAI completes skeletons on an OpenAI-compatible endpoint, one function
// per request, in source order (stub-and-complete).
type openAI struct {
	model       string
	client      *llm.Client
	temperature float64
	maxTokens   int
}

func newOpenAI(model string, cfg Config) (Generator, error) {
	if model == "" {
		return nil, fmt.Errorf("openai generator needs a model: openai:<model>")
	}
	if cfg.LLM.BaseURL == "" {
		return nil, fmt.Errorf("generator openai:%s needs --llm-url", model)
	}
	o := cfg.LLM
	o.Model = model
	return &openAI{model: model, client: llm.New(o), temperature: cfg.Temperature, maxTokens: cfg.MaxTokens}, nil
}

func (g *openAI) Name() string { return KindOpenAI + ":" + g.model }
func (g *openAI) Kind() string { return KindOpenAI }
func (g *openAI) Digest(string) string {
	return fmt.Sprintf("openai model=%s temperature=%v max_tokens=%d prompt=%s", g.model, g.temperature, g.maxTokens, PromptVersion)
}

// FunctionSeed is the seed of the request for function index of a sample.
func FunctionSeed(sampleSeed int64, index int) int64 { return (sampleSeed + int64(index)) & 0x7fffffff }

// Generate completes the skeleton's holes one request at a time. The first
// failure ends the sample: a reply without a usable body is the model's
// failure (the sample exists and does not compile), a request the endpoint
// did not answer after the client's retries is not (the sample is out of
// Compile@k). A failed body never becomes a stub that compiles.
func (g *openAI) Generate(ctx context.Context, t Task) *Result {
	sk := t.Skeleton
	compiler := ""
	if t.Original != nil {
		compiler = t.Original.Compiler
	}
	bodies := map[int]string{}
	res := &Result{}
	for _, i := range sk.Holes() {
		if ctx.Err() != nil {
			res.Err = ctx.Err().Error()
			return res
		}
		f := sk.Functions[i]
		req := llm.Request{Purpose: "generate", Messages: generatePrompt(sk, bodies, i, compiler),
			Temperature: g.temperature, MaxTokens: g.maxTokens, Seed: FunctionSeed(t.Seed, i)}
		resp, err := g.client.Complete(ctx, req)
		row := llm.CallRow(t.ContractID, g.Name(), int64(t.Sample), f.Key, req, resp, err)
		var body string
		if err == nil {
			if body, err = ExtractBody(resp.Content, f, declaringContract(sk, f)); err != nil {
				row.Error = "unusable reply: " + err.Error()
				err = &llm.Error{Kind: llm.KindBadReply, Msg: err.Error()}
			}
		}
		res.Calls = append(res.Calls, row)
		if err != nil {
			res.Failed++
			res.Failure = failureOf(err)
			res.Err = fmt.Sprintf("%s failure at %s: %v", res.Failure, f.Key, err)
			if llm.IsTransient(err) {
				res.Transient++
			}
			return res
		}
		bodies[i] = body
		res.Generated++
	}
	res.Files = sk.Fill(bodies, nil, "")
	res.Target = res.Files[sk.File]
	return res
}

// failureOf classifies a failed request: a reply that came but held no
// usable code is the model's failure; anything the endpoint did (timeout,
// 429, 5xx, refused connection, 401/403/404, cancellation) is not.
func failureOf(err error) string {
	var e *llm.Error
	if errors.As(err, &e) && e.Kind == llm.KindBadReply {
		return FailureModel
	}
	return FailureEndpoint
}

// RepairTask is one repair request: the same model fixes a sample's first
// compiler error.
type RepairTask struct {
	ContractID, Model string // Model as the datasets name it (openai:<model>)
	Sample            int
	Seed              int64
	Files             map[string]string // every file of the sample
	File              string            // the target contract's file
	Target            string            // the target contract
	Compiler          string
	Error             string // the first compiler error, formatted
	Temperature       float64
	MaxTokens         int
}

// shownFiles are the files a repair request shows: those of the target's
// inheritance chain (the ones that hold regenerated bodies), base files
// first, read from the sample's text; the target's file alone when the
// chain cannot be read.
func (t RepairTask) shownFiles() []string {
	chain, err := soltext.Chain(t.Files, t.File, t.Target)
	if err != nil {
		return []string{t.File}
	}
	files := soltext.ChainFiles(chain)
	for _, f := range files {
		if f == t.File {
			return files
		}
	}
	return append(files, t.File)
}

// Repair asks for fixed definitions of the contracts the error is in and
// merges every definition of the reply into the file that defines it. The
// row records the call whatever happens.
func Repair(ctx context.Context, c *llm.Client, t RepairTask) (map[string]string, schemas.LLMCall, error) {
	shown := t.shownFiles()
	req := llm.Request{Purpose: "repair", Messages: repairPrompt(skeleton.ShowFiles(t.Files, shown), len(shown), t.Target, t.Error, t.Compiler),
		Temperature: t.Temperature, MaxTokens: t.MaxTokens, Seed: t.Seed}
	resp, err := c.Complete(ctx, req)
	row := llm.CallRow(t.ContractID, t.Model, int64(t.Sample), "", req, resp, err)
	if err != nil {
		return nil, row, err
	}
	code := SampleCode(resp.Content)
	if strings.TrimSpace(code) == "" {
		row.Error = "unusable reply: " + ErrNoCode.Error()
		return nil, row, ErrNoCode
	}
	fixed, err := MergeFiles(t.Files, t.File, code)
	if err != nil {
		row.Error = "unusable reply: " + err.Error()
		return nil, row, err
	}
	return fixed, row, nil
}
