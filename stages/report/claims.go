package report

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/solbehave/solbehave/internal/views"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// claimsColumns are the columns of the paper_claims table on the page: the
// paper's value beside the run's, its interval and n, in one page-wide table.
var claimsColumns = []string{"section", "claim", "paper", "run", "95% interval", "n", "paper outside the interval"}

// claimsQuery reads paper_claims for the page (ordered in Go, as the paper).
const claimsQuery = `SELECT id, paper, section, claim, paper_value, run_value, ci_low, ci_high, n, coalesce(reason, '') FROM paper_claims`

// claim is one paper_claims row.
type claim struct {
	id, paper, section, text, reason string
	paperValue, run, lo, hi          sql.NullFloat64
	n                                sql.NullInt64
}

// outside tells whether the run's interval excludes the paper's value.
func (c claim) outside() bool {
	if !c.paperValue.Valid || !c.lo.Valid || !c.hi.Valid {
		return false
	}
	p := c.paperValue.Float64
	return p < c.lo.Float64-1e-12 || p > c.hi.Float64+1e-12
}

// share tells a claim the paper prints as a percentage: a value in [0, 1]
// with decimals, except the scores it prints as decimals (Spearman's rho,
// the DCR relations' precision, recall and F1) and means that are not shares
// (events per contract, seconds).
func (c claim) share() bool {
	if strings.Contains(c.id, "rho") || strings.Contains(c.id, "per_contract") || strings.Contains(c.id, "seconds") {
		return false
	}
	if strings.HasPrefix(c.id, "solbehave_dcr_") && (strings.HasSuffix(c.id, "_precision") || strings.HasSuffix(c.id, "_recall") || strings.HasSuffix(c.id, "_f1")) {
		return false
	}
	p := c.paperValue
	return p.Valid && p.Float64 >= 0 && p.Float64 <= 1 && p.Float64 != math.Trunc(p.Float64)
}

// format is x as the paper prints the claim: a share as a percentage, a
// count as an integer with thousands separators, anything else to four
// significant digits.
func (c claim) format(x sql.NullFloat64) string {
	switch {
	case !x.Valid:
		return "–"
	case c.share():
		return views.Readable("share_rate", x.Float64)
	case x.Float64 == math.Trunc(x.Float64) && math.Abs(x.Float64) < 1e15:
		return groupThousands(int64(x.Float64))
	}
	return views.Readable("value", x.Float64)
}

// groupThousands is n with commas between groups of three digits (8,360).
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// sectionRank orders the paper's sections as it prints them: the abstract,
// then §I, §II, ... by their Roman numeral; SolBehave's claims before
// another paper's (SAEFUZZ's).
func sectionRank(paper, section string) (int, int) {
	p := 0
	if paper != "SolBehave" {
		p = 1
	}
	if section == "Abstract" {
		return p, 0
	}
	numeral := strings.TrimPrefix(section, "§")
	if i := strings.IndexAny(numeral, "- "); i >= 0 {
		numeral = numeral[:i]
	}
	values := map[byte]int{'I': 1, 'V': 5, 'X': 10}
	n := 0
	for i := 0; i < len(numeral); i++ {
		v, ok := values[numeral[i]]
		if !ok {
			return p, 100
		}
		if i+1 < len(numeral) && values[numeral[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	return p, n
}

// sortClaims orders claims as the paper does: by paper, section (abstract,
// §I, §IV, §V, §VI, §VII; subsections in order) and, within a section, as
// sql/paper_claims.csv lists them.
func sortClaims(cs []claim) {
	order := map[string]int{}
	for i, row := range sqlviews.CSVRows("paper_claims.csv")[1:] {
		order[row[0]] = i
	}
	sort.SliceStable(cs, func(i, j int) bool {
		pi, si := sectionRank(cs[i].paper, cs[i].section)
		pj, sj := sectionRank(cs[j].paper, cs[j].section)
		if pi != pj {
			return pi < pj
		}
		if si != sj {
			return si < sj
		}
		if cs[i].section != cs[j].section {
			return cs[i].section < cs[j].section
		}
		return order[cs[i].id] < order[cs[j].id]
	})
}

// claimsTable is paper_claims as the page shows it: in the paper's order,
// the paper's value, the run's, its interval and n side by side, formatted
// as the paper prints them, and the rows whose interval excludes the
// paper's value marked.
func claimsTable(ctx context.Context, db *sql.DB, about string) (table, error) {
	t := table{View: "paper_claims", About: about, Class: "claims", Columns: claimsColumns}
	rows, err := db.QueryContext(ctx, claimsQuery)
	if missingObject(err) {
		t.NoData = "no data yet (" + firstLine(err.Error()) + ")"
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("report: paper_claims: %w", err)
	}
	defer rows.Close()
	var cs []claim
	for rows.Next() {
		var c claim
		if err := rows.Scan(&c.id, &c.paper, &c.section, &c.text, &c.paperValue, &c.run, &c.lo, &c.hi, &c.n, &c.reason); err != nil {
			return t, fmt.Errorf("report: paper_claims: %w", err)
		}
		cs = append(cs, c)
	}
	if err := rows.Err(); err != nil {
		return t, fmt.Errorf("report: paper_claims: %w", err)
	}
	sortClaims(cs)
	for _, c := range cs {
		class, mark := "", ""
		if c.outside() {
			class, mark = "off", "✗ outside"
		}
		interval := ""
		if c.lo.Valid && c.hi.Valid {
			interval = c.format(c.lo) + "–" + c.format(c.hi)
		}
		n := ""
		if c.n.Valid {
			n = groupThousands(c.n.Int64)
		}
		t.Rows = append(t.Rows, []cell{
			{Text: c.section, Class: class},
			{Text: c.text, Class: class, Title: c.id},
			{Text: c.format(c.paperValue), Numeric: true, Class: class},
			{Text: c.format(c.run), Numeric: true, Class: class, Title: c.reason},
			{Text: interval, Numeric: true, Class: class},
			{Text: n, Numeric: true, Class: class},
			{Text: mark, Class: class},
		})
	}
	t.Total = int64(len(t.Rows))
	if len(t.Rows) == 0 {
		t.NoData = "no data yet"
	}
	return t, nil
}
