// Package warehouse stores pipeline results as typed Parquet files in
// Hive-style partition folders:
//
//	<root>/<dataset>/<key>=<value>/.../<part>.parquet
//
// Rows are Go structs with parquet-go struct tags (see package schemas for
// the registered row types); files are zstd-compressed and written
// atomically, so readers (and DuckDB views over `**/*.parquet`) never see a
// half-written part.
//
// Partition convention: the folder key for per-contract data is `contract`
// (see [ByContract]) while the row itself carries the authoritative
// `contract_id` column. The two names differ on purpose: DuckDB's
// hive_partitioning adds a column named after the folder key, and a folder key
// equal to a row column would collide with it. Folder values are sanitised
// (see [Sanitize]), so `contract` is a locality/pruning hint and `contract_id`
// is the value to join on.
//
// This package deliberately does not import DuckDB: stages that only write
// Parquet link quickly. Querying lives in internal/views.
package warehouse

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Ext is the extension of every part file.
const Ext = ".parquet"

// ContractKey is the partition folder key used for per-contract parts.
const ContractKey = "contract"

// Partition is one Hive partition level: a folder named Key=Value.
type Partition struct{ Key, Value string }

// ByContract returns the partition list for a per-contract part.
func ByContract(contractID string) []Partition {
	return []Partition{{Key: ContractKey, Value: contractID}}
}

// Warehouse is a directory of datasets, normally <data>/warehouse.
type Warehouse struct {
	Root string
	keep func(path string) bool // nil: every part
}

// New returns a warehouse rooted at root. Nothing is created until a write.
func New(root string) *Warehouse { return &Warehouse{Root: root} }

// Filtered is the same warehouse with Files listing only the parts keep
// accepts (given their path as Files gives it): e.g. the outputs of the
// units that are current.
func (w *Warehouse) Filtered(keep func(path string) bool) *Warehouse {
	return &Warehouse{Root: w.Root, keep: keep}
}

// DatasetDir is the folder holding every part of dataset.
func (w *Warehouse) DatasetDir(dataset string) string {
	return filepath.Join(w.Root, Sanitize(dataset))
}

// Path returns the file path of one part: name is given without extension.
// Every path element (dataset, partition keys and values, name) is passed
// through [Sanitize], so caller-supplied values cannot escape the dataset
// folder or add folder levels.
func (w *Warehouse) Path(dataset string, parts []Partition, name string) string {
	elems := make([]string, 0, len(parts)+3)
	elems = append(elems, w.Root, Sanitize(dataset))
	for _, p := range parts {
		elems = append(elems, Sanitize(p.Key)+"="+Sanitize(p.Value))
	}
	elems = append(elems, Sanitize(name)+Ext)
	return filepath.Join(elems...)
}

// Sanitize makes s safe as one path element: every byte outside
// [A-Za-z0-9._-] becomes '_' ('/', '\\', '=', spaces, non-ASCII), and any
// ".." becomes "__", so the result is never "", "." or "..", and contains no
// separator. Corpus contract ids (`Name_0xabc...`) pass unchanged.
// Distinct inputs can map to the same element; rows carry their real ids.
func Sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !isSafe(c) {
			b[i] = '_'
		}
	}
	out := strings.ReplaceAll(string(b), "..", "__")
	if out == "" || out == "." {
		return "_"
	}
	return out
}

func isSafe(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '_' || c == '-'
}

// Files lists every part of dataset (that the filter keeps, see Filtered),
// sorted, as paths under w.Root. A dataset
// never written returns no files and no error. Temporary files of writes in
// progress (or of crashed writes) are not parts and are not listed.
func (w *Warehouse) Files(dataset string) ([]string, error) {
	return w.filesUnder(w.DatasetDir(dataset), dataset)
}

// PartitionFiles is [Warehouse.Files] within one partition (a contract's
// parts), reading that folder alone.
func (w *Warehouse) PartitionFiles(dataset string, parts []Partition) ([]string, error) {
	return w.filesUnder(filepath.Dir(w.Path(dataset, parts, "part")), dataset)
}

func (w *Warehouse) filesUnder(dir, dataset string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), Ext) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("warehouse: list %s: %w", dataset, err)
	}
	sort.Strings(files)
	return w.Kept(files), nil
}

// Kept is the paths among files that the filter keeps (see Filtered), in
// their order: every one when w has no filter.
func (w *Warehouse) Kept(files []string) []string {
	if w.keep == nil {
		return files
	}
	var kept []string
	for _, f := range files {
		if w.keep(f) {
			kept = append(kept, f)
		}
	}
	return kept
}

// RemovePart deletes one part and then any partition folders it leaves empty
// (never the dataset folder itself). Removing a part that does not exist is
// not an error, so reruns can clear their previous output unconditionally.
func (w *Warehouse) RemovePart(dataset string, parts []Partition, name string) error {
	path := w.Path(dataset, parts, name)
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("warehouse: remove part: %w", err)
	}
	top := w.DatasetDir(dataset)
	for dir := filepath.Dir(path); dir != top && strings.HasPrefix(dir, top); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil { // not empty (or gone): stop climbing
			break
		}
	}
	return nil
}
