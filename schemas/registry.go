// Package schemas is the registry of the project's Parquet datasets.
//
// Each dataset has exactly one Go row type (parquet-go struct tags,
// snake_case column names) and one Markdown document, schemas/<dataset>.md,
// embedded into the binary. A dataset is added by one file here
// (schemas/<dataset>.go) that defines its handle, a [Table] of its row type
// ([Define]); registration order does not matter because [All] sorts by
// name. Stages write rows through the handle (pipeline.Add) and read them
// back through it (warehouse.ReadDataset), so rows of another type do not
// compile; internal/views exposes each dataset as a DuckDB view of the same
// name.
// See README.md in this folder for the convention.
package schemas

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"sync"
)

// Dataset describes one Parquet dataset of the warehouse.
type Dataset struct {
	// Name is the folder under the warehouse root and the DuckDB view name.
	Name string
	// Row is the zero value of the row struct, e.g. VerifyCall{}.
	Row any
	// Partitions are the Hive folder keys, outermost first (e.g. "contract").
	// They are folder names only; DuckDB adds each as a VARCHAR column.
	Partitions []string
	// Volatile lists row columns whose values legitimately differ run to run
	// (timings), so reproducibility checks must ignore them.
	Volatile []string
	// Pointers lists row columns that hold the id of a stored file rather
	// than a result: an artifact id is the digest of a whole compiler
	// output, which changes with what the compiler was asked to write (ASTs,
	// code for contracts nobody deploys), not with the code deployed from
	// it. Reproducibility checks leave them out, like Volatile; the deployed
	// code is compared through its own columns and its calls' outcomes.
	Pointers []string
	// Doc is the embedded schemas/<Name>.md.
	Doc string
	// RunRecord marks a dataset that records runs, not results (runs,
	// units): `solbehave digest` leaves it out.
	RunRecord bool
}

// Table is a dataset's typed handle: its name and its row type R together
// (as cryo's Datatype), so rows of another type cannot be written to it or
// read from it.
type Table[R any] struct{ name string }

// Name is the dataset's name: its warehouse folder and DuckDB view.
func (t Table[R]) Name() string { return t.name }

// Define registers a dataset whose rows are R and returns its handle; call
// it once per dataset, as a package variable of this package.
func Define[R any](d Dataset) Table[R] {
	var row R
	d.Row = row
	Register(d)
	return Table[R]{name: d.Name}
}

// Scratch is a handle on a dataset the registry does not know (no view, no
// schema doc, not published): test fixtures and throwaway warehouses.
func Scratch[R any](name string) Table[R] { return Table[R]{name: name} }

var (
	mu       sync.RWMutex
	registry = map[string]Dataset{}
	nameRe   = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// Register adds d to the registry. It is meant to be called from init(), and
// like database/sql.Register it panics on a programming error (duplicate or
// malformed name, non-struct row, missing doc), so the mistake surfaces the
// first time any binary or test starts rather than as bad data later.
func Register(d Dataset) {
	if err := check(d); err != nil {
		panic("schemas.Register: " + err.Error())
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[d.Name]; dup {
		panic("schemas.Register: duplicate dataset " + d.Name)
	}
	registry[d.Name] = d
}

func check(d Dataset) error {
	if !nameRe.MatchString(d.Name) {
		return fmt.Errorf("dataset name %q is not snake_case", d.Name)
	}
	if d.Row == nil || reflect.TypeOf(d.Row).Kind() != reflect.Struct {
		return fmt.Errorf("dataset %s: Row must be a struct value, got %T", d.Name, d.Row)
	}
	if d.Doc == "" {
		return fmt.Errorf("dataset %s: Doc is empty (embed schemas/%s.md)", d.Name, d.Name)
	}
	return nil
}

// All returns every registered dataset sorted by name.
func All() []Dataset {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Dataset, 0, len(registry))
	for _, d := range registry {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the dataset registered under name.
func Lookup(name string) (Dataset, bool) {
	mu.RLock()
	defer mu.RUnlock()
	d, ok := registry[name]
	return d, ok
}
