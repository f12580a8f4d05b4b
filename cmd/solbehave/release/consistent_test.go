package release

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/schemas"
)

const (
	contractA = "A_0x00000000000000000000000000000000000000aa"
	contractB = "B_0x00000000000000000000000000000000000000bb"
)

// fakeRelease writes the parts of a release CheckConsistent reads: samples
// and files rows (as SQL VALUES) and a corpus folder per contract.
func fakeRelease(t *testing.T, db *sql.DB, samples, files string, corpus ...string) string {
	t.Helper()
	dir := t.TempDir()
	for ds, values := range map[string]string{
		schemas.Samples.Name(): "SELECT * FROM (VALUES " + samples + ") v(contract_id, model, source_path)",
		schemas.Files.Name():   "SELECT * FROM (VALUES (" + files + ")) v(path)",
	} {
		path := filepath.Join(dir, File(ds))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("COPY (" + values + ") TO '" + path + "' (FORMAT parquet)"); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range corpus {
		os.MkdirAll(filepath.Join(dir, ReleaseCorpus, c), 0o755)
		os.WriteFile(filepath.Join(dir, ReleaseCorpus, c, "getsourcecode.json"), []byte(`{}`), 0o644)
	}
	return dir
}

// TestCheckConsistent: the three tampered releases issue 58 imported in
// silence (a corpus folder removed, a model `ghost` with no files, a
// model's sources missing from files) are each refused, naming what is
// missing; the untampered one passes.
func TestCheckConsistent(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a0, b0 := "'samples/"+contractA+"/mutant/0.sol'", "'samples/"+contractB+"/mutant/0.sol'"
	rows := "('" + contractA + "', 'mutant', " + a0 + "), ('" + contractB + "', 'mutant', " + b0 + "), ('" + contractB + "', 'mutant', '')"
	if err := CheckConsistent(t.Context(), db, fakeRelease(t, db, rows, a0+"), ("+b0, contractA, contractB)); err != nil {
		t.Fatalf("an untampered release: %v", err)
	}
	for _, c := range []struct{ name, samples, files, want string }{
		{"corpus folder removed", rows, a0 + "), (" + b0, "contract " + contractB + ": no corpus/"},
		{"ghost over another model's file", rows + ", ('" + contractA + "', 'ghost', " + a0 + ")", a0 + "), (" + b0, "model ghost: sample source"},
		{"ghost with no files", rows + ", ('" + contractA + "', 'ghost', 'samples/" + contractA + "/ghost/0.sol')", a0 + "), (" + b0, "model ghost: sample source"},
		{"sources missing from files", rows, a0, "model mutant: sample source " + strings.Trim(b0, "'") + " is not in files"},
	} {
		corpus := []string{contractA, contractB}
		if c.name == "corpus folder removed" {
			corpus = corpus[:1]
		}
		err := CheckConsistent(t.Context(), db, fakeRelease(t, db, c.samples, c.files, corpus...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one naming %q", c.name, err, c.want)
		}
	}
}
