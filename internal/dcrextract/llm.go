package dcrextract

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/schemas"
)

//go:embed prompt.md
var promptTemplate string

// LLMPurpose is the purpose of extraction requests in `llm_calls`.
const LLMPurpose = "dcr"

// PromptDigest identifies the prompt and schema the LLM extractor sends:
// part of every fingerprint built on its graphs.
func PromptDigest() string {
	sum := sha256.Sum256([]byte(promptTemplate + "\x00" + schemas.DCRGraphSchema))
	return hex.EncodeToString(sum[:])
}

// Completer is the part of *llm.Client the extractor uses.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// LLM is the paper's extractor: it prompts a model with the contract's
// source and ABI, validates the JSON graph it answers, asks once more with
// the validation problems when it is invalid, and rejects it if the second
// answer is invalid too.
type LLM struct {
	Client      Completer
	Name        string // the extractor's name in datasets, e.g. llm:qwen3
	Temperature float64
	MaxTokens   int
	Seed        int64
}

// LLMInput is what the LLM extractor shows the model.
type LLMInput struct {
	Contract string            // the contract's name
	Sources  map[string]string // file name -> source text
	ABI      json.RawMessage   // the contract's ABI
}

// Attempt is one request of an extraction and what became of its reply.
type Attempt struct {
	Request  llm.Request
	Response *llm.Response // nil when the call failed
	Err      error         // the call's error
	Problems []string      // why the reply was not a valid graph; none when it was
}

// LLMOutcome is an extraction: the graph, or why there is none.
type LLMOutcome struct {
	Graph    *dcrgraph.Graph // nil when rejected or when the call failed
	Attempts []Attempt
	Rejected bool // both replies were invalid
}

// Problems is the last attempt's validation problems, joined.
func (o *LLMOutcome) Problems() string {
	if len(o.Attempts) == 0 {
		return ""
	}
	return strings.Join(o.Attempts[len(o.Attempts)-1].Problems, "; ")
}

// Extract asks for the graph, at most twice.
func (x *LLM) Extract(ctx context.Context, in LLMInput) (*LLMOutcome, error) {
	if x.Client == nil {
		return nil, errors.New("dcrextract: LLM extractor has no client")
	}
	parsed, err := abi.JSON(bytes.NewReader(in.ABI))
	if err != nil {
		return nil, fmt.Errorf("dcrextract: ABI of %s: %w", in.Contract, err)
	}
	sys, user, retry := prompts(in)
	msgs := []llm.Message{{Role: "system", Content: sys}, {Role: "user", Content: user}}
	out := &LLMOutcome{}
	for try := 0; try < 2; try++ {
		req := llm.Request{Purpose: LLMPurpose, Messages: msgs, Temperature: x.Temperature, MaxTokens: x.MaxTokens, Seed: x.Seed}
		resp, err := x.Client.Complete(ctx, req)
		att := Attempt{Request: req, Response: resp, Err: err}
		if err != nil {
			out.Attempts = append(out.Attempts, att)
			return out, err
		}
		g, problems := validateReply(resp.Content, in.Contract, &parsed)
		att.Problems = problems
		out.Attempts = append(out.Attempts, att)
		if len(problems) == 0 {
			g.Extractor = x.Name
			out.Graph = g
			return out, nil
		}
		msgs = append(slicesClone(msgs), llm.Message{Role: "assistant", Content: resp.Content},
			llm.Message{Role: "user", Content: strings.ReplaceAll(retry, "{{PROBLEMS}}", "- "+strings.Join(problems, "\n- "))})
	}
	out.Rejected = true
	return out, nil
}

func slicesClone(m []llm.Message) []llm.Message { return append([]llm.Message(nil), m...) }

// prompts fills the template's system, user and retry sections.
func prompts(in LLMInput) (system, user, retry string) {
	sections := map[string]string{}
	var name string
	var b strings.Builder
	for _, line := range strings.SplitAfter(promptTemplate, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimSpace(line), "## "); ok && !strings.Contains(h, " ") {
			if name != "" {
				sections[name] = strings.TrimSpace(b.String())
			}
			name = h
			b.Reset()
			continue
		}
		b.WriteString(line)
	}
	sections[name] = strings.TrimSpace(b.String())
	files := make([]string, 0, len(in.Sources))
	for f := range in.Sources {
		files = append(files, f)
	}
	sort.Strings(files)
	var src strings.Builder
	for _, f := range files {
		fmt.Fprintf(&src, "// File: %s\n%s\n", f, in.Sources[f])
	}
	var compactABI bytes.Buffer
	if json.Compact(&compactABI, in.ABI) != nil {
		compactABI.Write(in.ABI)
	}
	r := strings.NewReplacer("{{CONTRACT}}", in.Contract, "{{ABI}}", compactABI.String(),
		"{{SOURCE}}", strings.TrimSpace(src.String()), "{{SCHEMA}}", strings.TrimSpace(schemas.DCRGraphSchema))
	return r.Replace(sections["system"]), r.Replace(sections["user"]), sections["retry"]
}

// validateReply parses a reply into a graph and checks it against the
// schema (dcrgraph.Parse) and the ABI: every event names a state-changing
// function of the contract with its argument types.
func validateReply(content, contract string, parsed *abi.ABI) (*dcrgraph.Graph, []string) {
	raw, ok := jsonObject(content)
	if !ok {
		return nil, []string{"the reply holds no JSON object"}
	}
	g, err := dcrgraph.Parse(raw)
	if err != nil {
		var ve *dcrgraph.ValidationError
		if errors.As(err, &ve) {
			return nil, ve.Problems
		}
		return nil, []string{err.Error()}
	}
	var problems []string
	for _, e := range g.Events {
		if p := abiProblem(e, parsed); p != "" {
			problems = append(problems, fmt.Sprintf("event %q: %s", e.ID, p))
		}
	}
	if strings.TrimSpace(g.Contract) != contract {
		problems = append(problems, fmt.Sprintf("contract is %q, want %q", g.Contract, contract))
	}
	return g, problems
}

// jsonObject finds the JSON object in a reply: the whole reply, a fenced
// block, or the text from the first { to the last }.
func jsonObject(content string) ([]byte, bool) {
	s := strings.TrimSpace(content)
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			s = strings.TrimSpace(rest[:j])
		}
	}
	start, end := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if start < 0 || end < start {
		return nil, false
	}
	return []byte(s[start : end+1]), true
}

// abiProblem checks an event's function and arguments against the ABI.
func abiProblem(e dcrgraph.Event, parsed *abi.ABI) string {
	if e.Function == "" {
		if parsed.HasFallback() || parsed.HasReceive() {
			return ""
		}
		return "the contract has no fallback or receive function"
	}
	var found []abi.Method
	for _, name := range slices.Sorted(maps.Keys(parsed.Methods)) {
		m := parsed.Methods[name]
		if m.RawName == e.Function {
			found = append(found, m)
		}
	}
	if len(found) == 0 {
		return fmt.Sprintf("the contract has no function %s", e.Function)
	}
	var why string
	for _, m := range found {
		if m.IsConstant() {
			why = fmt.Sprintf("%s is a view function: it changes no state", e.Function)
			continue
		}
		if len(m.Inputs) != len(e.Args) {
			why = fmt.Sprintf("%s takes %d arguments, the event proposes %d", m.Sig, len(m.Inputs), len(e.Args))
			continue
		}
		mismatch := ""
		for i, in := range m.Inputs {
			if canonicalType(e.Args[i].Type) != in.Type.String() {
				mismatch = fmt.Sprintf("argument %d of %s is a %s, not a %s", i, m.Sig, in.Type, e.Args[i].Type)
				break
			}
		}
		if mismatch == "" {
			return ""
		}
		why = mismatch
	}
	return why
}

// LLMInputFromRecord builds the LLM extractor's input from a corpus record
// and the original's compiler output.
func LLMInputFromRecord(rec *deploy.Record, out *solc.Output) (LLMInput, error) {
	c, err := rec.Target(out)
	if err != nil {
		return LLMInput{}, err
	}
	in := LLMInput{Contract: rec.Name(), ABI: c.ABI}
	if rec.Files != nil {
		in.Sources = rec.Files.Files
	}
	return in, nil
}
