package schemas

import _ "embed"

//go:embed files.md
var filesDoc string

// FileRow is one row of the `files` dataset: a file that rows of other
// datasets point at (a DCR graph, a sample's source, a skeleton), shipped
// with a release as a column so that a release is self-contained.
type FileRow struct {
	Path       string `parquet:"path"`
	ContractID string `parquet:"contract_id"`
	Kind       string `parquet:"kind"`
	Bytes      int64  `parquet:"bytes"`
	SHA256     string `parquet:"sha256"`
	License    string `parquet:"license"`
	Error      string `parquet:"error"`
	Content    string `parquet:"content"`
}

// Files is the files dataset: rows of FileRow.
var Files = Define[FileRow](Dataset{Name: "files", Doc: filesDoc})
