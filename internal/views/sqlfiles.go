package views

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"

	sqlviews "github.com/solbehave/solbehave/sql"
)

// loadSQLViews executes every sql/ file. Files run in `-- depends:` order;
// a file that still fails (an undeclared dependency not created yet) is
// retried after the others, until a whole pass makes no progress. The error
// then names every file that could not be created.
func loadSQLViews(ctx context.Context, db *sql.DB, files []sqlviews.File) error {
	pending := dependencyOrder(files)
	for len(pending) > 0 {
		var failed []sqlviews.File
		var errs []error
		for _, f := range pending {
			if _, err := db.ExecContext(ctx, f.Text); err != nil {
				failed = append(failed, f)
				errs = append(errs, fmt.Errorf("sql/%s: %w", f.Name, err))
			}
		}
		if len(failed) == len(pending) {
			return fmt.Errorf("views: %w", errors.Join(errs...))
		}
		pending = failed
	}
	return nil
}

// dependencyOrder sorts files so that each comes after the files its
// `-- depends:` header names (names that are not files, such as datasets,
// are ignored). Ties keep the input order; files caught in a cycle keep their
// input order too and are left to the retry loop to report.
func dependencyOrder(files []sqlviews.File) []sqlviews.File {
	isFile := map[string]bool{}
	for _, f := range files {
		isFile[f.View()] = true
	}
	done := map[string]bool{}
	var out []sqlviews.File
	for len(out) < len(files) {
		progressed := false
		for _, f := range files {
			if !done[f.View()] && depsDone(f, isFile, done) {
				done[f.View()] = true
				out = append(out, f)
				progressed = true
			}
		}
		if !progressed { // a cycle: append the rest as they come
			for _, f := range files {
				if !done[f.View()] {
					done[f.View()] = true
					out = append(out, f)
				}
			}
		}
	}
	return out
}

func depsDone(f sqlviews.File, isFile, done map[string]bool) bool {
	for _, d := range f.Depends() {
		if isFile[d] && !done[d] && d != f.View() {
			return false
		}
	}
	return true
}

// identRe matches the words of SQL text that may name a view.
var identRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// reading is the files of the named views and of every view their text
// names, then every view those name, and so on, in files' order. A word
// that names a view in a comment or as a column brings it in needlessly,
// never leaves one out, so it reads no `-- depends:` header.
func reading(files []sqlviews.File, names []string) []sqlviews.File {
	byView := map[string]sqlviews.File{}
	for _, f := range files {
		byView[f.View()] = f
	}
	need := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		f, ok := byView[name]
		if !ok || need[name] {
			return
		}
		need[name] = true
		for _, word := range identRe.FindAllString(f.Text, -1) {
			visit(word)
		}
	}
	for _, n := range names {
		visit(n)
	}
	return slices.DeleteFunc(slices.Clone(files), func(f sqlviews.File) bool { return !need[f.View()] })
}
