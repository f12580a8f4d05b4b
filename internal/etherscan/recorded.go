package etherscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Entry is one contract folder of a recorded corpus.
type Entry struct {
	ID      string // folder name, <ContractName>_<address>
	Address string // lower-case 0x address
	Name    string
	Dir     string
}

// ListCorpus returns the contract folders of a recorded corpus, sorted by ID.
// A folder counts when its name ends in _0x<40 hex> and it holds getsourcecode.json.
func ListCorpus(dir string) ([]Entry, error) {
	items, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	var out []Entry
	for _, it := range items {
		if !it.IsDir() {
			continue
		}
		name, addr, ok := splitFolder(it.Name())
		if !ok {
			continue
		}
		d := filepath.Join(dir, it.Name())
		if _, err := os.Stat(filepath.Join(d, "getsourcecode.json")); err != nil {
			continue
		}
		out = append(out, Entry{ID: it.Name(), Address: addr, Name: name, Dir: d})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func splitFolder(folder string) (name, addr string, ok bool) {
	i := strings.LastIndex(folder, "_0x")
	if i < 0 || len(folder)-i-1 != 42 {
		return "", "", false
	}
	return folder[:i], strings.ToLower(folder[i+1:]), true
}

// recordedTransport answers Etherscan API requests from a corpus folder.
type recordedTransport struct {
	byAddress map[string]string // address -> folder
}

// files each recorded action is read from.
var recordedFiles = map[string]string{
	"contract/getsourcecode": "getsourcecode.json",
	"account/txlist":         "txlist.json",
	"account/txlistinternal": "txlistinternal.json",
}

func newRecordedTransport(dir string) (*recordedTransport, error) {
	entries, err := ListCorpus(dir)
	if err != nil {
		return nil, err
	}
	t := &recordedTransport{byAddress: map[string]string{}}
	for _, e := range entries {
		t.byAddress[e.Address] = e.Dir
	}
	return t, nil
}

func (t *recordedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	file, ok := recordedFiles[q.Get("module")+"/"+q.Get("action")]
	if !ok {
		return respond(req, http.StatusBadRequest, []byte("unsupported action")), nil
	}
	dir, ok := t.byAddress[strings.ToLower(q.Get("address"))]
	if !ok {
		return respond(req, http.StatusOK, envelope("0", "No data found", `[]`)), nil
	}
	body, err := os.ReadFile(filepath.Join(dir, file))
	if os.IsNotExist(err) {
		return respond(req, http.StatusOK, envelope("0", "No transactions found", `[]`)), nil
	}
	if err != nil {
		return nil, err
	}
	if q.Get("action") == "getsourcecode" {
		return respond(req, http.StatusOK, body), nil
	}
	return respond(req, http.StatusOK, pageOf(body, q)), nil
}

// pageOf applies Etherscan's page/offset paging to a recorded list answer.
// A body that is not a well-formed list envelope is served as it is, so the
// client meets malformed answers exactly as it would live.
func pageOf(body []byte, q map[string][]string) []byte {
	var env struct {
		Status  string            `json:"status"`
		Message string            `json:"message"`
		Result  []json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Status != "1" {
		return body
	}
	page, _ := strconv.Atoi(first(q["page"]))
	offset, _ := strconv.Atoi(first(q["offset"]))
	if page < 1 || offset < 1 {
		return body
	}
	lo, hi := (page-1)*offset, page*offset
	if lo >= len(env.Result) {
		return envelope("0", "No transactions found", `[]`)
	}
	if hi > len(env.Result) {
		hi = len(env.Result)
	}
	items, _ := json.Marshal(env.Result[lo:hi])
	return envelope("1", "OK", string(items))
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func envelope(status, message, result string) []byte {
	return []byte(fmt.Sprintf(`{"status":%q,"message":%q,"result":%s}`, status, message, result))
}

func respond(req *http.Request, code int, body []byte) *http.Response {
	return &http.Response{
		StatusCode:    code,
		Status:        fmt.Sprintf("%d %s", code, http.StatusText(code)),
		Header:        http.Header{"Content-Type": []string{"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// RecordedHandler serves a corpus folder as an Etherscan API server over
// real HTTP (for tests and local runs of the live code path).
func RecordedHandler(dir string) (http.Handler, error) {
	t, err := newRecordedTransport(dir)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, err := t.RoundTrip(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer res.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}), nil
}
