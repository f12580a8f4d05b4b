package etherscan

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	esapi "github.com/nanmu42/etherscan-api"
)

const sharedCorpus = "../../../shared/corpus/mainnet"

func TestRecordedCorpusReadsThroughClient(t *testing.T) {
	if _, err := os.Stat(sharedCorpus); err != nil {
		t.Skip("../shared/corpus/mainnet is absent: skipping the recorded mainnet corpus test")
	}
	entries, err := ListCorpus(sharedCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 44 {
		t.Fatalf("want 44 corpus contracts, got %d", len(entries))
	}
	c, err := NewRecorded(sharedCorpus)
	if err != nil {
		t.Fatal(err)
	}
	e := entries[0]
	src, err := c.Source(context.Background(), e.Address)
	if err != nil {
		t.Fatal(err)
	}
	if src.ContractName != e.Name || !strings.HasPrefix(src.CompilerVersion, "v0.") {
		t.Fatalf("unexpected source record: %q %q", src.ContractName, src.CompilerVersion)
	}
	txs, err := c.Transactions(context.Background(), e.Address, 201)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 201 || txs[0].ContractAddress != e.Address || txs[1].BlockNumber < txs[0].BlockNumber {
		t.Fatalf("txlist not read as recorded: %d txs, first creates %q", len(txs), txs[0].ContractAddress)
	}
}

// corpusDir writes a one-contract corpus whose answers are given.
func corpusDir(t *testing.T, source, txlist string) (dir, addr string) {
	t.Helper()
	dir = t.TempDir()
	addr = "0x00000000000000000000000000000000000000aa"
	d := filepath.Join(dir, "Demo_"+addr)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d, "getsourcecode.json"), []byte(source), 0o644)
	if txlist != "" {
		os.WriteFile(filepath.Join(d, "txlist.json"), []byte(txlist), 0o644)
	}
	return dir, addr
}

const goodSource = `{"status":"1","message":"OK","result":[{"SourceCode":"pragma solidity ^0.4.24; contract Demo {}","ABI":"[]","ContractName":"Demo","CompilerVersion":"v0.4.24+commit.e67f0147","OptimizationUsed":"1","Runs":"200","ConstructorArguments":""}]}`

func TestRecordedBadAnswers(t *testing.T) {
	cases := map[string]struct {
		source string
		want   string
	}{
		"malformed":  {`{"status":"1","message":"OK","result":[{"SourceCode": nope}]}`, "json"},
		"truncated":  {goodSource[:len(goodSource)/2], "json"},
		"rate limit": {`{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`, "NOTOK"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir, addr := corpusDir(t, tc.source, "")
			c, err := NewRecorded(dir)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Source(context.Background(), addr)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, tc.want) {
				t.Fatalf("want an *Error mentioning %q, got %v", tc.want, err)
			}
		})
	}
}

func TestUnverifiedAndMultiFileSources(t *testing.T) {
	if _, err := ParseSource(&esapi.ContractSource{SourceCode: ""}); !errors.Is(err, ErrUnverified) {
		t.Fatalf("empty SourceCode: want ErrUnverified, got %v", err)
	}
	std := `{{"language":"Solidity","sources":{"a/A.sol":{"content":"import './B.sol';"},"a/B.sol":{"content":"contract B {}"}},"settings":{"optimizer":{"enabled":true}}}}`
	sf, err := ParseSource(&esapi.ContractSource{SourceCode: std})
	if err != nil || sf.Format != "standard_json" || len(sf.Files) != 2 || sf.Files["a/B.sol"] != "contract B {}" || len(sf.StandardJSON) == 0 {
		t.Fatalf("standard JSON source: %+v %v", sf, err)
	}
	m := `{"A.sol":{"content":"contract A {}"},"B.sol":{"content":"contract B {}"}}`
	sf, err = ParseSource(&esapi.ContractSource{SourceCode: m})
	if err != nil || sf.Format != "sources_map" || sf.Files["A.sol"] != "contract A {}" {
		t.Fatalf("sources map: %+v %v", sf, err)
	}
	sf, err = ParseSource(&esapi.ContractSource{SourceCode: "contract A {}", ContractName: "A"})
	if err != nil || sf.Format != "flat" || sf.Files["A.sol"] != "contract A {}" {
		t.Fatalf("flat source: %+v %v", sf, err)
	}
}

func TestTransactionsPaging(t *testing.T) {
	var items []string
	for i := 0; i < 2500; i++ {
		items = append(items, fmt.Sprintf(`{"blockNumber":"%d","timeStamp":"1600000000","hash":"0x%x","nonce":"0","transactionIndex":"0","from":"0x01","to":"0x00000000000000000000000000000000000000aa","value":"0","gas":"21000","gasPrice":"0","isError":"0","txreceipt_status":"1","input":"0x","contractAddress":"","cumulativeGasUsed":"0","gasUsed":"0","confirmations":"0"}`, i+1, i))
	}
	dir, addr := corpusDir(t, goodSource, `{"status":"1","message":"OK","result":[`+strings.Join(items, ",")+`]}`)
	c, _ := NewRecorded(dir)
	txs, err := c.Transactions(context.Background(), addr, 2200)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 2200 || txs[2199].BlockNumber != 2200 {
		t.Fatalf("paging: got %d txs, last block %d", len(txs), txs[len(txs)-1].BlockNumber)
	}
	// A limit under a page asks for a page that size: the first ones, in order.
	for _, limit := range []int{7, 201, 1000, 2500} {
		txs, err := c.Transactions(context.Background(), addr, limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(txs) != limit || txs[0].BlockNumber != 1 || txs[limit-1].BlockNumber != limit {
			t.Errorf("limit %d: got %d txs, blocks %d to %d", limit, len(txs), txs[0].BlockNumber, txs[len(txs)-1].BlockNumber)
		}
	}
}

// TestLiveRetriesCachesAndHidesKey runs the live client against a local
// server that answers once with Etherscan's rate-limit answer, then fails
// hard for another address.
func TestLiveRetriesCachesAndHidesKey(t *testing.T) {
	const key = "SECRETKEY123"
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		if r.URL.Query().Get("apikey") != key || r.URL.Query().Get("chainid") != "1" {
			t.Errorf("request without key or chain id: %s", r.URL.RawQuery)
		}
		switch {
		case r.URL.Query().Get("address") == "0xbad":
			http.Error(w, "boom", http.StatusInternalServerError)
		case n == 1:
			fmt.Fprint(w, `{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`)
		default:
			fmt.Fprint(w, goodSource)
		}
	}))
	defer srv.Close()
	cache := t.TempDir()
	c := NewLive(Options{BaseURL: srv.URL + "/v2/api?chainid=1&", Key: key, CacheDir: cache, Backoff: time.Millisecond, Retries: 2, RatePerSecond: 1000})
	src, err := c.Source(context.Background(), "0xaa")
	if err != nil || src.ContractName != "Demo" {
		t.Fatalf("after a rate-limit answer the retry should succeed: %v", err)
	}
	if hits.Load() != 2 {
		t.Fatalf("want 2 requests (one retried), got %d", hits.Load())
	}
	if _, err := c.Source(context.Background(), "0xaa"); err != nil || hits.Load() != 2 {
		t.Fatalf("second ask must come from the cache: hits=%d err=%v", hits.Load(), err)
	}
	_, err = c.Source(context.Background(), "0xbad")
	var e *Error
	if !errors.As(err, &e) || !e.Retriable {
		t.Fatalf("HTTP 500 should be a retriable *Error, got %v", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("error leaks the API key: %v", err)
	}
	filepath.Walk(cache, func(p string, info os.FileInfo, _ error) error {
		if b, _ := os.ReadFile(p); strings.Contains(p, key) || strings.Contains(string(b), key) {
			t.Errorf("cache file %s holds the API key", p)
		}
		return nil
	})
}
