package llm_test

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/redact"
)

// TestRedirectToAnotherPortKeepsTheKey: the endpoint redirects to another
// port of the same host; the client does not follow with the Authorization
// header (it does not follow at all), and says why.
func TestRedirectToAnotherPortKeepsTheKey(t *testing.T) {
	var sawKey atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			sawKey.Store(true)
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"x"},"finish_reason":"stop"}]}`))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c := llm.New(llm.Options{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "sk-redirect-secret", Retries: 3, Backoff: time.Millisecond})
	_, err := c.Complete(context.Background(), request("a"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindEndpoint || e.Attempts != 1 {
		t.Fatalf("want one endpoint error, got %v", err)
	}
	if sawKey.Load() {
		t.Fatal("the Authorization header reached another origin")
	}
}

// TestEchoedKeyStaysOut: a server that echoes the key (raw and base64) in
// the reply and the finish reason: the response and the cache hold neither.
func TestEchoedKeyStaysOut(t *testing.T) {
	const key = "sk-echo/secret+42"
	b64 := base64.StdEncoding.EncodeToString([]byte(key))
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "contract A {} // " + key + " " + b64, FinishReason: "stop " + r.Auth}
	})
	cache := t.TempDir()
	c := client(s, llm.Options{APIKey: key, CacheDir: cache})
	resp, err := c.Complete(context.Background(), request("a"))
	if err != nil {
		t.Fatal(err)
	}
	text := resp.Content + resp.FinishReason
	filepath.Walk(cache, func(p string, info os.FileInfo, _ error) error {
		b, _ := os.ReadFile(p)
		text += string(b)
		return nil
	})
	if leaked := redact.FormsIn(text, key); len(leaked) > 0 {
		t.Fatalf("the key (%q) reached the response or the cache: %s", leaked, text)
	}
	if !strings.Contains(resp.Content, "contract A {}") {
		t.Fatalf("the reply itself was lost: %q", resp.Content)
	}
}

// TestWrongKeyIsNotRetried: 401 is auth, asked once.
func TestWrongKeyIsNotRetried(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 401, Body: `{"error":"invalid api key"}`}
	})
	_, err := client(s, llm.Options{Retries: 4}).Complete(context.Background(), request("a"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindAuth || e.Retriable() || s.Count() != 1 {
		t.Fatalf("want one auth error after 1 request, got %v after %d", err, s.Count())
	}
}

// TestDeadlineBoundsA429Loop: Retry-After answers forever cost the request's
// deadline, not Retries × Retry-After.
func TestDeadlineBoundsA429Loop(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 429, Body: "slow down", RetryAfter: "1"}
	})
	_, err := client(s, llm.Options{Retries: 100, Deadline: 1500 * time.Millisecond}).Complete(context.Background(), request("a"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindTimeout || !strings.Contains(e.Msg, "deadline") || s.Count() > 3 {
		t.Fatalf("want a timeout naming the deadline after at most 3 requests, got %v after %d", err, s.Count())
	}
}
