package views

import sqlviews "github.com/solbehave/solbehave/sql"

// OrderedSQLFiles are the sql/ files in the order they load (each after the
// files its `-- depends:` header names): a release bundles them so.
func OrderedSQLFiles() []sqlviews.File { return dependencyOrder(sqlviews.Files()) }

// DocSummary is the first paragraph of a dataset doc, after its title (the
// dataset view's comment; a release's resource description).
func DocSummary(doc string) string { return docSummary(doc) }
