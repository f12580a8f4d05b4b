package crawl

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/egress"
)

// TestRPCAnswersBounded: a JSON-RPC endpoint that answers without end fails
// the call with the size error instead of filling memory, and a redirect to
// another origin is refused.
func TestRPCAnswersBounded(t *testing.T) {
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x`))
		chunk := []byte(strings.Repeat("00", 1<<16))
		for written := 0; written <= rpcMaxAnswer; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	if err := codeAt(t, endless.URL); err == nil ||
		!strings.Contains(err.Error(), egress.ErrTooLarge.Error()) {
		t.Errorf("endless answer: %v, want %v", err, egress.ErrTooLarge)
	}

	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the request reached another origin")
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	if err := codeAt(t, redirect.URL); err == nil ||
		!errors.Is(err, egress.ErrCrossOrigin) && !strings.Contains(err.Error(), "another origin") {
		t.Errorf("cross-origin redirect: %v, want refused", err)
	}
}

// codeAt asks the endpoint at url for a contract's code and returns the
// call's error.
func codeAt(t *testing.T, url string) error {
	t.Helper()
	c, err := dialRPC(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.CodeAt(context.Background(), common.Address{}, nil)
	return err
}
