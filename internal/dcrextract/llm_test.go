package dcrextract

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
)

const vaultSource = `pragma solidity ^0.4.24;
contract Vault {
    uint256 public balance;
    bool public initialized;
    function initialize() public { balance = 0; initialized = true; }
    function deposit(uint256 amount) public { balance += amount; }
    function withdraw(uint256 amount) public { require(initialized); require(balance >= amount); balance -= amount; }
}`

const vaultABI = `[
 {"type":"function","name":"initialize","inputs":[],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"deposit","inputs":[{"name":"amount","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"withdraw","inputs":[{"name":"amount","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"balance","inputs":[],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"},
 {"type":"function","name":"initialized","inputs":[],"outputs":[{"name":"","type":"bool"}],"stateMutability":"view"}
]`

const validVault = `{"contract": "Vault", "events": [
  {"id": "initializeSuccess", "function": "initialize", "branch": "success", "role": "any"},
  {"id": "depositSuccess", "function": "deposit", "branch": "success", "role": "any", "args": [{"type": "uint256", "value": 5}]},
  {"id": "withdrawSuccess", "function": "withdraw", "branch": "success", "role": "any", "args": [{"type": "uint256", "value": "1"}]},
  {"id": "withdrawFail", "function": "withdraw", "branch": "fail", "role": "any", "args": [{"type": "uint256", "value": "1"}]}],
 "relations": [
  {"type": "condition", "source": "initializeSuccess", "target": "withdrawSuccess"},
  {"type": "condition", "source": "depositSuccess", "target": "withdrawSuccess", "guard": "balance < 1"}]}`

// badRole is valid JSON but not a valid graph (role "admin").
const badRole = `{"contract": "Vault", "events": [{"id": "initializeSuccess", "function": "initialize", "role": "admin"}], "relations": []}`

// viewEvent names a view function and a function the contract lacks.
const viewEvent = `{"contract": "Vault", "events": [
  {"id": "balanceSuccess", "function": "balance", "role": "any"},
  {"id": "stealSuccess", "function": "steal", "role": "any"}], "relations": []}`

func vaultInput() LLMInput {
	return LLMInput{Contract: "Vault", Sources: map[string]string{"Vault.sol": vaultSource}, ABI: json.RawMessage(vaultABI)}
}

func extractor(t *testing.T, replies ...string) (*LLM, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
		if n >= len(replies) {
			return llmtest.Reply{Status: 500, Body: "no more replies"}
		}
		return llmtest.Reply{Content: replies[n]}
	})
	c := llm.New(llm.Options{BaseURL: srv.BaseURL(), Model: "test-model", APIKey: "k", Timeout: 5 * time.Second})
	return &LLM{Client: c, Name: "llm:test-model", MaxTokens: 4096, Seed: 42}, srv
}

func TestLLMValidReply(t *testing.T) {
	x, srv := extractor(t, "Here is the graph:\n```json\n"+validVault+"\n```")
	out, err := x.Extract(context.Background(), vaultInput())
	if err != nil {
		t.Fatal(err)
	}
	if out.Graph == nil || out.Rejected || len(out.Attempts) != 1 || srv.Count() != 1 {
		t.Fatalf("one valid reply should give a graph at once: %+v", out)
	}
	if out.Graph.Extractor != "llm:test-model" || len(out.Graph.Relations) != 2 {
		t.Fatalf("graph %+v", out.Graph)
	}
	req := srv.Requests()[0]
	if req.Seed != 42 || len(req.Messages) != 2 || req.Messages[0].Role != "system" ||
		!strings.Contains(req.Messages[0].Content, `"$defs"`) ||
		!strings.Contains(req.Last(), "function withdraw(uint256 amount)") || !strings.Contains(req.Last(), `"name":"deposit"`) {
		t.Fatalf("the prompt must carry the schema, the source and the ABI: %+v", req)
	}
	if out.Attempts[0].Request.Purpose != LLMPurpose {
		t.Fatalf("purpose %q", out.Attempts[0].Request.Purpose)
	}
}

func TestLLMInvalidThenValid(t *testing.T) {
	x, srv := extractor(t, badRole, validVault)
	out, err := x.Extract(context.Background(), vaultInput())
	if err != nil {
		t.Fatal(err)
	}
	if out.Graph == nil || out.Rejected || len(out.Attempts) != 2 {
		t.Fatalf("the second, valid reply should be taken: %+v", out)
	}
	if len(out.Attempts[0].Problems) == 0 || len(out.Attempts[1].Problems) != 0 {
		t.Fatalf("problems per attempt: %q, %q", out.Attempts[0].Problems, out.Attempts[1].Problems)
	}
	retry := srv.Requests()[1]
	if len(retry.Messages) != 4 || retry.Messages[2].Role != "assistant" || retry.Messages[2].Content != badRole ||
		!strings.Contains(retry.Last(), `role "admin"`) {
		t.Fatalf("the retry must show the model its reply and the validation error: %+v", retry.Messages)
	}
}

func TestLLMInvalidTwiceRejected(t *testing.T) {
	x, srv := extractor(t, "I cannot produce JSON, sorry.", viewEvent, validVault)
	out, err := x.Extract(context.Background(), vaultInput())
	if err != nil {
		t.Fatal(err)
	}
	if out.Graph != nil || !out.Rejected || len(out.Attempts) != 2 || srv.Count() != 2 {
		t.Fatalf("two invalid replies: rejected after exactly two requests, got %+v (%d requests)", out, srv.Count())
	}
	if p := out.Problems(); !strings.Contains(p, "view function") || !strings.Contains(p, "no function steal") {
		t.Fatalf("problems %q", p)
	}
	if !strings.Contains(strings.Join(out.Attempts[0].Problems, ";"), "no JSON object") {
		t.Fatalf("first problems %q", out.Attempts[0].Problems)
	}
}

func TestLLMCallFailure(t *testing.T) {
	x, _ := extractor(t) // every request answers HTTP 500
	x.Client = llm.New(llm.Options{BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKey: "k", Timeout: time.Second})
	out, err := x.Extract(context.Background(), vaultInput())
	if err == nil || out == nil || len(out.Attempts) != 1 || out.Attempts[0].Err == nil || out.Graph != nil {
		t.Fatalf("an unreachable endpoint is an error with its attempt recorded: %v %+v", err, out)
	}
}

func TestJSONObject(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                      `{"a":1}`,
		"```json\n{\"a\":1}\n```\nok":  `{"a":1}`,
		"Sure! {\"a\": {\"b\": 2}} :)": `{"a": {"b": 2}}`,
	} {
		got, ok := jsonObject(in)
		if !ok || string(got) != want {
			t.Errorf("jsonObject(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := jsonObject("no braces here"); ok {
		t.Error("a reply without an object should not yield one")
	}
}
