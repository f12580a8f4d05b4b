package etherscan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/egress"
	"github.com/solbehave/solbehave/internal/redact"
)

// cachingTransport stores successful answers on disk, keyed by the request
// URL without its API key, so a rerun asks nothing twice and the key never
// reaches the disk.
type cachingTransport struct {
	next http.RoundTripper
	dir  string
	max  int64 // bytes of a cached answer read at most
}

func (t *cachingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	path := filepath.Join(t.dir, cacheKey(req)+".json")
	if body, err := readCached(path, t.max); err == nil {
		return respond(req, http.StatusOK, body), nil
	}
	res, err := t.next.RoundTrip(req)
	if err != nil || res.StatusCode != http.StatusOK {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	body = redact.Bytes(body) // a key the server echoed stays out of the cache and the caller
	if cacheable(body) {
		atomicfile.WriteFile(path, body, 0o644) // a lost cache entry only costs a request
	}
	return respond(req, res.StatusCode, body), nil
}

func cacheKey(req *http.Request) string {
	u := *req.URL
	q := u.Query()
	q.Del("apikey")
	u.RawQuery = q.Encode()
	sum := sha256.Sum256([]byte(u.String()))
	return hex.EncodeToString(sum[:])
}

// cacheable keeps well-formed answers, and Etherscan's "no transactions"
// answer, but never a rate-limit or other error answer.
func cacheable(body []byte) bool {
	var env struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &env) != nil {
		return false
	}
	return env.Status == "1" || env.Message == "No transactions found"
}

// readCached reads a cached answer, at most max bytes (a larger file is not
// an answer this client wrote: it is ignored and asked again).
func readCached(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return egress.ReadAll(f, max)
}
