package schemas

import (
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// Columns returns the top-level column names of the dataset's Parquet
// schema, in file order, exactly as parquet-go derives them from Row's tags.
// Partition keys are not included (they live in folder names).
func (d Dataset) Columns() (names []string, err error) {
	defer func() { // parquet-go panics on row types it cannot map
		if r := recover(); r != nil {
			err = fmt.Errorf("schemas: dataset %s: %v", d.Name, r)
		}
	}()
	for _, f := range parquet.SchemaOf(d.Row).Fields() {
		names = append(names, f.Name())
	}
	return names, nil
}

// HasColumn says whether the dataset's rows have a column of that name.
func (d Dataset) HasColumn(name string) bool {
	cols, err := d.Columns()
	return err == nil && slices.Contains(cols, name)
}
