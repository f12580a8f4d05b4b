package etherscan

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/redact"
)

// fakeEtherscan answers every request with answer, counting requests.
func fakeEtherscan(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func liveClient(srv *httptest.Server, o Options) *Client {
	o.BaseURL = srv.URL + "/v2/api?chainid=1&"
	o.Backoff, o.RatePerSecond = time.Millisecond, 1000
	if o.Retries == 0 {
		o.Retries = 5
	}
	return NewLive(o)
}

// TestErrorClassesAndRetries: a wrong key is `auth` and asked once, a rate
// limit is `rate_limit` and retried, a missing endpoint is `endpoint`, a
// refused connection is `network`.
func TestErrorClassesAndRetries(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		class      string
		requests   int32
	}{
		{"invalid key", `{"status":"0","message":"NOTOK","result":"Invalid API Key"}`, 200, "auth", 1},
		{"rate limit", `{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`, 200, "rate_limit", 6},
		{"rate limit without a key", `{"status":"0","message":"NOTOK","result":"Max rate limit reached, please use API Key for higher rate limit"}`, 200, "rate_limit", 6},
		{"calls per second", `{"status":"0","message":"NOTOK","result":"Max calls per sec rate limit reached (5/sec)"}`, 200, "rate_limit", 6},
		{"not found", `not here`, 404, "endpoint", 1},
		{"bad address", `{"status":"0","message":"NOTOK","result":"Error! Invalid address format"}`, 200, "input", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, hits := fakeEtherscan(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			})
			_, err := liveClient(srv, Options{Key: "key-for-classes"}).Source(context.Background(), "0xaa")
			var e *Error
			if !errors.As(err, &e) || e.Class.String() != tc.class || hits.Load() != tc.requests {
				t.Fatalf("got %v (class %q) after %d requests, want class %s after %d", err, classOf(e), hits.Load(), tc.class, tc.requests)
			}
			if strings.Contains(e.Msg, "NOTOK") && !strings.Contains(e.Msg, ": ") {
				t.Fatalf("message %q does not say what the answer said", e.Msg)
			}
		})
	}
	srv, _ := fakeEtherscan(t, func(http.ResponseWriter, *http.Request) {})
	srv.Close()
	_, err := liveClient(srv, Options{Retries: -1}).Source(context.Background(), "0xaa")
	var e *Error
	if !errors.As(err, &e) || e.Class != failure.Network || !e.Retriable {
		t.Fatalf("refused connection: got %v (class %q)", err, classOf(e))
	}
}

func classOf(e *Error) string {
	if e == nil {
		return ""
	}
	return e.Class.String()
}

// TestKeyInEveryFormStaysOut: a key with characters URL encoding changes,
// echoed by the server raw, URL-encoded and base64-encoded, reaches neither
// the error nor the cache.
func TestKeyInEveryFormStaysOut(t *testing.T) {
	const key = "ES+SECRET/key=42"
	srv, _ := fakeEtherscan(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("address") == "0xbad" {
			http.Error(w, "upstream failed for "+r.URL.String()+" "+strings.Join(redact.Forms(key), " "), http.StatusBadGateway)
			return
		}
		fmt.Fprintf(w, `{"status":"1","message":"OK","result":[{"SourceCode":"contract A {} // %s %s","ContractName":"A"}]}`,
			url.QueryEscape(key), key)
	})
	cache := t.TempDir()
	c := liveClient(srv, Options{Key: key, CacheDir: cache, Retries: -1})
	src, err := c.Source(context.Background(), "0xaa")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Source(context.Background(), "0xbad")
	if err == nil {
		t.Fatal("want the 502 as an error")
	}
	text := err.Error() + src.SourceCode
	filepath.Walk(cache, func(p string, info os.FileInfo, _ error) error {
		b, _ := os.ReadFile(p)
		text += string(b)
		return nil
	})
	if leaked := redact.FormsIn(text, key); len(leaked) > 0 {
		t.Errorf("the key's forms %q reached the error, the answer or the cache:\n%s", leaked, text)
	}
}

// TestRedirectToAnotherOriginIsRefused: the query carries the key, so a
// redirect to another port of the same host is not followed.
func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	other, otherHits := fakeEtherscan(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, goodSource) })
	srv, _ := fakeEtherscan(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v2/api?"+r.URL.RawQuery, http.StatusFound)
	})
	_, err := liveClient(srv, Options{Key: "key-for-redirects"}).Source(context.Background(), "0xaa")
	var e *Error
	if !errors.As(err, &e) || e.Class != failure.Endpoint || e.Retriable || otherHits.Load() != 0 {
		t.Fatalf("want a non-retriable endpoint error and no request to the other origin, got %v (class %q), %d requests there",
			err, classOf(e), otherHits.Load())
	}
}

// TestDeadlineBoundsRetries: a server that rate-limits forever costs one
// request's deadline, not Retries attempts with doubling waits.
func TestDeadlineBoundsRetries(t *testing.T) {
	srv, hits := fakeEtherscan(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`)
	})
	c := liveClient(srv, Options{Retries: 50, Deadline: 100 * time.Millisecond})
	_, err := c.Source(context.Background(), "0xaa")
	var e *Error
	if !errors.As(err, &e) || e.Class != failure.RateLimit || !strings.Contains(e.Msg, "deadline") || hits.Load() >= 51 {
		t.Fatalf("want a rate_limit error that names the deadline well before 51 requests, got %v after %d", err, hits.Load())
	}
}

// TestOversizedAnswersAreRefused: neither an answer nor a cache file is read
// past the bound.
func TestOversizedAnswersAreRefused(t *testing.T) {
	big := strings.Repeat("x", 4096)
	srv, _ := fakeEtherscan(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"status":"1","message":"OK","result":[{"SourceCode":"%s","ContractName":"A"}]}`, big)
	})
	_, err := liveClient(srv, Options{MaxAnswer: 1024, Retries: -1}).Source(context.Background(), "0xaa")
	var e *Error
	if !errors.As(err, &e) || e.Class != failure.Endpoint {
		t.Fatalf("want an endpoint error for a 4 KiB answer over a 1 KiB bound, got %v", err)
	}
	if _, err := readCached(writeTemp(t, big), 1024); err == nil {
		t.Fatal("an oversized cache file was read")
	}
}

func writeTemp(t *testing.T, s string) string {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte(s), 0o644)
	return p
}

// TestScanCorpusRejectsAmbiguousFolders: folders that share an address
// (names that differ in characters or only in case), a name that is not
// UTF-8, an address that is not hex and a folder without its source are
// rejected, each with a reason naming its folder (and the other folder of its
// address), with ids that are unique, valid UTF-8 and safe as a path element;
// the sound folder is the only entry.
func TestScanCorpusRejectsAmbiguousFolders(t *testing.T) {
	dir := t.TempDir()
	const a15 = "0x0000000000000000000000000000000000000015"
	folders := map[string]bool{ // name -> holds getsourcecode.json
		"Dup X_" + a15: true, "Dup_X_" + a15: true,
		"Case_0x00000000000000000000000000000000000000AB": true, "Case_0x00000000000000000000000000000000000000ab": true,
		"Bad\xff\xfeName_0x0000000000000000000000000000000000000016": true,
		"NotHex_0x000000000000000000000000000000000000zzzz":          true,
		"NoSource_0x0000000000000000000000000000000000000017":        false,
		"Sound_0x0000000000000000000000000000000000000018":           true,
		"notes": false,
	}
	for f, withSource := range folders {
		if err := os.MkdirAll(filepath.Join(dir, f), 0o755); err != nil {
			t.Fatal(err)
		}
		if withSource {
			os.WriteFile(filepath.Join(dir, f, "getsourcecode.json"), []byte(goodSource), 0o644)
		}
	}
	entries, rejected, err := ScanCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].ID != "Sound_0x0000000000000000000000000000000000000018" {
		t.Fatalf("want only the sound folder as an entry, got %+v", entries)
	}
	if len(rejected) != len(folders)-1 {
		t.Fatalf("want %d rejected folders, got %d: %+v", len(folders)-1, len(rejected), rejected)
	}
	ids := map[string]bool{}
	for _, r := range rejected {
		if ids[r.ID] || !utf8Safe(r.ID) || !strings.Contains(r.Reason, r.Folder) && !strings.Contains(r.Reason, "folder name") {
			t.Errorf("rejected %+v: id not unique or not safe, or reason does not name the folder", r)
		}
		ids[r.ID] = true
		if r.Address == a15 && !(strings.Contains(r.Reason, "Dup X_") && strings.Contains(r.Reason, "Dup_X_")) {
			t.Errorf("%s: the reason must name both folders of its address: %s", r.Folder, r.Reason)
		}
		if strings.HasPrefix(r.Folder, "Case_") && !strings.Contains(r.Reason, "2 corpus folders") {
			t.Errorf("%s: case-only twins must be rejected together: %s", r.Folder, r.Reason)
		}
	}
	if _, ok := recordedAddresses(t, dir)[a15]; ok {
		t.Error("the recorded corpus serves an address that two folders claim")
	}
}

func utf8Safe(id string) bool {
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return id != ""
}

func recordedAddresses(t *testing.T, dir string) map[string]string {
	rt, err := newRecordedTransport(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rt.byAddress
}

// A cancelled run does not wait out the back-off: the retry wait ends with
// the context, and the request is asked once.
func TestCancelEndsTheRetryWait(t *testing.T) {
	srv, hits := fakeEtherscan(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) })
	c := liveClient(srv, Options{Deadline: 24 * time.Hour})
	c.backoff = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := c.Source(ctx, "0xaa"); done <- err }()
	for hits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "cancelled") || hits.Load() != 1 {
			t.Fatalf("got %v after %d requests", err, hits.Load())
		}
	case <-time.After(time.Minute):
		t.Fatal("the retry wait ignored the cancelled context (back-off is an hour)")
	}
}
