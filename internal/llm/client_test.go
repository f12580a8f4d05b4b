package llm_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
)

func request(text string) llm.Request {
	return llm.Request{Purpose: "test", Messages: []llm.Message{{Role: "user", Content: text}},
		Temperature: 0.7, MaxTokens: 64, Seed: 7}
}

func client(s *llmtest.Server, o llm.Options) *llm.Client {
	o.BaseURL, o.Model = s.BaseURL(), "m1"
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Second
	}
	o.Backoff = time.Millisecond
	return llm.New(o)
}

func TestCompleteSendsParametersAndCaches(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "hello " + r.Last()} })
	c := client(s, llm.Options{CacheDir: t.TempDir()})
	ctx := context.Background()
	r1, err := c.Complete(ctx, request("a"))
	if err != nil {
		t.Fatal(err)
	}
	if r1.Content != "hello a" || r1.FinishReason != "stop" || r1.TokensIn == nil || *r1.TokensIn != 10 || r1.Cached || r1.Attempts != 1 {
		t.Fatalf("first reply: %+v", r1)
	}
	got := s.Requests()[0]
	if got.Model != "m1" || got.Temperature != 0.7 || got.MaxTokens != 64 || got.Seed != 7 {
		t.Fatalf("request sent: %+v", got)
	}
	r2, err := c.Complete(ctx, request("a"))
	if err != nil || !r2.Cached || r2.Content != "hello a" || s.Count() != 1 {
		t.Fatalf("second call not from cache: %+v %v (server saw %d)", r2, err, s.Count())
	}
	other := request("a")
	other.Seed = 8 // another seed is another request
	if r3, err := c.Complete(ctx, other); err != nil || r3.Cached || s.Count() != 2 {
		t.Fatalf("a new seed was answered from the cache: %+v %v", r3, err)
	}
}

func TestRetriesServerErrorsAndRateLimits(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		switch n {
		case 0:
			return llmtest.Reply{Status: 500, Body: "boom"}
		case 1:
			return llmtest.Reply{Status: 429, RetryAfter: "0"}
		}
		return llmtest.Reply{Content: "ok"}
	})
	r, err := client(s, llm.Options{Retries: 3}).Complete(context.Background(), request("x"))
	if err != nil || r.Content != "ok" || r.Attempts != 3 {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func TestGivesUpAfterRetries(t *testing.T) {
	s := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 503, Body: "down"} })
	_, err := client(s, llm.Options{Retries: 2}).Complete(context.Background(), request("x"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindHTTP || e.Status != 503 || e.Attempts != 3 || s.Count() != 3 {
		t.Fatalf("err = %v (server saw %d)", err, s.Count())
	}
	if !strings.Contains(err.Error(), "503") {
		t.Fatalf("error text %q does not say the status", err)
	}
}

func TestTimeoutIsRetriedThenReported(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		if r.Last() == "slow-once" && n == 0 {
			return llmtest.Reply{Delay: time.Second, Content: "late"}
		}
		if r.Last() == "always-slow" {
			return llmtest.Reply{Delay: time.Second}
		}
		return llmtest.Reply{Content: "fast"}
	})
	c := client(s, llm.Options{Timeout: 100 * time.Millisecond, Retries: 1})
	if r, err := c.Complete(context.Background(), request("slow-once")); err != nil || r.Content != "fast" || r.Attempts != 2 {
		t.Fatalf("slow once: %+v %v", r, err)
	}
	_, err := c.Complete(context.Background(), request("always-slow"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindTimeout || e.Attempts != 2 {
		t.Fatalf("always slow: %v", err)
	}
}

func TestMalformedAndClientErrorsAreNotRetried(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		if r.Last() == "garbage" {
			return llmtest.Reply{Body: `{"choices": [ {"message": `}
		}
		return llmtest.Reply{Status: 400, Body: `{"error":"context too long"}`}
	})
	c := client(s, llm.Options{Retries: 3, CacheDir: t.TempDir()})
	_, err := c.Complete(context.Background(), request("garbage"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindBadReply || s.Count() != 1 {
		t.Fatalf("malformed JSON: %v (server saw %d)", err, s.Count())
	}
	if _, err := c.Complete(context.Background(), request("garbage")); err == nil || s.Count() != 2 {
		t.Fatal("a failure was cached")
	}
	_, err = c.Complete(context.Background(), request("big"))
	if !errors.As(err, &e) || e.Status != 400 || e.Retriable() || s.Count() != 3 {
		t.Fatalf("400: %v (server saw %d)", err, s.Count())
	}
}

func TestAPIKeyIsSentButNeverShown(t *testing.T) {
	const key = "sk-test-secret-123"
	t.Setenv(llm.KeyEnv, key)
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 401, Body: "invalid key " + strings.TrimPrefix(r.Auth, "Bearer ")}
	})
	c := client(s, llm.Options{})
	_, err := c.Complete(context.Background(), request("x"))
	if got := s.Requests()[0].Auth; got != "Bearer "+key {
		t.Fatalf("Authorization = %q", got)
	}
	if err == nil || strings.Contains(err.Error(), key) {
		t.Fatalf("error leaks the key or is nil: %v", err)
	}
	row := llm.CallRow("c", "openai:m1", 0, "f", request("x"), nil, err)
	if strings.Contains(row.Error, key) || row.Error == "" {
		t.Fatalf("row error %q", row.Error)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	s := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Delay: 30 * time.Millisecond, Content: "ok"}
	})
	c := client(s, llm.Options{Concurrency: 2})
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := c.Complete(context.Background(), request(llmtest.Itoa(i))); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if m := s.MaxInFlight(); m > 2 || m < 1 {
		t.Fatalf("max in flight %d, limit 2", m)
	}
}

func TestCallRow(t *testing.T) {
	req := request("x")
	row := llm.CallRow("C_0x1", "openai:m1", 3, "withdraw", req,
		&llm.Response{TokensIn: ptr(5), TokensOut: ptr(9), FinishReason: "length", LatencyMS: 12, Attempts: 2}, nil)
	if row.ContractID != "C_0x1" || row.Sample != 3 || row.Function != "withdraw" || row.Purpose != "test" ||
		*row.TokensOut != 9 || row.FinishReason != "length" || row.Attempts != 2 || row.Error != "" || len(row.PromptSHA256) != 64 {
		t.Fatalf("row %+v", row)
	}
	if llm.PromptSHA256(req.Messages) == llm.PromptSHA256(request("y").Messages) {
		t.Fatal("different prompts share a digest")
	}
}

func TestNoEndpoint(t *testing.T) {
	_, err := llm.New(llm.Options{Model: "m"}).Complete(context.Background(), request("x"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindConfig {
		t.Fatalf("err = %v", err)
	}
}
