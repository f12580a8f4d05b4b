package llm

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/sharedflag"
)

// BindFlags registers the shared endpoint flags (--llm-url, --llm-timeout,
// --llm-retries, --llm-concurrency, --llm-cache) into o. Every stage that
// calls a model binds them; they are defined once and fill every binding.
// Model and APIKey are not flags (the key only comes from the environment).
func BindFlags(fs *pflag.FlagSet, o *Options) {
	sharedflag.String(fs, &o.BaseURL, "llm-url", "", "OpenAI-compatible API root, e.g. http://localhost:8080/v1 (key from $"+KeyEnv+")")
	sharedflag.Duration(fs, &o.Timeout, "llm-timeout", 120*time.Second, "time allowed for one LLM request attempt")
	sharedflag.Int(fs, &o.Retries, "llm-retries", 3, "retries of an LLM request after a timeout, HTTP 429/5xx or network error")
	sharedflag.Int(fs, &o.Concurrency, "llm-concurrency", 4, "LLM requests in flight at once (per model)")
	sharedflag.String(fs, &o.CacheDir, "llm-cache", "", "reply cache folder (default <data>/llm_cache)")
}
