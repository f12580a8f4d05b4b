package llm

import "testing"

// FuzzUsage: whatever a server puts as prompt_tokens, a reply that decodes
// carries either a plausible count or none (with a warning when it gave one).
func FuzzUsage(f *testing.F) {
	for _, s := range []string{"10", "-5", "-9223372036854775808", "2.5", "1e400", `"12"`, "null", "[1]", "4294967297"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, figure string) {
		r, err := decode([]byte(`{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":` + figure + `}}`))
		if err != nil {
			return // not JSON: the reply is refused as malformed
		}
		if n := r.TokensIn; n != nil && (*n < 0 || *n > maxTokens) || n == nil && r.Warning == "" && figure != "null" {
			t.Fatalf("prompt_tokens %s: recorded %v, warning %q", figure, n, r.Warning)
		}
	})
}
