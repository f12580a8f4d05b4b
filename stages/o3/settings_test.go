package o3

import (
	"fmt"
	"math"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		model, extractor string
		want             bool
	}{
		{"openai:gemma", "llm:gemma", true},
		{"gemma", "llm:gemma", true},
		{"openai:gemma-2", "llm:gemma", false},
		{"reference", "static", false},
		{"openai:gemma", "llm:", false},
		{"openai:gemma", "gemma", false},
	} {
		if got := Matches(c.model, c.extractor); got != c.want {
			t.Errorf("Matches(%q, %q) = %v", c.model, c.extractor, got)
		}
	}
}

// A model's own extractor judges it in the matched setting; the reference
// extractor judges every model in the fixed one; coverage is per extractor.
func TestGraphSettings(t *testing.T) {
	env, rec, out := demoVault(t, "reference", "openai:m")
	gen := writeSequences(t, env, rec, out, 20, "static", "llm:m", "llm:unused")
	kept := int64(gen.Kept)
	s := New()
	stagetest.RunStage(t, env, s)
	db := stagetest.OpenViews(t, env)
	got := map[string]int64{}
	for _, r := range stagetest.QueryMaps(t, db, `SELECT graph_setting, model, count(*) AS n FROM replay_calls WHERE oracle = 'O3' GROUP BY ALL`) {
		got[fmt.Sprintf("%s/%s", r["graph_setting"], r["model"])] = r["n"].(int64)
	}
	want := map[string]int64{"fixed/reference": kept, "fixed/openai:m": kept, "matched/openai:m": kept}
	if stagetest.JSON(got) != stagetest.JSON(want) {
		t.Fatalf("O3 rows per setting/model %v, want %v", got, want)
	}
	cov := stagetest.QueryMaps(t, db, `SELECT model, graph_setting, count(*) FILTER (WHERE calls > 0) AS called FROM coverage WHERE oracle = 'O3' GROUP BY ALL ORDER BY model`)
	if len(cov) != 3 || cov[0]["model"] != "llm:m" || cov[0]["graph_setting"] != SettingMatched || cov[2]["model"] != "static" || cov[2]["graph_setting"] != SettingFixed {
		t.Fatalf("coverage per extractor %v", cov)
	}
	// Without O2 every kept contract counts as uncovered by O2, and the view says O2 ran on none.
	extractors := stagetest.QueryInt(t, db, `SELECT count(DISTINCT model) FROM coverage WHERE oracle = 'O3'`)
	if n := stagetest.QueryInt(t, db, `SELECT count(*) FROM table4_coverage WHERE o2_evaluated = 0 AND o2_coverage_rate = 0 AND o3_evaluated = 1`); n != extractors || n == 0 {
		t.Errorf("table4_coverage without O2 coverage: %d rows with o2_evaluated 0 and o3_evaluated 1, want one per extractor (%d)", n, extractors)
	}
	s.Reference = "llm:m"
	if c := stagetest.RunStage(t, env, s); c.Ran != 3 { // the original's coverage and both models' rows
		t.Errorf("a new reference extractor re-ran %d units, want 3", c.Ran)
	}
}

// replayRows are synthetic replay_calls rows: calls of which the first
// mismatches do not match the original's status (O3/O4 under profile).
func replayRows(contract, oracle, setting, profile, model string, calls, mismatches int) []schemas.ReplayCall {
	var rows []schemas.ReplayCall
	for i := 0; i < calls; i++ {
		rows = append(rows, schemas.ReplayCall{ContractID: contract, Model: model, Oracle: oracle, GraphSetting: setting,
			Profile: profile, Extractor: map[bool]string{true: "static"}[profile != ""],
			Step: int64(i), StatusRef: "success", StatusSample: "success", StatusMatch: i >= mismatches})
	}
	return rows
}

// The comparison views on known verdicts: complementarity counts and the
// Spearman correlation of the two oracles' match rates across models, each
// per profile: the extended profile's rows (O3 flags nothing there) neither
// mix into the paper's figures nor vanish.
func TestComplementarityAndAgreementViews(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	// Status match rates per model: O2 a 1.0, b 0.9, c 0.8; O3 a 0.95, b 0.97, c 0.7.
	// Ranks O2 (c, b, a) = 1, 2, 3; O3 (c, a, b) = 1, 2, 3: d = (1, -1, 0), rho = 1 - 6*2/(3*8) = 0.5.
	rates := map[string][2]int{"a": {0, 5}, "b": {10, 3}, "c": {20, 30}} // mismatches of 100 for O2, O3
	part := 0
	add := func(contract, oracle, setting, profile, model string, calls, mismatches int) {
		part++
		stagetest.Write(t, env, schemas.ReplayCalls, contract, fmt.Sprint("p", part), replayRows(contract, oracle, setting, profile, model, calls, mismatches))
	}
	for model, m := range rates {
		add("K1", "O2", "", "", model, 100, m[0])
		add("K1", "O3", SettingFixed, "paper", model, 100, m[1])
		add("K1", "O4", SettingFixed, "paper", model, 100, 100) // never part of the O2/O3 figures
		add("K1", "O3", SettingFixed, "extended", model, 100, 0)
	}
	// Model a on two more contracts: K2 flagged by O3 only, K3 by O2 only
	// (O3 never ran on K3: it still counts as O2 only, §V-D d). K1 is O3-only for a too.
	add("K2", "O2", "", "", "a", 10, 0)
	add("K2", "O3", SettingFixed, "paper", "a", 10, 1)
	add("K2", "O3", SettingFixed, "extended", "a", 10, 0)
	add("K3", "O2", "", "", "a", 10, 2)
	db := stagetest.OpenViews(t, env)
	// Rates with the extra contracts: O2 a = mean(1.0, 1.0, 0.8) = 0.933 still above b (0.9);
	// O3 a = mean(0.95, 0.9) = 0.925, below b (0.97) and above c (0.7): the ranks hold.
	agree := stagetest.QueryMaps(t, db, `SELECT * FROM oracle_agreement ORDER BY profile`)
	if len(agree) != 2 || agree[1]["profile"] != "paper" || agree[1]["models"] != int64(3) || math.Abs(agree[1]["spearman_rho"].(float64)-0.5) > 1e-9 ||
		agree[0]["profile"] != "extended" || agree[0]["spearman_rho"] != nil {
		t.Fatalf("oracle_agreement %v, want rho 0.5 over 3 models for paper, none for extended (every O3 rate 1)", agree)
	}
	comp := stagetest.QueryMaps(t, db, `SELECT * FROM fig4_complementarity ORDER BY profile DESC, model`)
	want := `[{"both":0,"extractor":"static","graph_setting":"fixed","model":"a","n_both":2,"n_o2":3,"n_o3":2,"o2_only":1,"o3_only":2,"profile":"paper"},` +
		`{"both":1,"extractor":"static","graph_setting":"fixed","model":"b","n_both":1,"n_o2":1,"n_o3":1,"o2_only":0,"o3_only":0,"profile":"paper"},` +
		`{"both":1,"extractor":"static","graph_setting":"fixed","model":"c","n_both":1,"n_o2":1,"n_o3":1,"o2_only":0,"o3_only":0,"profile":"paper"},` +
		`{"both":0,"extractor":"static","graph_setting":"fixed","model":"a","n_both":2,"n_o2":3,"n_o3":2,"o2_only":1,"o3_only":0,"profile":"extended"},` +
		`{"both":0,"extractor":"static","graph_setting":"fixed","model":"b","n_both":1,"n_o2":1,"n_o3":1,"o2_only":1,"o3_only":0,"profile":"extended"},` +
		`{"both":0,"extractor":"static","graph_setting":"fixed","model":"c","n_both":1,"n_o2":1,"n_o3":1,"o2_only":1,"o3_only":0,"profile":"extended"}]`
	if stagetest.JSON(comp) != want {
		t.Fatalf("fig4_complementarity %s\nwant %s", stagetest.JSON(comp), want)
	}
}
