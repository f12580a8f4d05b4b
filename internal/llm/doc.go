// Package llm is a client for OpenAI-compatible chat-completions endpoints
// (llama.cpp's server, vLLM, Ollama, hosted APIs), shared by every part of
// solbehave that asks a model something: regeneration, repair, NatSpec,
// DCR-graph extraction.
//
// A Client sends one POST <BaseURL>/chat/completions per attempt, with at most
// Options.Concurrency requests in flight. Timeouts, HTTP 429 and 5xx answers
// and network errors are retried with exponential backoff (Retry-After is
// honoured); other failures (4xx, a reply that is not the expected JSON)
// return at once. Successful replies are cached on disk, keyed by the model,
// the messages, the sampling parameters and the seed, so a rerun asks nothing
// twice; failures are never cached.
//
// The API key comes from Options.APIKey or else SOLBEHAVE_LLM_API_KEY. It is
// sent as a bearer token and appears in no error, log line or dataset.
//
// CallRow turns a request and its outcome into a row of the `llm_calls`
// dataset; the stage that makes the call writes it. BindFlags registers the
// shared --llm-* flags so that several stages can read them.
package llm
