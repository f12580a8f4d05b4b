package warehouse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/solbehave/solbehave/schemas"
)

type sample struct {
	ContractID string `parquet:"contract_id"`
	Index      int64  `parquet:"tx_index"`
	OK         bool   `parquet:"ok"`
	Note       string `parquet:"note"`
}

var sampleRows = []sample{
	{ContractID: "Vault_0xabc", Index: 1, OK: true, Note: "first"},
	{ContractID: "Vault_0xabc", Index: -7, OK: false, Note: ""},
	{ContractID: "", Index: 1 << 62, OK: true, Note: "ünïcode, \"quoted\"\nnewline"},
}

func TestWriteReadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.parquet")
	if err := Write(path, sampleRows); err != nil {
		t.Fatal(err)
	}
	got, err := Read[sample](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sampleRows) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, sampleRows)
	}
}

func TestWriteIsZstdCompressed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.parquet")
	if err := Write(path, sampleRows); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(mustOpen(t, path), fileSize(t, path))
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if got := c.MetaData.Codec.String(); got != "ZSTD" {
				t.Errorf("column %v codec %s, want ZSTD", c.MetaData.PathInSchema, got)
			}
		}
	}
}

func TestZeroRowsWriteValidFileWithSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.parquet")
	if err := Write(path, []sample{}); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(mustOpen(t, path), fileSize(t, path))
	if err != nil {
		t.Fatalf("zero-row file is not valid parquet: %v", err)
	}
	if f.NumRows() != 0 {
		t.Fatalf("rows = %d", f.NumRows())
	}
	var names []string
	for _, field := range f.Schema().Fields() {
		names = append(names, field.Name())
	}
	if want := []string{"contract_id", "tx_index", "ok", "note"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("schema columns %v, want %v", names, want)
	}
	rows, err := Read[sample](path)
	if err != nil || len(rows) != 0 {
		t.Fatalf("Read = %v, %v", rows, err)
	}
}

func TestAtomicWriteLeavesNoTmpAndCreatesFolders(t *testing.T) {
	w := New(t.TempDir())
	path := w.Path(schemas.VerifyCalls.Name(), ByContract("Vault_0xabc"), "calls")
	if err := Write(path, sampleRows); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, sampleRows[:1]); err != nil { // overwrite in place
		t.Fatal(err)
	}
	want := filepath.Join(w.Root, "verify_calls", "contract=Vault_0xabc", "calls.parquet")
	if path != want {
		t.Fatalf("path %s, want %s", path, want)
	}
	if entries := dirNames(t, filepath.Dir(path)); !reflect.DeepEqual(entries, []string{"calls.parquet"}) {
		t.Fatalf("folder holds %v, want only calls.parquet", entries)
	}
	rows, err := Read[sample](path)
	if err != nil || len(rows) != 1 {
		t.Fatalf("after overwrite: %v rows, err %v", len(rows), err)
	}
}

func TestFailedWriteLeavesNothing(t *testing.T) {
	type bad struct {
		C chan int `parquet:"c"` // parquet-go cannot map channels (it panics)
	}
	dir := t.TempDir()
	err := Write(filepath.Join(dir, "bad.parquet"), []bad{{}})
	if err == nil {
		t.Fatal("want an error for an unmappable row type")
	}
	if entries := dirNames(t, dir); len(entries) != 0 {
		t.Fatalf("failed write left %v", entries)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read[sample](filepath.Join(dir, "missing.parquet")); err == nil {
		t.Error("missing file: want error")
	}
	junk := filepath.Join(dir, "junk.parquet")
	if err := os.WriteFile(junk, []byte("not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read[sample](junk); err == nil || !strings.Contains(err.Error(), junk) {
		t.Errorf("junk file: err = %v, want an error naming the file", err)
	}
}

func TestPathSanitises(t *testing.T) {
	w := New("/data/warehouse")
	cases := []struct {
		parts []Partition
		name  string
		want  string
	}{
		{ByContract("Vault_0xAbC"), "p", "/data/warehouse/ds/contract=Vault_0xAbC/p.parquet"},
		{ByContract("../../etc"), "p", "/data/warehouse/ds/contract=______etc/p.parquet"},
		{ByContract(".."), "..", "/data/warehouse/ds/contract=__/__.parquet"},
		{ByContract("a/b\\c d=e"), "x/y", "/data/warehouse/ds/contract=a_b_c_d_e/x_y.parquet"},
		{ByContract(""), "", "/data/warehouse/ds/contract=_/_.parquet"},
		{[]Partition{{"model", "gemma-4"}, {"sample", "3"}}, "o2", "/data/warehouse/ds/model=gemma-4/sample=3/o2.parquet"},
		{nil, "all", "/data/warehouse/ds/all.parquet"},
	}
	for _, c := range cases {
		got := w.Path("ds", c.parts, c.name)
		if got != c.want {
			t.Errorf("Path(%v, %q) = %s, want %s", c.parts, c.name, got, c.want)
		}
		if !strings.HasPrefix(filepath.Clean(got), "/data/warehouse/ds/") {
			t.Errorf("Path(%v, %q) escapes the dataset: %s", c.parts, c.name, got)
		}
	}
	if got := w.Path("../x", nil, "p"); got != "/data/warehouse/___x/p.parquet" {
		t.Errorf("dataset not sanitised: %s", got)
	}
}

func TestFilesReadDatasetRemovePart(t *testing.T) {
	w := New(t.TempDir())
	if files, err := w.Files("nothing"); err != nil || len(files) != 0 {
		t.Fatalf("unwritten dataset: %v, %v", files, err)
	}
	for _, id := range []string{"B_0x2", "A_0x1"} {
		rows := []sample{{ContractID: id, Index: 1}, {ContractID: id, Index: 2}}
		if err := Write(w.Path("ds", ByContract(id), "part"), rows); err != nil {
			t.Fatal(err)
		}
	}
	stray := w.Path("ds", ByContract("A_0x1"), "part") + ".tmp-123" // as a crash would leave
	if err := os.WriteFile(stray, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := w.Files("ds")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || !strings.Contains(files[0], "A_0x1") || !strings.Contains(files[1], "B_0x2") {
		t.Fatalf("Files = %v, want the two parts, sorted, no tmp", files)
	}
	all, err := ReadDataset(w, schemas.Scratch[sample]("ds"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range all {
		ids = append(ids, r.ContractID)
	}
	if want := []string{"A_0x1", "A_0x1", "B_0x2", "B_0x2"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ReadDataset order %v, want %v", ids, want)
	}

	if err := w.RemovePart("ds", ByContract("B_0x2"), "part"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w.Root, "ds", "contract=B_0x2")); !os.IsNotExist(err) {
		t.Errorf("empty partition folder left behind (stat err %v)", err)
	}
	if err := w.RemovePart("ds", ByContract("B_0x2"), "part"); err != nil {
		t.Errorf("removing a missing part: %v", err)
	}
	if err := w.RemovePart("ds", ByContract("A_0x1"), "part"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w.Root, "ds", "contract=A_0x1")); err != nil {
		t.Errorf("folder with a stray file must stay: %v", err)
	}
	if _, err := os.Stat(w.DatasetDir("ds")); err != nil {
		t.Errorf("dataset folder removed: %v", err)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
