// Package notebooks holds the analysis notebooks (see README.md); this test
// keeps them from breaking silently as the views change.
package notebooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/views/viewstest"
)

// The six parts of the evaluation, one notebook each.
var want = []string{
	"01_construction.ipynb", "02_compilation.ipynb", "03_replay_oracles.ipynb",
	"04_differential_fuzzing.ipynb", "05_dcr_extraction.ipynb", "06_vulnerabilities.ipynb",
}

type notebook struct {
	Cells []struct {
		Type           string          `json:"cell_type"`
		Source         []string        `json:"source"`
		Outputs        []any           `json:"outputs"`
		ExecutionCount json.RawMessage `json:"execution_count"`
	} `json:"cells"`
	NBFormat int `json:"nbformat"`
}

func load(t *testing.T, name string) notebook {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("%s: not notebook JSON: %v", name, err)
	}
	if nb.NBFormat != 4 {
		t.Fatalf("%s: nbformat %d, want 4", name, nb.NBFormat)
	}
	return nb
}

func (nb notebook) code() []string {
	var out []string
	for _, c := range nb.Cells {
		if c.Type == "code" {
			out = append(out, strings.Join(c.Source, ""))
		}
	}
	return out
}

func TestNotebooksPresentAndClear(t *testing.T) {
	all, _ := filepath.Glob("*.ipynb")
	var found []string
	for _, name := range all {
		if !strings.HasSuffix(name, ".nbconvert.ipynb") { // an executed copy, git-ignored
			found = append(found, name)
		}
	}
	if strings.Join(found, ",") != strings.Join(want, ",") {
		t.Errorf("notebooks %v, want %v", found, want)
	}
	for _, name := range found {
		for i, c := range load(t, name).Cells {
			if c.Type != "code" {
				continue
			}
			if len(c.Outputs) > 0 || (len(c.ExecutionCount) > 0 && string(c.ExecutionCount) != "null") {
				t.Errorf("%s cell %d has outputs: clear them (jupyter nbconvert --clear-output --inplace)", name, i)
			}
		}
	}
}

// sqlRe matches the convention: a triple-quoted string passed to q(...).
var sqlRe = regexp.MustCompile(`(?s)\bq\(\s*"""(.*?)"""\s*\)`)

// strayRe finds SQL run some other way, which the extraction would miss.
var strayRe = regexp.MustCompile(`\.(sql|execute|query)\(`)

// statements extracts every SQL statement of a notebook, checking that the
// setup cell (which defines q) is the only one that talks to DuckDB itself.
func statements(t *testing.T, name string) []string {
	t.Helper()
	var out []string
	for i, src := range load(t, name).code() {
		if strings.Contains(src, "def q(") {
			continue
		}
		if strayRe.MatchString(sqlRe.ReplaceAllString(src, "")) {
			t.Errorf("%s code cell %d runs SQL outside q(\"\"\"...\"\"\"): the test cannot see it", name, i)
		}
		for _, m := range sqlRe.FindAllStringSubmatch(src, -1) {
			out = append(out, strings.TrimSpace(m[1]))
		}
	}
	if len(out) == 0 {
		t.Errorf("%s: no SQL statement found", name)
	}
	return out
}

// demoDB builds the DuckDB file over a synthetic demo warehouse.
func demoDB(t *testing.T) string {
	t.Helper()
	data := viewstest.SynthData(t, 21)
	dbPath := filepath.Join(data, "solbehave.duckdb")
	if err := views.Build(dbPath, filepath.Join(data, "warehouse")); err != nil {
		t.Fatal(err)
	}
	return dbPath
}

// missingView tells "this view has not landed yet" from a broken statement.
var missingView = regexp.MustCompile(`Catalog Error: Table with name (\S+) does not exist`)

func TestEveryNotebookStatementRuns(t *testing.T) {
	dbPath := demoDB(t)
	db, err := views.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range want {
		for i, stmt := range statements(t, name) {
			t.Run(strings.TrimSuffix(name, ".ipynb")+"/"+strconv.Itoa(i), func(t *testing.T) { runStatement(t, db, stmt) })
		}
	}
}

func runStatement(t *testing.T, db *sql.DB, stmt string) {
	rows, err := db.QueryContext(context.Background(), stmt)
	if err != nil {
		if m := missingView.FindStringSubmatch(err.Error()); m != nil {
			t.Skipf("view %s does not exist yet: %s", m[1], firstLine(stmt))
		}
		t.Fatalf("%v\n%s", err, stmt)
	}
	defer rows.Close()
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%v\n%s", err, stmt)
	}
}

// TestNotebooksAreValidPython parses every code cell, where python3 exists.
func TestNotebooksAreValidPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: cannot parse the notebooks' code cells")
	}
	const check = `import ast, json, sys
for name in sys.argv[1:]:
    for i, c in enumerate(json.load(open(name))["cells"]):
        if c["cell_type"] == "code":
            try:
                ast.parse("".join(c["source"]))
            except SyntaxError as e:
                sys.exit(f"{name} cell {i}: {e}")`
	if out, err := exec.Command(py, append([]string{"-c", check}, want...)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestNotebooksExecuteHeadless runs each notebook end to end where Jupyter,
// pandas and matplotlib are installed (Debian's python3: make test-deps). The
// views are read with the duckdb Python package when present, else through
// `solbehave sql --format ndjson` (built here). Each executed notebook must
// have drawn its figures and printed its conclusions from the data; they are
// kept as artifacts (go test -artifacts).
func TestNotebooksExecuteHeadless(t *testing.T) {
	runner, py, why := nbconvert()
	if runner == nil {
		t.Skipf("notebooks not executed (their SQL still ran in TestEveryNotebookStatementRuns): %s", why)
	}
	dbPath := demoDB(t)
	env := append(os.Environ(), "SOLBEHAVE_DB="+dbPath)
	if exec.Command(py, "-c", "import duckdb").Run() != nil {
		bin := filepath.Join(t.TempDir(), "solbehave")
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/solbehave").CombinedOutput(); err != nil {
			t.Fatalf("building solbehave for the notebooks' fallback: %v\n%s", err, out)
		}
		env = append(env, "SOLBEHAVE_BIN="+bin)
	}
	outDir := t.ArtifactDir()
	db, err := views.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range want {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			args := append(runner[1:], "--to", "notebook", "--execute", "--ExecutePreprocessor.kernel_name=python3",
				"--output-dir", outDir, name)
			cmd := exec.CommandContext(ctx, runner[0], args...)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			said := checkExecuted(t, filepath.Join(outDir, name))
			checkConclusions(t, db, name, said)
		})
	}
}

// checkExecuted: figures drawn, and every conclusion cell printed a sentence
// with a number in it (or said that the warehouse has no rows for it). It
// returns what the conclusion cells printed.
func checkExecuted(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type    string   `json:"cell_type"`
			Source  []string `json:"source"`
			Outputs []struct {
				Name string          `json:"name"`
				Text json.RawMessage `json:"text"`
				Data map[string]any  `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	images, conclusions := 0, 0
	said := ""
	for _, c := range nb.Cells {
		src := strings.Join(c.Source, "")
		text := ""
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/png"]; ok {
				images++
			}
			var parts []string
			if json.Unmarshal(o.Text, &parts) == nil {
				text += strings.Join(parts, "")
			}
		}
		if strings.HasPrefix(src, "# What the numbers say.") {
			conclusions++
			said += text
			if !regexp.MustCompile(`\d`).MatchString(text) && !strings.Contains(text, "no rows in this warehouse yet") {
				t.Errorf("%s: conclusion cell printed no number: %q (%s)", filepath.Base(path), text, src)
			}
		}
	}
	if conclusions == 0 {
		t.Errorf("%s: no conclusion cell", filepath.Base(path))
	}
	if images == 0 && !strings.Contains(path, "05_") {
		t.Errorf("%s: no figure drawn", filepath.Base(path))
	}
	return said
}

// nbconvert finds a way to run nbconvert with pandas and matplotlib
// importable (Debian's python3 first), or says what is missing.
func nbconvert() (runner []string, python, why string) {
	const imports = "import pandas, matplotlib, nbconvert, ipykernel"
	why = "no python3"
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(py)
		if err != nil {
			continue
		}
		out, err := exec.Command(path, "-c", imports).CombinedOutput()
		if err != nil {
			why = path + ": " + lastLine(string(out))
			continue
		}
		return []string{path, "-m", "nbconvert"}, path, ""
	}
	return nil, "", why
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	line, _, _ := strings.Cut(s, "\n")
	return line
}
