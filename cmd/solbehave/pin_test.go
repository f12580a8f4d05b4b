package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/pipeline"
)

// scriptedModels is an OpenAI-compatible endpoint that answers every prompt
// of the demo Vault validly, each model in its own words: NatSpec JSON, a
// DCR graph and function bodies. Two models' skeletons and graphs differ,
// so a skeleton or a reference graph that follows the last model shows.
// Given models, it serves those alone (404 for any other).
func scriptedModels(t *testing.T, serves ...string) *llmtest.Server {
	return llmtest.New(t, func(_ int, r llmtest.Request) llmtest.Reply {
		if len(serves) > 0 && !slices.Contains(serves, r.Model) {
			return llmtest.Reply{Status: 404, Body: "model not served here"}
		}
		last, system := r.Last(), ""
		if len(r.Messages) > 0 {
			system = r.Messages[0].Content
		}
		switch {
		case strings.Contains(last, "Write NatSpec documentation"):
			return llmtest.Reply{Content: fmt.Sprintf(`{"withdraw": {"notice": "Take amount out, as %s says."}, "deposit": {"notice": "Put amount in."}}`, r.Model)}
		case strings.Contains(system, "DCR"):
			value := 1 + len(r.Model)%2 // model-a and model-b extract different arguments
			return llmtest.Reply{Content: fmt.Sprintf(`{"contract": "Vault", "events": [
  {"id": "initializeSuccess", "function": "initialize", "branch": "success", "role": "any"},
  {"id": "depositSuccess", "function": "deposit", "branch": "success", "role": "any", "args": [{"type": "uint256", "value": 5}]},
  {"id": "withdrawSuccess", "function": "withdraw", "branch": "success", "role": "any", "args": [{"type": "uint256", "value": %d}]}],
 "relations": [{"type": "condition", "source": "initializeSuccess", "target": "withdrawSuccess"}]}`, value)}
		case strings.Contains(last, "function initialize() public\n```"):
			return llmtest.Reply{Content: llmtest.Fenced("function initialize() public {\n        initialized = true;\n    }")}
		case strings.Contains(last, "function deposit(uint256 amount) public\n```"):
			return llmtest.Reply{Content: "balance += amount;"}
		case strings.Contains(last, "function withdraw(uint256 amount) public\n```"):
			return llmtest.Reply{Content: llmtest.Fenced("function withdraw(uint256 amount) public {\n        balance -= amount;\n    }")}
		}
		return llmtest.Reply{Content: "?"}
	})
}

// llmRun is a small run of LLM generators up to O1 (O3 included) against srv.
func llmRun(t *testing.T, srv *llmtest.Server, corpus, data, generators string, extra ...string) {
	t.Helper()
	args := append(append([]string{}, smallBudgetRun...), "--until", "o1", "--generator", generators,
		"--llm-url", srv.BaseURL(), "--llm-retries", "0", "--dcr-annotations", "", "--corpus", corpus, "--data", data)
	runIn(t, append(args, extra...)...)
}

// TestLLMModelsShareOneEvaluation is issue 55: two runs with two LLM
// models, one after the other, judge both on one skeleton and one reference
// extractor (the first run's, pinned in the data folder): the second leaves
// every dataset of the first model as it was, and the two runs give the
// per-model digests of one run with both models. A run naming another
// NatSpec model is refused, saying what is pinned and how to change it.
func TestLLMModelsShareOneEvaluation(t *testing.T) {
	srv := scriptedModels(t)
	corpus, data := oneContractCorpus(t), t.TempDir()
	llmRun(t, srv, corpus, data, "openai:model-a")
	a := modelDigest(t, data, "openai:model-a")
	skeleton := queryRows(t, data, "SELECT DISTINCT skeleton_sha256 || ' ' || natspec_model FROM skeletons")
	llmRun(t, srv, corpus, data, "openai:model-b")
	if got := modelDigest(t, data, "openai:model-a"); got != a {
		t.Errorf("model-b's run changed model-a's rows:\nbefore\n%s\nafter\n%s", a, got)
	}
	if got := queryRows(t, data, "SELECT DISTINCT skeleton_sha256 || ' ' || natspec_model FROM skeletons"); strings.Join(got, ",") != strings.Join(skeleton, ",") ||
		len(got) != 1 || !strings.HasSuffix(got[0], " openai:model-a") {
		t.Errorf("skeletons after model-b's run %v, want the first run's %v (NatSpec by openai:model-a)", got, skeleton)
	}
	sha := strings.Fields(skeleton[0])[0]
	if got := queryRows(t, data, "SELECT DISTINCT skeleton_sha256 FROM generations"); len(got) != 1 || got[0] != sha {
		t.Errorf("generations record skeletons %v, want %s for both models", got, sha)
	}
	if got := queryRows(t, data, "SELECT DISTINCT extractor FROM replay_calls WHERE graph_setting = 'fixed'"); len(got) != 1 || got[0] != "llm:model-a" {
		t.Errorf("O3's fixed rows were judged by %v, want llm:model-a alone", got)
	}
	if got := queryRows(t, data, "SELECT count(DISTINCT graph_sha256) || ' ' || count(DISTINCT model) FROM o3_graphs WHERE graph_setting = 'fixed'"); got[0] != "1 2" {
		t.Errorf("O3's fixed rows: %s graph(s) over models, want one graph for two models", got[0])
	}
	if got := queryRows(t, data, "SELECT count(*) FROM sample_skeletons WHERE NOT current"); got[0] != "0" {
		t.Errorf("%s samples made from a skeleton that is not their contract's", got[0])
	}
	b := modelDigest(t, data, "openai:model-b")

	// One run with both models, the reference named as the first run pinned it.
	one := t.TempDir()
	llmRun(t, srv, corpus, one, "openai:model-a,openai:model-b", "--reference-extractor", "llm:model-a")
	if got := modelDigest(t, one, "openai:model-a"); got != a {
		t.Errorf("model-a: one run with both models differs from the two runs:\n%s\n%s", a, got)
	}
	if got := modelDigest(t, one, "openai:model-b"); got != b {
		t.Errorf("model-b: one run with both models differs from the two runs:\n%s\n%s", b, got)
	}

	// A third run naming another NatSpec model is refused before it writes.
	args := append(append([]string{}, smallBudgetRun...), "--until", "o3", "--generator", "openai:model-c", "--natspec-model", "openai:model-c",
		"--llm-url", srv.BaseURL(), "--dcr-annotations", "", "--corpus", corpus, "--data", data)
	out, err := solbehave(t, args...)
	if err == nil || !strings.Contains(err.Error(), "natspec-model is pinned to openai:model-a") || !strings.Contains(err.Error(), "--repin natspec-model=") {
		t.Fatalf("a run naming another NatSpec model: %v\n%s", err, out)
	}
	if got := modelDigest(t, data, "openai:model-a"); got != a {
		t.Errorf("the refused run changed model-a's rows")
	}
}

// TestCommandsReadTheFolderCorpus: after runs on a corpus other than the
// default, status and publish without --corpus read the one the rows were
// made from, and the release takes a new model.
func TestCommandsReadTheFolderCorpus(t *testing.T) {
	corpus, data := oneContractCorpus(t), t.TempDir()
	runIn(t, append(append([]string{}, smallBudgetRun...), "--until", "o1", "--generator", "mutant", "--corpus", corpus, "--data", data)...)
	out, err := solbehave(t, "status", "--data", data)
	if err != nil || strings.Contains(out, "cannot plan") {
		t.Errorf("status without --corpus: %v\n%s", err, out)
	}
	rel := filepath.Join(t.TempDir(), "release")
	if out, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--out", rel); err != nil {
		t.Fatalf("publish without --corpus: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(rel, "corpus", smallCorpusIDs[0])); err != nil {
		t.Fatalf("the release has no corpus: %v", err)
	}
	next := t.TempDir()
	runIn(t, append(append([]string{}, smallBudgetRun...), "--until", "o1", "--from-release", rel, "--data", next, "--generator", "reference")...)
	if got := modelCounts(t, next); !strings.Contains(got, "mutant=") || !strings.Contains(got, "reference=") {
		t.Errorf("sample_verdicts per model after the release took a model: %q", got)
	}
	out, err = solbehave(t, "status", "--data", data, "--corpus", t.TempDir())
	if err != nil || !strings.Contains(out, "made from the corpus") {
		t.Errorf("status given another corpus does not say so: %v\n%s", err, out)
	}
}

// TestReleaseKeepsItsSkeletonsAndGraphs: a release of an LLM model takes a
// new model at an endpoint that does not serve the published one: the run
// takes the release's skeletons and reference graphs as they are (asking
// the published model for nothing), so the new model is judged on exactly
// what the published one was.
func TestReleaseKeepsItsSkeletonsAndGraphs(t *testing.T) {
	corpus, data := oneContractCorpus(t), t.TempDir()
	llmRun(t, scriptedModels(t), corpus, data, "openai:model-a")
	rel := filepath.Join(t.TempDir(), "release")
	if out, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--out", rel); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	next, other := t.TempDir(), scriptedModels(t, "model-b")
	runIn(t, append(append([]string{}, smallBudgetRun...), "--until", "o1", "--from-release", rel, "--data", next,
		"--generator", "openai:model-b", "--llm-url", other.BaseURL(), "--llm-retries", "0")...)
	for _, r := range other.Requests() {
		if r.Model != "model-b" {
			t.Fatalf("the new model's run asked %s (%.60q)", r.Model, r.Last())
		}
	}
	published, here := digestLines(t, data), digestLines(t, next)
	if published["skeletons"] == "" || published["skeletons"] != here["skeletons"] {
		t.Errorf("skeletons: %s here, %s published", here["skeletons"], published["skeletons"])
	}
	graph := "SELECT graph_sha256 FROM dcr_graphs WHERE extractor = 'llm:model-a' AND status = 'ok'"
	if a, b := queryRows(t, data, graph), queryRows(t, next, graph); len(a) != 1 || strings.Join(a, "") != strings.Join(b, "") {
		t.Errorf("the reference graph: %v here, %v published", b, a)
	}
	if got := queryRows(t, next, "SELECT DISTINCT extractor FROM replay_calls WHERE graph_setting = 'fixed'"); len(got) != 1 || got[0] != "llm:model-a" {
		t.Errorf("O3's fixed rows of the new model were judged by %v, want llm:model-a", got)
	}
	if got := queryRows(t, next, "SELECT count(*) FROM replay_calls WHERE graph_setting = 'fixed' AND model = 'openai:model-b'"); got[0] == "0" {
		t.Error("the new model has no O3 row in the fixed setting")
	}
	if a, b := modelDigest(t, data, "openai:model-a"), modelDigest(t, next, "openai:model-a"); a != b {
		t.Errorf("the published model's rows differ after the import:\n%s\n%s", a, b)
	}

	// Repinning the NatSpec model on purpose rewrites the skeleton and says
	// what it makes stale; the imported model's samples were generated from
	// the old one, and publish says so.
	_, logs := runLogged(t, "run", "--quiet", "--only", "skeleton", "--repin", "natspec-model=", "--data", next)
	if !strings.Contains(logs, "repinning natspec-model: 1 unit(s) stale now") {
		t.Errorf("the repin does not say what it makes stale:\n%s", logs)
	}
	again := filepath.Join(t.TempDir(), "again")
	if out, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", next, "--out", again, "--allow-stale"); err != nil {
		t.Fatalf("publish --allow-stale: %v\n%s", err, out)
	}
	if card, _ := os.ReadFile(filepath.Join(again, "README.md")); !strings.Contains(string(card), "openai:model-a sample 0: generated from a skeleton that is not") {
		t.Errorf("the card does not list the samples of the old skeleton:\n%s", card)
	}
}

// TestGoneCorpusIsSaid: a data folder whose recorded corpus is gone (moved
// or deleted) says so and reads the corpus it is given.
func TestGoneCorpusIsSaid(t *testing.T) {
	data := t.TempDir()
	if err := pipeline.WriteEvaluation(data, &pipeline.Evaluation{Corpus: "../gone-corpus"}); err != nil {
		t.Fatal(err)
	}
	out, _ := solbehave(t, "status", "--data", data)
	if !strings.Contains(out, "is not there any more; reading data/corpus/demo") {
		t.Errorf("status over a folder whose corpus is gone:\n%s", out)
	}
}
