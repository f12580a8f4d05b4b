package release

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/schemas"
)

// A release can pass its checksums (recomputed after an edit) and still
// contradict itself: a contract's corpus/ folder removed leaves its
// published rows in and the new model unevaluated on it; samples naming a
// model with no files come in as a model `status` lists; samples whose
// sources are not in `files` come in without them. CheckConsistent finds
// each before anything is imported.

// maxListed bounds how many missing things a refusal names one by one.
const maxListed = 10

// CheckConsistent checks that every contract the release's samples name has
// its corpus folder, and that every sample source they name is in `files`,
// in its model's and contract's sample folder.
func CheckConsistent(ctx context.Context, db *sql.DB, dir string) error {
	var missing []string
	corpus, err := corpusIDs(filepath.Join(dir, ReleaseCorpus))
	if err != nil {
		return err
	}
	samples, files := parquetOf(dir, schemas.Samples.Name()), parquetOf(dir, schemas.Files.Name())
	q := "SELECT s.contract_id, s.model, s.source_path, f.path IS NOT NULL FROM " + samples + " s LEFT JOIN (SELECT DISTINCT path FROM " +
		files + ") f ON f.path = s.source_path ORDER BY 1, 2, 3"
	err = eachRow(ctx, db, q, func(contract, model, source string, shipped bool) {
		if !corpus[contract] {
			missing = append(missing, fmt.Sprintf("contract %s: no %s/%s folder", contract, ReleaseCorpus, contract))
			corpus[contract] = true // named once
		}
		switch {
		case source == "": // a sample that failed before it had a source
		case !strings.HasPrefix(source, regen.SampleDir(contract, model)+"/"):
			missing = append(missing, fmt.Sprintf("model %s: sample source %s is not in its sample folder %s", model, source, regen.SampleDir(contract, model)))
		case !shipped:
			missing = append(missing, fmt.Sprintf("model %s: sample source %s is not in files", model, source))
		}
	})
	if err != nil {
		return fmt.Errorf("reading samples and files: %w", err)
	}
	return missingError(missing)
}

// parquetOf is the release's Parquet file of a dataset, as a DuckDB table function.
func parquetOf(dir, dataset string) string {
	return "read_parquet(" + views.QuoteString(filepath.ToSlash(filepath.Join(dir, File(dataset)))) + ")"
}

// corpusIDs are the contract ids of the release's corpus folders.
func corpusIDs(dir string) (map[string]bool, error) {
	entries, err := etherscan.ListCorpus(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, e := range entries {
		out[e.ID] = true
	}
	return out, nil
}

func eachRow(ctx context.Context, db *sql.DB, q string, each func(contract, model, source string, shipped bool)) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var contract, model, source string
		var shipped bool
		if err := rows.Scan(&contract, &model, &source, &shipped); err != nil {
			return err
		}
		each(contract, model, source, shipped)
	}
	return rows.Err()
}

func missingError(missing []string) error {
	if len(missing) == 0 {
		return nil
	}
	n, more := len(missing), ""
	if n > maxListed {
		more = fmt.Sprintf("\n  and %d more", len(missing)-maxListed)
		missing = missing[:maxListed]
	}
	return fmt.Errorf("the release is not consistent with itself: %d thing(s) it names are missing:\n  %s%s",
		n, strings.Join(missing, "\n  "), more)
}
