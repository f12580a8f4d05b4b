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

// claim is one paper_claims row, with the paper's value as
// sql/paper_claims.csv prints it and how it is compared.
type claim struct {
	id, paper, section, text, reason string
	paperValue, run, lo, hi          sql.NullFloat64
	n                                sql.NullInt64
	printed, compare                 string
	order                            int // its line in sql/paper_claims.csv
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

// formatPaper is the paper's value as the paper prints it: a share to the
// digits sql/paper_claims.csv gives (0.13 as 13%, 0.264 as 26.4%), a
// claim the text states as "one in N" so; else as format does.
func (c claim) formatPaper() string {
	if !c.paperValue.Valid {
		return "–"
	}
	if c.compare == "one_in" && c.paperValue.Float64 > 0 {
		return fmt.Sprintf("one in %.0f", math.Round(1/c.paperValue.Float64))
	}
	if c.share() && c.printed != "" {
		digits := 0
		if i := strings.IndexByte(c.printed, '.'); i >= 0 {
			digits = len(c.printed) - i - 1 - 2
		}
		return strconv.FormatFloat(c.paperValue.Float64*100, 'f', max(digits, 0), 64) + "%"
	}
	return c.format(c.paperValue)
}

// formatRun is the run's value; for a claim stated as "one in N", with the
// N it rounds to beside the share.
func (c claim) formatRun() string {
	if c.compare == "one_in" && c.run.Valid && c.run.Float64 > 0 {
		return fmt.Sprintf("one in %.0f (%s)", math.Round(1/c.run.Float64), c.format(c.run))
	}
	return c.format(c.run)
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
		return cs[i].order < cs[j].order
	})
}

// withCSV adds to each claim what sql/paper_claims.csv says of it beyond
// the view's columns: its line (the order within a section), its
// paper_value as written and its compare column.
func withCSV(cs []claim) {
	rows := sqlviews.CSVRows("paper_claims.csv")
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	byID := map[string]claim{}
	for i, r := range rows[1:] {
		c := claim{order: i, printed: r[col["paper_value"]]}
		if k, ok := col["compare"]; ok && k < len(r) {
			c.compare = r[k]
		}
		byID[r[col["id"]]] = c
	}
	for i := range cs {
		if c, ok := byID[cs[i].id]; ok {
			cs[i].order, cs[i].printed, cs[i].compare = c.order, c.printed, c.compare
		}
	}
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
	withCSV(cs)
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
		// n and the reason: n beside a run value, the reason under the claim where there is none
		n, note := "", ""
		if c.n.Valid && c.run.Valid {
			n = groupThousands(c.n.Int64)
		}
		if !c.run.Valid && c.reason != "" {
			note = "no run value: " + c.reason
		}
		t.Rows = append(t.Rows, []cell{
			{Text: c.section, Class: class},
			{Text: c.text, Class: class, Title: c.id, Note: note},
			{Text: c.formatPaper(), Numeric: true, Class: class},
			{Text: c.formatRun(), Numeric: true, Class: class, Title: c.reason},
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
