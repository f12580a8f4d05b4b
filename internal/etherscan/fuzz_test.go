package etherscan

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/warehouse"
)

// FuzzCorpusRecord writes one corpus folder with a fuzzed name and fuzzed
// record files and reads it as every stage does: the folder is an entry or a
// rejected folder (never silently gone), every id is valid UTF-8 and safe as
// a path element, and reading the records fails with an *Error, never a panic.
func FuzzCorpusRecord(f *testing.F) {
	f.Add("Demo_0x00000000000000000000000000000000000000aa", []byte(goodSource), []byte(`{"status":"1","message":"OK","result":[]}`))
	f.Add("Bad\xffName_0x00000000000000000000000000000000000000aa", []byte(`{"status":"1"`), []byte(``))
	f.Add("../x_0x00000000000000000000000000000000000000aa", []byte(`{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`), []byte(`[]`))
	f.Add(".._0x00000000000000000000000000000000000000aa", []byte(goodSource), []byte(`[]`))
	f.Add(".Hidden_0x00000000000000000000000000000000000000aa", []byte(goodSource), []byte(`[]`))
	f.Add(strings.Repeat("L", 200)+"_0x00000000000000000000000000000000000000aa", []byte(goodSource), []byte(`[]`))
	f.Fuzz(func(t *testing.T, folder string, source, txlist []byte) {
		if folder == "" || folder == "." || folder == ".." || strings.ContainsAny(folder, "/\x00") || len(folder) > 255 {
			return // not a possible folder name
		}
		dir := t.TempDir()
		d := filepath.Join(dir, folder)
		if os.Mkdir(d, 0o755) != nil {
			return
		}
		os.WriteFile(filepath.Join(d, "getsourcecode.json"), source, 0o644)
		os.WriteFile(filepath.Join(d, "txlist.json"), txlist, 0o644)
		entries, rejected, err := ScanCorpus(dir)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(folder, ".") && !addressTail.MatchString(folder) {
			return // dot-folders are not contracts, unless named like one
		}
		if len(entries)+len(rejected) != 1 {
			t.Fatalf("folder %q: %d entries, %d rejected", folder, len(entries), len(rejected))
		}
		for _, r := range rejected {
			checkID(t, r.ID)
			if !utf8.ValidString(r.Reason) || !utf8.ValidString(r.Folder) {
				t.Fatalf("rejected %+v: not valid UTF-8", r)
			}
		}
		for _, e := range entries {
			checkID(t, e.ID)
			readRecords(t, dir, e.Address)
		}
	})
}

func checkID(t *testing.T, id string) {
	if !utf8.ValidString(id) || warehouse.Sanitize(id) != id || filepath.Base(id) != id {
		t.Fatalf("id %q is not a safe path element", id)
	}
}

func readRecords(t *testing.T, dir, address string) {
	c, err := NewRecorded(dir)
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if src, err := c.Source(context.Background(), address); err == nil {
		ParseSource(src)
	} else if !errors.As(err, &e) || e.Class == failure.Internal {
		t.Fatalf("Source: %v is not a classified *Error", err)
	}
	if _, err := c.Transactions(context.Background(), address, 1001); err != nil && (!errors.As(err, &e) || e.Class == failure.Internal) {
		t.Fatalf("Transactions: %v is not a classified *Error", err)
	}
}

// FuzzAnswer serves a fuzzed answer with a fuzzed HTTP status to the live
// client: it returns a source or a classified *Error without the key, and
// never panics.
func FuzzAnswer(f *testing.F) {
	f.Add(200, []byte(goodSource))
	f.Add(200, []byte(`{"status":"0","message":"NOTOK","result":"Invalid API Key"}`))
	f.Add(200, []byte(`{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`))
	f.Add(502, []byte(`upstream failed for /api?apikey=fuzz-key-123456`))
	f.Add(200, []byte(`{"status":"1","message":"OK","result":"not a list"}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 599 || status >= 300 && status < 400 {
			return
		}
		rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: status, Status: http.StatusText(status), Request: req,
				Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body))}, nil
		})
		c := NewLive(Options{BaseURL: "http://fuzz.invalid/api?", Key: "fuzz-key-123456", Transport: rt, Retries: -1, RatePerSecond: 1e9})
		src, err := c.Source(context.Background(), "0xaa")
		var e *Error
		switch {
		case err == nil && src == nil:
			t.Fatal("no source and no error")
		case err != nil && (!errors.As(err, &e) || e.Class == failure.Internal):
			t.Fatalf("%v is not a classified *Error", err)
		case err != nil && strings.Contains(err.Error(), "fuzz-key-123456"):
			t.Fatalf("the key reached the error: %v", err)
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
