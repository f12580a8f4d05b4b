package skeleton

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// natspecPromptVersion is part of the prompt; change it with the prompt.
const natspecPromptVersion = "natspec-1"

func (s *Stage) llmClient(env *pipeline.Env, model string) *llm.Client {
	s.clientOnce.Do(func() { s.client = llm.NewPool(s.LLM, env.Data).Client(model) })
	return s.client
}

// modelDocs asks the model for the NatSpec of every documented function of
// the (template) skeleton; nil docs mean the template stays.
func (s *Stage) modelDocs(ctx context.Context, env *pipeline.Env, contractID, model string, sk *skeleton.Skeleton, compiler string) (map[string]*skeleton.Doc, schemas.LLMCall) {
	req := llm.Request{Purpose: "natspec", Messages: natspecPrompt(sk), Temperature: 0.2, MaxTokens: 4096, Seed: env.Seed & 0x7fffffff}
	resp, err := s.llmClient(env, model).Complete(ctx, req)
	row := llm.CallRow(contractID, regen.KindOpenAI+":"+model, -1, "", req, resp, err)
	if err != nil {
		return nil, row
	}
	docs, perr := parseDocs(resp.Content)
	if perr != "" {
		row.Error = "unusable reply: " + perr
		return nil, row
	}
	return docs, row
}

func natspecPrompt(sk *skeleton.Skeleton) []llm.Message {
	var list strings.Builder
	for _, f := range sk.Functions {
		if f.Visibility == "public" || f.Visibility == "external" {
			list.WriteString("- " + f.Key + ": " + headerOf(sk, f) + "\n")
		}
	}
	subject := "Here is a Solidity file"
	if len(sk.ChainFiles()) > 1 {
		subject = "Here are the Solidity files of a contract and its bases, each after a `// File: <name>` line"
	}
	user := subject + " (" + natspecPromptVersion + "):\n\n```solidity\n" + sk.Show(sk.Files) + "\n```\n\n" +
		"Write NatSpec documentation for these functions of contract " + sk.Target + ":\n" + list.String() + "\n" +
		"Reply with one JSON object mapping each function key above to " +
		`{"notice": "<one sentence>", "params": {"<parameter name>": "<description>"}, "returns": ["<description of each return value>"]}` +
		", and nothing else."
	return []llm.Message{{Role: "system", Content: "You document Solidity smart contracts precisely and briefly."}, {Role: "user", Content: user}}
}

func headerOf(sk *skeleton.Skeleton, f skeleton.Function) string {
	if f.Hole() {
		return sk.Header(f.Index)
	}
	return f.Signature
}

// parseDocs reads the JSON object of the reply (fenced or not).
func parseDocs(reply string) (map[string]*skeleton.Doc, string) {
	code := regen.ExtractCode(reply, "{")
	start, end := strings.IndexByte(code, '{'), strings.LastIndexByte(code, '}')
	if start < 0 || end < start {
		return nil, "no JSON object in the reply"
	}
	var docs map[string]*skeleton.Doc
	if err := json.Unmarshal([]byte(code[start:end+1]), &docs); err != nil {
		return nil, "the reply's JSON does not parse: " + err.Error()
	}
	return docs, ""
}

// publishedSkeleton is the release's skeleton of the contract (see
// pipeline.PublishedDir) where this folder started from one and it is the
// skeleton of the same source and scope as tmpl (the template skeleton
// built here): its NatSpec is the one the published models were given.
func publishedSkeleton(data, contractID string, tmpl *skeleton.Skeleton) *skeleton.Skeleton {
	b, ok := pipeline.ReadPublished(data, path.Join("skeletons", warehouse.Sanitize(contractID), "skeleton.json"))
	if !ok {
		return nil
	}
	var pub skeleton.Skeleton
	if json.Unmarshal(b, &pub) != nil || pub.Format != tmpl.Format || pub.Target != tmpl.Target || pub.Scope != tmpl.Scope ||
		pub.File != tmpl.File || len(pub.Functions) != len(tmpl.Functions) || len(pub.Files) != len(tmpl.Files) {
		return nil
	}
	for i, f := range pub.Functions {
		t := tmpl.Functions[i]
		if f.Key != t.Key || f.Signature != t.Signature || f.Stub != t.Stub || f.HasBody != t.HasBody {
			return nil
		}
	}
	return &pub
}
