package views

import (
	"strings"
	"testing"
)

func TestReadable(t *testing.T) {
	for _, tc := range []struct {
		col  string
		x    float64
		want string
	}{
		{"compile_rate", 0.7727499999999999, "77.3%"},
		{"compile_rate", 1, "100.0%"},
		{"compile_rate", 0, "0.0%"},
		{"compile_rate", 0.99996, "99.996%"},
		{"compile_rate", 0.0003, "0.03%"},
		{"mean_gas", 0.7727499999999999, "0.7727"},
		{"seconds", 123456.789, "123457"},
		{"seconds", 12.5, "12.5"},
		{"seconds", 0.00001234, "1.234e-05"},
		{"n", 3, "3"},
		{"recall_lo", 0.9411764705882353, "94.1%"},
		{"divergent_rate_ci_low", 0.25, "25.0%"},
		{"divergent_rate_ci_high", 0.8354, "83.5%"},
		{"n_ci_low", 3, "3"},
		{"precision", 1, "100.0%"},
		{"spearman_rho", 0.10366105360784121, "0.1037"},
	} {
		if got := Readable(tc.col, tc.x); got != tc.want {
			t.Errorf("Readable(%q, %v) = %q, want %q", tc.col, tc.x, got, tc.want)
		}
	}
}

// The table format is for people (shares as %, short floats); CSV keeps the
// full value.
func TestTableShowsSharesAsPercentCSVKeepsFullPrecision(t *testing.T) {
	db := memDB(t)
	const q = `SELECT 0.7727499999999999::DOUBLE AS compile_rate, 0.7727499999999999::DOUBLE AS gas`
	row := strings.Split(string(queryBytes(t, db, q, "table")), "\n")[2]
	if strings.Fields(row)[0] != "77.3%" || strings.Fields(row)[1] != "0.7727" {
		t.Errorf("table row %q, want 77.3%% and 0.7727", row)
	}
	recs := queryCSV(t, db, q)
	if recs[1][0] != "0.7727499999999999" || recs[1][1] != "0.7727499999999999" {
		t.Errorf("csv %q: want the full value", recs)
	}
}
