package regen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// importer reads samples written elsewhere: <dir>/<contract_id>/<k>.sol.
type importer struct{ dir, name string }

func newImporter(dir string) (Generator, error) {
	if dir == "" {
		return nil, fmt.Errorf("import generator needs a folder: import:<dir>")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("import folder %s: not a readable folder", dir)
	}
	return importer{dir: abs, name: filepath.Base(abs)}, nil
}

func (im importer) Name() string { return KindImport + ":" + im.name }
func (im importer) Kind() string { return KindImport }

// Digest covers the contract's imported files, so editing one reruns it.
func (im importer) Digest(contractID string) string {
	h := sha256.New()
	h.Write([]byte(im.dir + "\x00"))
	dir := filepath.Join(im.dir, contractID)
	entries, _ := os.ReadDir(dir)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		h.Write([]byte(n + "\x00" + fileDigest(filepath.Join(dir, n)) + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Generate merges the imported sample into the original files: every
// contract, library or interface it defines replaces the definition of that
// name in the file that defines it (a benchmark's task may ask for a base,
// e.g. Pausable in a file whose deployed contract is WOLFCOIN, or a base in
// another file of a multi-file source). A sample that defines none of the
// source's contracts is the generator's failure, named in the row.
func (im importer) Generate(_ context.Context, t Task) *Result {
	// Rows name the sample from the import folder's name: no folder of this
	// machine goes into a row (a release refuses them).
	name := filepath.Join(im.name, t.ContractID, strconv.Itoa(t.Sample)+".sol")
	b, err := readSample(filepath.Join(im.dir, t.ContractID, strconv.Itoa(t.Sample)+".sol"))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil {
		return &Result{Err: fmt.Sprintf("imported sample %s: %v", name, err)}
	}
	if t.Original == nil {
		return &Result{Err: fmt.Sprintf("no original source for %s", t.ContractID)}
	}
	files, err := MergeFiles(t.Original.Files, t.Skeleton.File, SampleCode(string(b)))
	if err != nil {
		return &Result{Err: fmt.Sprintf("imported sample %s: %v", name, err), Failure: FailureModel, Failed: 1}
	}
	return &Result{Target: files[t.Skeleton.File], Files: files, Generated: len(t.Skeleton.Holes())}
}

// maxImportedSample bounds one imported sample: the largest flattened
// mainnet source is well under a megabyte, a stray file cannot exhaust memory.
const maxImportedSample = 8 << 20

// readSample reads an imported sample up to maxImportedSample bytes: a
// regular file only (a FIFO or a device there must not hang or grow the run).
func readSample(path string) ([]byte, error) {
	return inputfile.Read(path, maxImportedSample)
}

// fileDigest is a regular file's SHA-256 (constant memory, within the
// sample bound); a file that cannot be read digests as its error, so fixing
// it reruns the unit, whose run then says what is wrong.
func fileDigest(path string) string {
	d, err := inputfile.Digest(path, maxImportedSample)
	if err != nil {
		return "error:" + err.Error()
	}
	return d
}
