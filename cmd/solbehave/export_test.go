package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Each export format is read back by a reader that did not write it:
// Parquet by DuckDB for Node (@duckdb/node-api), Arrow IPC by apache-arrow
// for JavaScript with a zstd codec registered (fzstd), CSV and NDJSON by
// Debian's pandas. A reader that cannot be installed skips its part.

// expected is what a reader must find in replay_calls: rows, columns, and
// the sum of gas_ref.
type expected struct {
	Rows    int      `json:"rows"`
	Columns []string `json:"columns"`
	GasRef  int64    `json:"gas_ref"`
}

func replayCallsExpected(t *testing.T, data string) expected {
	t.Helper()
	out, err := solbehave(t, "sql", "--data", data, "--format", "ndjson",
		"SELECT (SELECT count(*) FROM replay_calls) AS rows, (SELECT sum(gas_ref) FROM replay_calls) AS gas_ref, "+
			"(SELECT list(column_name ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'replay_calls') AS columns")
	if err != nil {
		t.Fatal(err)
	}
	var e expected
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Rows == 0 {
		t.Fatalf("expected rows: %v\n%s", err, out)
	}
	return e
}

// nodeReaders installs the npm readers once into the cache, or skips.
func nodeReaders(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not installed: the Node readers are skipped")
	}
	cache := os.Getenv("SOLBEHAVE_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "solbehave")
	}
	dir := filepath.Join(cache, "test-readers", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "fzstd")); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund",
			"apache-arrow@21.2.0", "fzstd@0.1.1", "@duckdb/node-api@1.5.6-r.1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("cannot install the Node readers (%v): %s", err, out)
		}
	}
	return dir
}

// runNode runs an ES module script from the readers' folder (so its imports
// resolve there) and decodes the JSON it prints.
func runNode(t *testing.T, dir, name, script string, args ...string) expected {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", append([]string{path}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", name, err, out)
	}
	var e expected
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &e); err != nil {
		t.Fatalf("node %s printed %s", name, out)
	}
	return e
}

const readParquetJS = `import { DuckDBInstance } from '@duckdb/node-api';
const file = process.argv[2].replaceAll("'", "''");
const conn = await (await DuckDBInstance.create(':memory:')).connect();
const r = await conn.runAndReadAll("SELECT count(*)::INTEGER AS n, sum(gas_ref)::DOUBLE AS g FROM read_parquet('" + file + "')");
const d = await conn.runAndReadAll("SELECT name FROM parquet_schema('" + file + "') WHERE num_children IS NULL");
console.log(JSON.stringify({rows: r.getRows()[0][0], gas_ref: r.getRows()[0][1], columns: d.getRows().map(x => x[0])}));
`

const readArrowJS = `import { readFileSync } from 'node:fs';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import { decompress } from 'fzstd';
const bytes = readFileSync(process.argv[2]);
let compressed = false;
try { tableFromIPC(bytes); } catch (e) { compressed = /compress|codec|zstd/i.test(String(e)); }
if (!compressed) { console.error('the file reads without a zstd codec: not compressed'); process.exit(3); }
// slice(): a buffer of its own, 8-byte aligned, as the typed arrays over it need.
compressionRegistry.set(CompressionType.ZSTD, { decode: (b) => decompress(b).slice() });
const t = tableFromIPC(bytes);
let g = 0n;
for (const v of t.getChild('gas_ref')) { if (v !== null) g += BigInt(v); }
console.log(JSON.stringify({rows: t.numRows, gas_ref: Number(g), columns: t.schema.fields.map(f => f.name)}));
`

func checkRead(t *testing.T, format string, got, want expected) {
	t.Helper()
	if got.Rows != want.Rows || got.GasRef != want.GasRef || strings.Join(got.Columns, ",") != strings.Join(want.Columns, ",") {
		t.Errorf("%s read back: %+v\nwant %+v", format, got, want)
	}
}

func TestExportParquetReadByNodeDuckDB(t *testing.T) {
	data := synthData(t, 11)
	want := replayCallsExpected(t, data)
	dir := nodeReaders(t)
	t.Chdir(t.TempDir())
	if _, err := solbehave(t, "export", "replay_calls", "--data", data); err != nil { // parquet is the default
		t.Fatal(err)
	}
	file, _ := filepath.Abs("replay_calls.parquet")
	checkRead(t, "parquet", runNode(t, dir, "read_parquet.mjs", readParquetJS, file), want)
}

func TestExportArrowZstdReadByApacheArrowJS(t *testing.T) {
	data := synthData(t, 11)
	want := replayCallsExpected(t, data)
	dir := nodeReaders(t)
	file := filepath.Join(t.TempDir(), "calls.arrow")
	if _, err := solbehave(t, "export", "replay_calls", "--data", data, "--format", "arrow", "--out", file); err != nil {
		t.Fatal(err)
	}
	checkRead(t, "arrow", runNode(t, dir, "read_arrow.mjs", readArrowJS, file), want)
}

const readPandasPy = `import json, sys
import pandas as pd
fmt, path = sys.argv[1], sys.argv[2]
df = pd.read_csv(path) if fmt == "csv" else pd.read_json(path, lines=True, dtype=False)
print(json.dumps({"rows": len(df), "gas_ref": int(df["gas_ref"].sum()), "columns": list(df.columns)}))
`

// CSV and NDJSON go to stdout without --out; Debian's pandas reads them.
func TestExportTextReadByPandas(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import pandas").Run(); err != nil {
		t.Skip("Debian's python3 has no pandas (make test-deps installs python3-pandas)")
	}
	data := synthData(t, 11)
	want := replayCallsExpected(t, data)
	dir := t.TempDir()
	script := filepath.Join(dir, "read.py")
	if err := os.WriteFile(script, []byte(readPandasPy), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"csv", "ndjson", "json"} {
		out, err := solbehave(t, "export", "replay_calls", "--data", data, "--format", format)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "calls."+format)
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		kind := "csv"
		if format != "csv" {
			kind = "ndjson"
		}
		res, err := exec.Command(py, script, kind, file).CombinedOutput()
		if err != nil {
			t.Fatalf("pandas %s: %v\n%s", format, err, res)
		}
		var got expected
		if err := json.Unmarshal(res, &got); err != nil {
			t.Fatalf("pandas printed %s", res)
		}
		checkRead(t, format, got, want)
	}
}

// TestReadmeOpeningSaysWhereOutputsAre: the README's opening (before "## What
// it is") says how long `make run` takes and where its outputs are, and its
// reading recipes are the ones the readers above run.
func TestReadmeOpeningSaysWhereOutputsAre(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	opening, _, _ := strings.Cut(string(raw), "## What it is")
	for _, want := range []string{"data/report/index.html", "data/solbehave.duckdb", "minutes", "ndjson", "dtype=False"} {
		if !strings.Contains(opening, want) {
			t.Errorf("the README's opening lines do not say %q", want)
		}
	}
	for _, recipe := range []struct{ start, reader string }{
		{"compressionRegistry.set(", readArrowJS},
		{"pd.read_json(", readPandasPy},
	} {
		i := strings.Index(opening, recipe.start)
		if i < 0 {
			t.Errorf("the README's opening has no %s recipe", recipe.start)
			continue
		}
		line, _, _ := strings.Cut(opening[i:], "`")
		if !strings.Contains(recipe.reader, strings.TrimPrefix(line, "df = ")) {
			t.Errorf("the README's recipe %q is not what the tested reader runs", line)
		}
	}
}
