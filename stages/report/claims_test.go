package report

import (
	"strings"
	"testing"
)

// The page's paper_claims table is in the paper's order (abstract, §I, §IV,
// §V, §VI, §VII, then SAEFUZZ), shows the paper's value, the run's, its
// interval and n side by side as the paper prints them, and marks the rows
// whose interval excludes the paper's value.
func TestClaimsInThePapersOrderAndMarked(t *testing.T) {
	db := emptyDB(t)
	// rows in id order, as the view gives them
	if _, err := db.Exec(`CREATE OR REPLACE VIEW paper_claims AS SELECT * FROM (VALUES
		('saefuzz_recall', 'SAEFUZZ', '§V', 'recall', 0.818, 0.8, 0.7, 0.9, 11, NULL),
		('solbehave_benchmark_contracts', 'SolBehave', 'Abstract', 'contracts', 250.0, 8360.0, NULL, NULL, 8360, NULL),
		('solbehave_compile_raw_low', 'SolBehave', '§V-B', 'lowest raw', 0.188, 0.5, 0.4, 0.6, 250, NULL),
		('solbehave_funnel_enough_history', 'SolBehave', '§IV-A a', 'history', 8360.0, NULL, NULL, NULL, 0, 'no funnel'),
		('solbehave_one_in_three', 'SolBehave', '§I', 'one in three', 0.3333, 0.33, 0.2, 0.4, 250, NULL),
		('solbehave_size_compile_mean_1', 'SolBehave', '§VI', 'size 1-5', 0.724, 0.72, 0.6, 0.8, 36, NULL),
		('solbehave_spearman_rho', 'SolBehave', '§V-D b', 'rho', 0.86, 0.9, NULL, NULL, 7, NULL),
		('solbehave_conclusion', 'SolBehave', '§VII', 'conclusion', 0.314, 0.3, NULL, NULL, 9, NULL)
	) t(id, paper, section, claim, paper_value, run_value, ci_low, ci_high, n, reason)`); err != nil {
		t.Fatal(err)
	}
	tb, err := claimsTable(ctx, db, "")
	if err != nil {
		t.Fatal(err)
	}
	var order, rows []string
	for _, r := range tb.Rows {
		order = append(order, r[0].Text)
		var texts []string
		for _, c := range r {
			texts = append(texts, c.Text)
		}
		rows = append(rows, strings.Join(texts, " | "))
	}
	if got, want := strings.Join(order, ","), "Abstract,§I,§IV-A a,§V-B,§V-D b,§VI,§VII,§V"; got != want {
		t.Errorf("sections %s, want the paper's order %s", got, want)
	}
	want := map[string]string{
		"Abstract": "Abstract | contracts | 250 | 8,360 |  | 8,360 | ",
		"§IV-A a":  "§IV-A a | history | 8,360 | – |  |  | ",
		"§V-B":     "§V-B | lowest raw | 18.8% | 50.0% | 40.0%–60.0% | 250 | ✗ outside",
		"§V-D b":   "§V-D b | rho | 0.86 | 0.9 |  | 7 | ",
		"§VI":      "§VI | size 1-5 | 72.4% | 72.0% | 60.0%–80.0% | 36 | ",
	}
	for i, s := range order {
		if w, ok := want[s]; ok && rows[i] != w {
			t.Errorf("row %q, want %q", rows[i], w)
		}
		marked := tb.Rows[i][0].Class == "off"
		if marked != (s == "§V-B") {
			t.Errorf("%s: marked %v, want only the row whose interval excludes the paper's value", s, marked)
		}
	}
	page := render(t, db)
	if !strings.Contains(page, `<table data-table="paper_claims" class="claims">`) || !strings.Contains(page, `<td class="num off">18.8%</td>`) {
		t.Error("the page's paper_claims table is not the page-wide claims table with its marked row")
	}
}

// The paper's value as sql/paper_claims.csv prints it (13%, not 13.0%; "one
// in six" as such), the run's beside it, and where the run has no value its
// reason on the page under the claim, not only in a tooltip, and no n.
func TestClaimsPrintedAsThePaperPrintsThem(t *testing.T) {
	db := emptyDB(t)
	if _, err := db.Exec(`CREATE OR REPLACE VIEW paper_claims AS SELECT * FROM (VALUES
		('solbehave_o2_divergent_low', 'SolBehave', 'Abstract', 'o2 low', 0.13, 0.1355, 0.1, 0.2, 214, NULL),
		('solbehave_o3_only_function_share', 'SolBehave', '§V-E a', 'one in six', 0.1667, 0.25, NULL, NULL, 1759, NULL),
		('solbehave_compile_raw_low', 'SolBehave', '§V-B', 'lowest raw', 0.188, NULL, NULL, NULL, 0, 'no LLM model in this run')
	) t(id, paper, section, claim, paper_value, run_value, ci_low, ci_high, n, reason)`); err != nil {
		t.Fatal(err)
	}
	tb, err := claimsTable(ctx, db, "")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range tb.Rows {
		var texts []string
		for _, c := range r {
			texts = append(texts, c.Text)
		}
		rows = append(rows, strings.Join(texts, " | ")+" | note: "+r[1].Note)
	}
	want := []string{
		"Abstract | o2 low | 13% | 13.6% | 10.0%–20.0% | 214 |  | note: ",
		"§V-B | lowest raw | 18.8% | – |  |  |  | note: no run value: no LLM model in this run",
		"§V-E a | one in six | one in 6 | one in 4 (25.0%) |  | 1,759 |  | note: ",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if page := render(t, db); !strings.Contains(page, `<div class="note">no run value: no LLM model in this run</div>`) {
		t.Error("the page does not show the reason a claim has no run value")
	}
}
