package o3

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/callseq"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// A run of o3 under the paper profile, then under extended, keeps both
// profiles' rows apart; a rerun of paper skips its unit and erases nothing.
func TestProfilesKeepEachOthersRows(t *testing.T) {
	env, rec, out := demoVault(t, "reference")
	paperGen := writeProfile(t, env, rec, out, 30, callseq.ProfilePaper, "static")
	extGen := writeProfile(t, env, rec, out, 30, callseq.ProfileExtended, "static")
	paper, ext := New(), New()
	ext.Profile = callseq.ProfileExtended
	for _, s := range []*Stage{paper, ext} {
		if c := stagetest.RunStage(t, env, s); c.Ran != 2 { // the original's coverage, the reference model's rows
			t.Fatalf("%s: counters %+v", s.Profile, c)
		}
	}
	if c := stagetest.RunStage(t, env, paper); c.Ran != 0 || c.Units != 2 {
		t.Fatalf("paper again: counters %+v", c)
	}
	db := stagetest.OpenViews(t, env)
	got := map[string]int64{}
	for _, r := range stagetest.QueryMaps(t, db, `SELECT profile, count(*) AS n FROM replay_calls WHERE oracle = 'O3' AND extractor = 'static' GROUP BY ALL`) {
		got[r["profile"].(string)] = r["n"].(int64)
	}
	if got["paper"] != int64(paperGen.Kept) || got["extended"] != int64(extGen.Kept) || len(got) != 2 {
		t.Fatalf("O3 rows per profile %v, want paper %d, extended %d", got, paperGen.Kept, extGen.Kept)
	}
	for _, q := range []string{
		`SELECT count(DISTINCT profile) FROM fig4_replay WHERE oracle = 'O3' AND n > 0`,
		`SELECT count(DISTINCT profile) FROM coverage WHERE oracle = 'O3'`,
		`SELECT count(DISTINCT profile) FROM view_snapshots WHERE oracle = 'O3'`,
		`SELECT count(DISTINCT profile) FROM replay_secondary WHERE oracle = 'O4'`,
	} {
		if n := stagetest.QueryInt(t, db, q); n != 2 {
			t.Errorf("%s = %d, want 2", q, n)
		}
	}
}

// Without --reference-extractor the fixed setting takes the one LLM
// generator's graphs (the paper's extractor), and static without one; with
// several, the named one, and the stage refuses to run without a name. The
// rows and views name the extractor.
func TestReferenceExtractorFollowsTheGenerators(t *testing.T) {
	for _, tc := range []struct {
		generators []string
		named      string
		reference  string
	}{{nil, "", "static"}, {[]string{"mutant", "openai:m"}, "", "llm:m"}, {[]string{"openai:n", "openai:m"}, "llm:m", "llm:m"}} {
		env, rec, out := demoVault(t, "reference")
		writeSequences(t, env, rec, out, 10, "static", "llm:m")
		s := New()
		s.Generators, s.Reference = tc.generators, tc.named
		if err := s.Check(); err != nil {
			t.Fatalf("generators %v, reference %q: %v", tc.generators, tc.named, err)
		}
		stagetest.RunStage(t, env, s)
		db := stagetest.OpenViews(t, env)
		rows := stagetest.QueryMaps(t, db, `SELECT DISTINCT graph_setting, extractor FROM replay_calls WHERE oracle = 'O3'`)
		if len(rows) != 1 || rows[0]["graph_setting"] != SettingFixed || rows[0]["extractor"] != tc.reference {
			t.Errorf("generators %v: O3 rows %v, want fixed on %s", tc.generators, rows, tc.reference)
		}
		if n := stagetest.QueryInt(t, db, `SELECT count(*) FROM fig4_replay WHERE oracle = 'O3' AND model = 'reference' AND extractor = ?`, tc.reference); n != 1 {
			t.Errorf("generators %v: fig4_replay names the extractor on %d rows", tc.generators, n)
		}
	}
	s := New()
	s.Generators = []string{"openai:n", "openai:m"}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "--reference-extractor llm:n") {
		t.Errorf("two LLM generators, no reference extractor: %v, want a refusal that says how to choose", err)
	}
}
