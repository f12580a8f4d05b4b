package notebooks

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// claim is a measure a notebook's conclusions must state for every row of
// a view: per model under a label (the oracle, say), the control generators
// on lines of their own. query returns (model, label, value) rows.
type claim struct {
	notebook, section, query string
}

// oracleLabel is analysis.label over (oracle, graph_setting, profile,
// extractor): the oracle, then its non-empty settings in parentheses.
const oracleLabel = `oracle || coalesce(' (' || nullif(concat_ws(', ', nullif(graph_setting, ''), nullif(profile, ''),
	nullif(extractor, '')), '') || ')', '')`

var claims = []claim{
	{"02_compilation.ipynb", "Table II: Compile@k after repair", `SELECT model, '', compile_repaired_rate FROM table2_compile`},
	{"03_replay_oracles.ipynb", "Figure 4(a): status match", `SELECT model, ` + oracleLabel + `, status_match_rate FROM fig4_replay`},
	{"04_differential_fuzzing.ipynb", "Table V: (function, sample) pairs equivalent under O1", `SELECT model, '', functions_equivalent_rate FROM table5_o1`},
	{"06_vulnerabilities.ipynb", "Introduced-vulnerability rate, any class", `SELECT model, '', introduced_rate FROM vuln_introduced WHERE class = 'any'`},
}

var controls = map[string]string{"reference": "the reference control", "mutant": "the mutant control"}

// templates the conclusions used to print: a mean over controls and models,
// "n is 8 on all 2 row(s)", an empty label before a parenthesis.
var templates = regexp.MustCompile(`its mean is|on all \d+ row\(s\)|\w  \(|graph_setting  `)

// checkConclusions holds a notebook's printed conclusions to the data: each
// model's value where its section says it, the controls apart, and none of
// the old templates.
func checkConclusions(t *testing.T, db *sql.DB, notebook, said string) {
	t.Helper()
	if m := templates.FindString(said); m != "" {
		t.Errorf("%s: a conclusion still reads like a template (%q):\n%s", notebook, m, said)
	}
	lines := strings.Split(said, "\n")
	for _, c := range claims {
		if c.notebook != notebook {
			continue
		}
		rows, err := db.QueryContext(context.Background(), c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		n := 0
		for rows.Next() {
			var model, label string
			var v sql.NullFloat64
			if err := rows.Scan(&model, &label, &v); err != nil {
				t.Fatal(err)
			}
			n++
			value := "not defined"
			if v.Valid {
				value = strconv.FormatFloat(v.Float64*100, 'f', 1, 64) + "%"
			}
			head, want := c.section+", "+label+", per model:", model+" "+value
			if label == "" {
				head = c.section + ", per model:"
			}
			if name, ok := controls[model]; ok {
				head, want = c.section+", "+name, strings.TrimSpace(label+" "+value)
			}
			if !anyLine(lines, head, want) {
				t.Errorf("%s: no line starting %q says %q:\n%s", notebook, head, want, said)
			}
		}
		rows.Close()
		if empty := c.section + ": no rows in this warehouse yet"; n == 0 && !strings.Contains(said, empty) {
			t.Errorf("%s: no rows for %q, and the conclusions do not say %q:\n%s", notebook, c.query, empty, said)
		}
	}
}

func anyLine(lines []string, head, want string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, head) && strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// TestAnalysisHelpers runs test_analysis.py (analysis.py's own tests: ties,
// empty tables, controls apart, legends off the bars) where Debian's python3
// has pandas and matplotlib.
func TestAnalysisHelpers(t *testing.T) {
	_, py, why := nbconvert()
	if py == "" {
		t.Skipf("python3 with pandas and matplotlib not installed: %s", why)
	}
	out, err := exec.Command(py, "-m", "unittest", "-v", "test_analysis").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "OK") {
		t.Fatalf("unittest:\n%s", out)
	}
}

// TestReadmeRunWritesOutsideTheRepo: the README's nbconvert command writes
// its executed copies into a git-ignored folder, never beside the committed
// notebooks (where TestNotebooksPresentAndClear would find them).
func TestReadmeRunWritesOutsideTheRepo(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmd := regexp.MustCompile(`(?m)^jupyter nbconvert .*--execute.*$`).FindString(string(readme))
	if cmd == "" {
		t.Fatal("README.md shows no `jupyter nbconvert ... --execute` command line")
	}
	m := regexp.MustCompile(`--output-dir[ =](\S+)`).FindStringSubmatch(cmd)
	if m == nil {
		t.Fatalf("%q writes notebooks/*.nbconvert.ipynb into the repository: give --output-dir", cmd)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed: cannot check that the output folder is ignored")
	}
	probe := filepath.Join(m[1], "01_construction.ipynb")
	check := exec.Command("git", "check-ignore", "-q", probe)
	check.Dir = ".." // the command runs from the repository root
	if err := check.Run(); err != nil {
		t.Errorf("%s is not git-ignored (%v): executed notebooks would be committed", probe, err)
	}
}
