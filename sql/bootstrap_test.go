package sqlviews_test

import (
	"fmt"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
)

// bernoulliOutcomes replaces contract_outcomes with reps groups ("models") of
// n contracts each, every contract a hit with probability p/1000 (drawn by
// hash, seeded), so rate_intervals bootstraps data whose rate is known.
const bernoulliOutcomes = `CREATE OR REPLACE VIEW contract_outcomes AS
SELECT 'synthetic' AS measure, 'O1' AS oracle, '' AS graph_setting, '' AS profile,
    'rep' || lpad(CAST(r.rep AS VARCHAR), 4, '0') AS model,
    'c' || lpad(CAST(c.i AS VARCHAR), 4, '0') AS contract_id,
    hash(hash(20261204, r.rep, c.i)) %% 1000 < %d AS hit
FROM range(%d) r(rep), range(%d) c(i)`

// The 95% percentile interval over contracts covers the true rate in 93–97%
// of 1,000 replications of 100 Bernoulli(0.3) contracts.
func TestRateIntervalsCoverTheTrueRate(t *testing.T) {
	db := newFixture(t).open("rate_intervals")
	if _, err := db.Exec(fmt.Sprintf(bernoulliOutcomes, 300, 1000, 100)); err != nil {
		t.Fatal(err)
	}
	got := stagetest.QueryMaps(t, db, `SELECT count(*) AS groups, count(*) FILTER (WHERE hit_rate_ci_low <= 0.3 AND 0.3 <= hit_rate_ci_high) AS covered FROM rate_intervals`)
	groups, covered := got[0]["groups"].(int64), got[0]["covered"].(int64)
	if groups != 1000 || covered < 930 || covered > 970 {
		t.Fatalf("%d of %d intervals cover the true rate 0.3, want 930..970 of 1000", covered, groups)
	}
	t.Logf("%d of %d intervals cover 0.3", covered, groups)
}

// One warehouse always gives the same intervals, whatever DuckDB's threads do.
func TestRateIntervalsAreTheSameEveryQuery(t *testing.T) {
	db := newFixture(t).open("rate_intervals")
	if _, err := db.Exec(fmt.Sprintf(bernoulliOutcomes, 500, 20, 50)); err != nil {
		t.Fatal(err)
	}
	const q = `SELECT model, hit_rate_ci_low, hit_rate_ci_high FROM rate_intervals ORDER BY model`
	first := stagetest.JSON(stagetest.QueryMaps(t, db, q))
	for range 5 {
		if again := stagetest.JSON(stagetest.QueryMaps(t, db, q)); again != first {
			t.Fatalf("intervals changed between queries:\n%s\n%s", first, again)
		}
	}
}

// A resample draws each of its n contracts independently: 20 contracts that
// alternate hit and miss do not always resample to 10 of each (as they did
// when the draws' low bits followed the draw's parity).
func TestRateIntervalsResampleContractsIndependently(t *testing.T) {
	db := newFixture(t).open("rate_intervals")
	const alternating = `CREATE OR REPLACE VIEW contract_outcomes AS
SELECT 'synthetic' AS measure, 'O1' AS oracle, '' AS graph_setting, '' AS profile, 'm' AS model,
    'c' || lpad(CAST(i AS VARCHAR), 4, '0') AS contract_id, i % 2 = 0 AS hit
FROM range(20) t(i)`
	if _, err := db.Exec(alternating); err != nil {
		t.Fatal(err)
	}
	got := stagetest.QueryMaps(t, db, `SELECT hit_rate, hit_rate_ci_low AS lo, hit_rate_ci_high AS hi FROM rate_intervals`)
	if lo, hi := got[0]["lo"].(float64), got[0]["hi"].(float64); !(lo < 0.4 && hi > 0.6) {
		t.Fatalf("interval of 10 hits in 20 contracts [%v, %v], want about [0.28, 0.72]", lo, hi)
	}
}
