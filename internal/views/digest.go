package views

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/schemas"
)

// Digest is a content digest of one dataset: sha256 over its rows, each
// rendered canonically, sorted, with the dataset's volatile and pointer
// columns left out.
// Two warehouses with the same rows have the same digests, however the rows
// are split into files.
type Digest struct {
	Dataset string
	Rows    int
	SHA256  string
}

// Digests computes the digest of every registered dataset.
func Digests(ctx context.Context, db *sql.DB) ([]Digest, error) {
	return ModelDigests(ctx, db, "")
}

// ErrNoModelRows is ModelDigests' answer for a model no dataset has a row
// of: its digests would be the empty input's, and a before/after comparison
// of a misspelt name would pass without comparing anything.
var ErrNoModelRows = errors.New("no dataset has a row of this model")

// ModelDigests is [Digests] over one model's rows (model "": every row):
// the datasets with a `model` column, each over the rows of that model, so
// a later run of another model can be checked to leave this one's alone.
func ModelDigests(ctx context.Context, db *sql.DB, model string) ([]Digest, error) {
	var out []Digest
	rows := 0
	for _, d := range schemas.All() {
		if d.RunRecord {
			continue // runs differ run to run by design
		}
		if model != "" && !d.HasColumn("model") {
			continue
		}
		dg, err := datasetDigest(ctx, db, d, model)
		if err != nil {
			return nil, err
		}
		out = append(out, dg)
		rows += dg.Rows
	}
	if model != "" && rows == 0 {
		return nil, fmt.Errorf("model %q: %w", model, ErrNoModelRows)
	}
	return out, nil
}

func datasetDigest(ctx context.Context, db *sql.DB, d schemas.Dataset, model string) (Digest, error) {
	exclude := append(slices.Clone(d.Volatile), d.Pointers...) // the partition column is hidden by the view itself
	q := fmt.Sprintf("SELECT * FROM %s", QuoteIdent(d.Name))
	if len(exclude) > 0 {
		quoted := make([]string, len(exclude))
		for i, c := range exclude {
			quoted[i] = QuoteIdent(c)
		}
		q = fmt.Sprintf("SELECT * EXCLUDE (%s) FROM %s", strings.Join(quoted, ", "), QuoteIdent(d.Name))
	}
	if model != "" {
		q += " WHERE model = " + QuoteString(model)
	}
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return Digest{}, fmt.Errorf("digest %s: %w", d.Name, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	err = EachRow(rows, func(vals []any) error {
		var b strings.Builder
		for i, v := range vals {
			fmt.Fprintf(&b, "%s=%v\x1f", cols[i], v)
		}
		lines = append(lines, b.String())
		return nil
	})
	if err != nil {
		return Digest{}, err
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return Digest{Dataset: d.Name, Rows: len(lines), SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
