package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/egress"
	"github.com/solbehave/solbehave/internal/redact"
)

// cache stores successful replies as JSON files named by the request digest.
type cache struct{ dir string }

type cached struct {
	Content      string `json:"content"`
	FinishReason string `json:"finish_reason"`
	TokensIn     *int64 `json:"tokens_in"`
	TokensOut    *int64 `json:"tokens_out"`
	Warning      string `json:"warning,omitempty"`
}

func (c *cache) path(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

func (c *cache) get(key string) (*Response, bool) {
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := egress.ReadAll(f, maxReply)
	if err != nil {
		return nil, false
	}
	var e cached
	if json.Unmarshal(b, &e) != nil {
		return nil, false
	}
	r := &Response{Content: e.Content, FinishReason: e.FinishReason, TokensIn: e.TokensIn, TokensOut: e.TokensOut, Warning: e.Warning}
	if !plausible(r.TokensIn) || !plausible(r.TokensOut) { // an entry written before the figures were checked
		r.TokensIn, r.TokensOut, r.Warning = nil, nil, "the cached usage figures are no token counts; recorded as unknown."
	}
	return r, true
}

func (c *cache) put(key string, r *Response) error {
	b, err := json.Marshal(cached{Content: redact.String(r.Content), FinishReason: redact.String(r.FinishReason),
		TokensIn: r.TokensIn, TokensOut: r.TokensOut, Warning: r.Warning})
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(c.path(key), b, 0o644)
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func plausible(n *int64) bool { return n == nil || *n >= 0 && *n <= maxTokens }
