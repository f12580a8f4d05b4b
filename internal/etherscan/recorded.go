package etherscan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// Entry is one contract folder of a recorded corpus.
type Entry struct {
	ID      string // folder name, <ContractName>_<address>: the contract id
	Address string // lower-case 0x address
	Name    string
	Dir     string
}

// Rejected is a folder of a corpus that cannot be read as a contract: a name
// that is not <Name>_0x<40 hex> (or not UTF-8), an address that another
// folder has too, a missing getsourcecode.json. Its ID is unique and a safe
// path element, so its error row has a partition of its own.
type Rejected struct {
	ID      string // "rejected-" + a readable part + a digest of the raw name
	Folder  string // the raw name, quoted where it is not printable UTF-8
	Address string // the address part when it parses, else ""
	Reason  string
}

// ListCorpus returns the contract folders of a recorded corpus, sorted by ID,
// leaving out the rejected ones (see [ScanCorpus]).
func ListCorpus(dir string) ([]Entry, error) {
	entries, _, err := ScanCorpus(dir)
	return entries, err
}

// ScanCorpus reads a corpus folder: the contract folders, sorted by ID, and
// the folders that are not (each with why). Contract ids are unique by
// construction: an id is the folder name itself, restricted to characters
// that are safe as a path element, and each address belongs to one folder
// (two folders with one address, whatever their case, are both rejected,
// each naming the other). A folder is read only when it is a real folder
// (not a link, which could lead anywhere) whose records are regular files
// within the read bound. Dot-folders (.git, temporary files) are ignored,
// unless their name ends in an address: those are rejected, never dropped in
// silence. Nothing is opened: every check is a stat, so a FIFO or a device
// in the corpus cannot block the scan.
func ScanCorpus(dir string) ([]Entry, []Rejected, error) {
	if err := isFolder(dir); err != nil {
		return nil, nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	items, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	byAddress := map[string][]string{}
	for _, it := range items {
		if candidateFolder(it) {
			if addr := addressPart(it.Name()); addr != "" {
				byAddress[addr] = append(byAddress[addr], it.Name())
			}
		}
	}
	var out []Entry
	var rejected []Rejected
	for _, it := range items {
		if !candidateFolder(it) {
			continue
		}
		e, why := checkFolder(dir, it, byAddress)
		if why != "" {
			rejected = append(rejected, Rejected{ID: RejectedID(it.Name()), Folder: Printable(it.Name()),
				Address: addressPart(it.Name()), Reason: why})
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	sort.Slice(rejected, func(i, j int) bool { return rejected[i].ID < rejected[j].ID })
	return out, rejected, nil
}

// candidateFolder tells whether a corpus entry is meant as a contract
// folder: a folder or a link (a link is then rejected), not a dot-folder
// unless its name ends in an address. Plain files beside the folders (a
// README, a benchmark's index) are not contracts.
func candidateFolder(it fs.DirEntry) bool {
	if !it.IsDir() && it.Type()&fs.ModeSymlink == 0 {
		return false
	}
	return !strings.HasPrefix(it.Name(), ".") || addressTail.MatchString(it.Name())
}

func isFolder(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return errors.New("not a folder")
	}
	return nil
}

func checkFolder(dir string, it fs.DirEntry, byAddress map[string][]string) (Entry, string) {
	folder := it.Name()
	if others := byAddress[addressPart(folder)]; len(others) > 1 {
		quoted := make([]string, len(others))
		for i, o := range others {
			quoted[i] = Printable(o)
		}
		return Entry{}, fmt.Sprintf("address %s is in %d corpus folders (%s): none is read",
			addressPart(folder), len(others), strings.Join(quoted, ", "))
	}
	name, addr, err := SplitFolder(folder)
	if err != nil {
		return Entry{}, err.Error()
	}
	if it.Type()&fs.ModeSymlink != 0 {
		return Entry{}, fmt.Sprintf("folder %s is a symbolic link: a corpus folder must be a real folder", folder)
	}
	d := filepath.Join(dir, folder)
	if why := checkRecords(d, folder); why != "" {
		return Entry{}, why
	}
	return Entry{ID: folder, Address: addr, Name: name, Dir: d}, ""
}

// checkRecords checks that the folder has its getsourcecode.json and that
// each of its records (*.json) is a regular file within the read bound.
func checkRecords(d, folder string) string {
	if _, err := os.Lstat(filepath.Join(d, "getsourcecode.json")); err != nil {
		return fmt.Sprintf("folder %s has no getsourcecode.json", folder)
	}
	names, err := inputfile.Glob(d, "*.json")
	if err != nil {
		return fmt.Sprintf("folder %s: %v", folder, err)
	}
	for _, n := range names {
		st, err := inputfile.Stat(n)
		if err != nil {
			return fmt.Sprintf("folder %s: %s: %v", folder, filepath.Base(n), errors.Unwrap(err))
		}
		if st.Size() > MaxRecorded {
			return fmt.Sprintf("folder %s: %s is over %d bytes", folder, filepath.Base(n), MaxRecorded)
		}
	}
	return ""
}

var (
	folderPattern = regexp.MustCompile(`^([A-Za-z0-9_-][A-Za-z0-9_.-]*)_(0x[0-9a-fA-F]{40})$`)
	addressTail   = regexp.MustCompile(`_(0x[0-9a-fA-F]{40})$`)
)

// MaxFolderLen bounds a contract folder name, which is the contract id: the
// id and a stage's suffix make file names (manifests, their temporary files,
// partition folders) that must stay under the 255-byte limit of a file name.
const MaxFolderLen = 128

// SplitFolder checks a contract folder name, <Name>_0x<40 hex digits> with
// Name of [A-Za-z0-9_.-] (no "..", no leading '.', at most MaxFolderLen bytes
// in all), and returns its parts, the address in lower case. Such a name is
// safe as one path element and is its own id.
func SplitFolder(folder string) (name, addr string, err error) {
	if !utf8.ValidString(folder) {
		return "", "", fmt.Errorf("folder name %s is not valid UTF-8", Printable(folder))
	}
	if len(folder) > MaxFolderLen {
		return "", "", fmt.Errorf("folder name %s is %d bytes long, over %d (the id becomes part of file names in the data folder)",
			Printable(folder), len(folder), MaxFolderLen)
	}
	m := folderPattern.FindStringSubmatch(folder)
	if m == nil || strings.Contains(folder, "..") {
		return "", "", fmt.Errorf("folder name %s is not <Name>_0x<40 hex digits> with Name of letters, digits, '_', '.', '-' (not starting with '.', no '..')", Printable(folder))
	}
	return m[1], strings.ToLower(m[2]), nil
}

// FolderName is the corpus folder (and contract id) of a contract name and
// address from outside (an Etherscan answer): an error when the two do not
// make a safe folder name.
func FolderName(name, address string) (string, error) {
	folder := name + "_" + strings.ToLower(address)
	if _, _, err := SplitFolder(folder); err != nil {
		return "", fmt.Errorf("contract name %s and address %s make no corpus folder: %w", Printable(name), Printable(address), err)
	}
	return folder, nil
}

func addressPart(folder string) string {
	if m := addressTail.FindStringSubmatch(folder); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// Printable is s as is when it is printable UTF-8, else Go-quoted, so a
// message naming it is valid UTF-8 and shows every byte.
func Printable(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return s
	}
	return strconv.Quote(s)
}

// RejectedID is the id of a rejected folder: readable, unique per raw name,
// a safe path element, and never the id of a contract folder.
func RejectedID(folder string) string {
	readable := []byte(strings.ToValidUTF8(folder, "_"))
	for i, c := range readable {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			readable[i] = '_'
		}
	}
	if len(readable) > 60 {
		readable = readable[:60]
	}
	sum := sha256.Sum256([]byte(folder))
	return "rejected-" + string(readable) + "-" + hex.EncodeToString(sum[:6])
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
	body, err := readRecorded(filepath.Join(dir, file))
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
	// Each item is valid JSON as decoded: joined, not re-encoded.
	var items strings.Builder
	for i, r := range env.Result[lo:hi] {
		if i > 0 {
			items.WriteByte(',')
		}
		items.Write(r)
	}
	return envelope("1", "OK", "["+items.String()+"]")
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

// MaxRecorded bounds what one recorded answer may hold (the largest mainnet
// txlist file is a few MiB).
const MaxRecorded = 256 << 20

func readRecorded(path string) ([]byte, error) {
	return inputfile.Read(path, MaxRecorded)
}
