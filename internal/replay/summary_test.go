package replay

import (
	"testing"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// sampleSummary is one row of the production verdict views for a sample.
type sampleSummary struct {
	Sample                                                  int64
	Calls, StatusMatches, SecondaryOnly                     int
	GasFlagged, EventsDiffer, ReturnDiffers, StorageDiffers int
	Divergent, Verdict                                      bool
	FirstStep                                               *int64
}

// summarize runs the engine's rows through the one definition of the verdict,
// the SQL views replay_sample_summary and sample_verdicts, in DuckDB.
func summarize(t *testing.T, rows []schemas.ReplayCall) []sampleSummary {
	t.Helper()
	w := warehouse.New(t.TempDir())
	for i := range rows {
		if rows[i].ContractID == "" {
			rows[i].ContractID = "c"
		}
		if rows[i].Oracle == "" {
			rows[i].Oracle = schemas.OracleO2
		}
	}
	if err := warehouse.Write(w.Path(schemas.ReplayCalls.Name(), warehouse.ByContract("c"), "o2"), rows); err != nil {
		t.Fatal(err)
	}
	db, err := views.OpenInMemory(w.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, err := db.Query(`SELECT s.sample, calls, status_matches, secondary_only_calls, gas_flagged_calls,
		events_differ_calls, return_differs_calls, storage_differs_calls, s.divergent, v.divergent, first_divergent_step
		FROM replay_sample_summary s JOIN sample_verdicts v USING (oracle, graph_setting, profile, extractor, contract_id, model, sample)
		ORDER BY s.sample`)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var out []sampleSummary
	for q.Next() {
		var s sampleSummary
		if err := q.Scan(&s.Sample, &s.Calls, &s.StatusMatches, &s.SecondaryOnly, &s.GasFlagged, &s.EventsDiffer,
			&s.ReturnDiffers, &s.StorageDiffers, &s.Divergent, &s.Verdict, &s.FirstStep); err != nil {
			t.Fatal(err)
		}
		if s.Divergent != s.Verdict {
			t.Errorf("sample %d: replay_sample_summary says divergent=%v, sample_verdicts %v", s.Sample, s.Divergent, s.Verdict)
		}
		out = append(out, s)
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Each variant of the test contract differs from the original on one axis;
// the views must call a sample divergent on status alone and count each
// secondary axis only where status matched.
func TestVerdictViewsOverEngineRows(t *testing.T) {
	cases := []struct {
		name      string
		v         variant
		divergent bool
		secondary [4]int // gas, events, return, storage among status-matching calls
	}{
		{"identical", variant{}, false, [4]int{}},
		{"status", variant{revertAlsoOn: 7}, true, [4]int{}},
		{"gas", variant{coldReads: 4}, false, [4]int{3, 0, 0, 0}},
		{"events", variant{topicPlus: 1}, false, [4]int{0, 3, 0, 0}},
		{"return", variant{returnPlus: 1}, false, [4]int{0, 0, 3, 0}},
		{"storage", variant{storePlus: 1}, false, [4]int{0, 0, 0, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, rows := compareOne(t, c.v, Options{}, calls(0, 3, 7, 9))
			got := summarize(t, rows)
			if len(got) != 1 {
				t.Fatalf("%d summaries", len(got))
			}
			s := got[0]
			if s.Divergent != c.divergent || s.Calls != 4 {
				t.Errorf("divergent %v over %d calls, want %v over 4", s.Divergent, s.Calls, c.divergent)
			}
			if sec := [4]int{s.GasFlagged, s.EventsDiffer, s.ReturnDiffers, s.StorageDiffers}; sec != c.secondary {
				t.Errorf("secondary axes %v, want %v", sec, c.secondary)
			}
			wantOnly := 0
			for _, n := range c.secondary {
				wantOnly = max(wantOnly, n)
			}
			if s.SecondaryOnly != wantOnly {
				t.Errorf("secondary-only calls %d, want %d", s.SecondaryOnly, wantOnly)
			}
			if c.divergent && (s.FirstStep == nil || *s.FirstStep != 2) {
				t.Errorf("first divergent step %v, want 2 (x = 7)", s.FirstStep)
			}
		})
	}
}
