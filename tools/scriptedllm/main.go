// Command scriptedllm is a scripted OpenAI-compatible endpoint for trying
// the pipeline's LLM paths end to end without a model: it answers every
// prompt solbehave sends (NatSpec, function bodies, repairs, DCR graphs)
// validly and deterministically, each model in its own words, from the
// corpus it is given.
//
//	go run ./tools/scriptedllm --corpus data/corpus/demo --addr 127.0.0.1:8089
//	solbehave run --generator openai:model-a --llm-url http://127.0.0.1:8089/v1 ...
//
// A body is the original's (found in the corpus by its header); a model
// whose name ends in "b" drops the body's first require, so two models
// differ the way two real ones do. NatSpec notices name the model; DCR
// graphs have one success event per state-changing function of the ABI,
// with arguments that differ by model. Nothing here is a benchmark: it
// exists so that the evaluation's model-by-model behaviour can be shown
// and checked (issue 55's note) with real HTTP and the real client.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	corpus := flag.String("corpus", "data/corpus/demo", "corpus folder (Etherscan record layout) the bodies come from")
	addr := flag.String("addr", "127.0.0.1:8089", "listen address")
	flag.Parse()
	sources, err := readSources(*corpus)
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		system, last := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		reply(w, answer(req.Model, system, last, sources))
	})
	log.Printf("scripted OpenAI-compatible endpoint at http://%s/v1", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}

func reply(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "scripted", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}}})
}

func answer(model, system, last string, sources []string) string {
	switch {
	case strings.Contains(last, "Write NatSpec documentation"):
		return natspec(model, last)
	case strings.Contains(system, "DCR"):
		return graph(model, last)
	case strings.Contains(last, "Write the body of this function"):
		return body(model, last, sources)
	}
	return "?" // a repair or anything else: an unusable reply, recorded as such
}

var docKey = regexp.MustCompile(`(?m)^- ([^:\n]+): `)

func natspec(model, prompt string) string {
	docs := map[string]any{}
	for _, m := range docKey.FindAllStringSubmatch(prompt, -1) {
		docs[m[1]] = map[string]string{"notice": fmt.Sprintf("What %s does, as %s reads it.", m[1], model)}
	}
	b, _ := json.Marshal(docs)
	return string(b)
}

var header = regexp.MustCompile("(?s)marked `[^`]*` above:\n\n```solidity\n(.*?)\n```")

// body answers with the original's body of the function asked for.
func body(model, prompt string, sources []string) string {
	m := header.FindStringSubmatch(prompt)
	if m == nil {
		return "?"
	}
	var lines []string
	for _, l := range strings.Split(m[1], "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "///") {
			lines = append(lines, l)
		}
	}
	head := strings.TrimSpace(strings.Join(lines, "\n"))
	b, ok := findBody(head, sources)
	if !ok {
		b = "{ revert(); }"
	}
	if loc := firstRequire.FindStringIndex(b); loc != nil && strings.HasSuffix(model, "b") {
		b = b[:loc[0]] + b[loc[1]:]
	}
	return "```solidity\n" + head + " " + b + "\n```"
}

var firstRequire = regexp.MustCompile(`require\([^;]*\);`)

// findBody finds head in a source and returns the body after it, braces matched.
func findBody(head string, sources []string) (string, bool) {
	for _, src := range sources {
		i := strings.Index(src, head)
		if i < 0 {
			continue
		}
		open := strings.IndexByte(src[i+len(head):], '{')
		if open < 0 {
			continue
		}
		start, depth := i+len(head)+open, 0
		for j := start; j < len(src); j++ {
			switch src[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return src[start : j+1], true
				}
			}
		}
	}
	return "", false
}

var abiBlock = regexp.MustCompile(`(?s)\nABI:\n(.*?)\n\nSource:`)
var contractLine = regexp.MustCompile(`(?m)^Contract: (\S+)`)

// graph is one success event per state-changing function, arguments by model.
func graph(model, prompt string) string {
	var abi []struct {
		Type, Name, StateMutability string
		Inputs                      []struct{ Type string }
	}
	if m := abiBlock.FindStringSubmatch(prompt); m != nil {
		json.Unmarshal([]byte(m[1]), &abi)
	}
	contract := ""
	if m := contractLine.FindStringSubmatch(prompt); m != nil {
		contract = m[1]
	}
	n := 1 + len(model)%2
	var events []map[string]any
	for _, f := range abi {
		if f.Type != "function" || f.StateMutability == "view" || f.StateMutability == "pure" {
			continue
		}
		var args []map[string]any
		for _, in := range f.Inputs {
			args = append(args, map[string]any{"type": in.Type, "value": argument(in.Type, n)})
		}
		ev := map[string]any{"id": f.Name + "Success", "function": f.Name, "branch": "success", "role": "any", "args": args}
		if f.StateMutability == "payable" {
			ev["value"] = fmt.Sprintf("%d wei", n)
		}
		events = append(events, ev)
	}
	var relations []map[string]string
	if len(events) > 1 && n == 1 {
		relations = append(relations, map[string]string{"type": "condition", "source": events[0]["id"].(string), "target": events[1]["id"].(string)})
	}
	b, _ := json.Marshal(map[string]any{"contract": contract, "events": events, "relations": relations})
	return string(b)
}

func argument(typ string, n int) any {
	switch {
	case strings.HasSuffix(typ, "]"):
		return "[]"
	case strings.HasPrefix(typ, "uint"), strings.HasPrefix(typ, "int"):
		return n
	case typ == "address":
		return fmt.Sprintf("0x%040d", n)
	case typ == "bool":
		return n == 1
	case strings.HasPrefix(typ, "bytes") && typ != "bytes":
		return "0x" + strings.Repeat("00", 32)[:2*atoiSuffix(typ)]
	}
	return fmt.Sprintf("%d", n)
}

func atoiSuffix(typ string) int {
	n := 0
	fmt.Sscanf(strings.TrimPrefix(typ, "bytes"), "%d", &n)
	return n
}

// readSources reads every contract's verified source (each file of a
// multi-file one).
func readSources(corpus string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(corpus, "*", "getsourcecode.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no getsourcecode.json under %s (%v)", corpus, err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var env struct{ Result json.RawMessage }
		if json.Unmarshal(b, &env) != nil {
			continue
		}
		var rec []struct{ SourceCode string }
		if json.Unmarshal(env.Result, &rec) != nil {
			var one struct{ SourceCode string }
			json.Unmarshal(env.Result, &one)
			rec = append(rec, one)
		}
		for _, r := range rec {
			out = append(out, multiFile(r.SourceCode)...)
		}
	}
	return out, nil
}

// multiFile splits Etherscan's {{...}} standard-JSON source into its files.
func multiFile(src string) []string {
	if !strings.HasPrefix(src, "{{") {
		return []string{src}
	}
	var std struct {
		Sources map[string]struct{ Content string }
	}
	if json.Unmarshal([]byte(src[1:len(src)-1]), &std) != nil {
		return []string{src}
	}
	var out []string
	for _, f := range std.Sources {
		out = append(out, f.Content)
	}
	return out
}
