// Package llmtest is an in-process OpenAI-compatible chat-completions server
// for tests: a real HTTP server (httptest) whose replies a script chooses,
// per request, so tests can play fenced code, prose, malformed JSON, HTTP
// errors and timeouts against the real client.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Message is one chat message as the server received it.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is what the server received.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
	MaxTokens   int       `json:"max_tokens"`
	Seed        int64     `json:"seed"`
	Auth        string    `json:"-"` // the Authorization header
}

// Last is the content of the request's last message.
func (r Request) Last() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Content
}

// Reply is what the script answers. The zero value is an empty completion.
type Reply struct {
	Content      string
	FinishReason string        // default "stop"
	Status       int           // default 200
	Body         string        // raw body instead of a completion (malformed JSON, error pages)
	Delay        time.Duration // sleep before answering (a timeout when longer than the client's)
	RetryAfter   string        // Retry-After header
}

// Server is the scripted endpoint.
type Server struct {
	*httptest.Server
	script func(n int, r Request) Reply

	mu          sync.Mutex
	requests    []Request
	inFlight    int
	maxInFlight int
}

// New starts a server answering request n (0-based, in arrival order) with
// script(n, request); it stops when the test ends.
func New(t testing.TB, script func(n int, r Request) Reply) *Server {
	s := &Server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the API root to give the client.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// MaxInFlight is the largest number of requests it served at once.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	req.Auth = r.Header.Get("Authorization")
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	rep := s.script(n, req)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	write(w, rep)
}

func write(w http.ResponseWriter, rep Reply) {
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if rep.Body != "" || status != http.StatusOK {
		fmt.Fprint(w, rep.Body)
		return
	}
	finish := rep.FinishReason
	if finish == "" {
		finish = "stop"
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": rep.Content}}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": len(rep.Content)/4 + 1,
			"total_tokens": 10 + len(rep.Content)/4 + 1},
	})
}

// Fenced wraps code in a ```solidity block.
func Fenced(code string) string { return "```solidity\n" + code + "\n```" }

// Itoa is strconv.Itoa, for scripts building replies.
func Itoa(n int) string { return strconv.Itoa(n) }
