package chart

import (
	"bytes"
	"html"
	"math"
	"regexp"
	"strconv"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

func sample() Bars {
	return Bars{Title: "t", YLabel: "contracts", Categories: []string{"openai:gpt-4o-mini (matched, paper)", "reference"},
		Series: []Series{{Name: "O2 only", Values: []float64{3, 1}}, {Name: "both", Values: []float64{2, math.NaN()}}, {Name: "O3 only", Values: []float64{1, 4}}}, Stacked: true}
}

func TestIntegerTicksOnCounts(t *testing.T) {
	for _, top := range []float64{1, 3, 7, 7.5, 12, 33, 180, 1600} {
		step := IntegerStep(top)
		if step < 1 || step != math.Trunc(step) {
			t.Errorf("top %v: step %v is not a whole number >= 1", top, step)
		}
		for _, tk := range IntegerTicks(0, top, step) {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("top %v: tick %v", top, tk.Value)
			}
		}
	}
}

func TestSVGAndPDF(t *testing.T) {
	svg, err := sample().SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) && !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("not SVG: %.200s", svg)
	}
	for _, want := range []string{">O2 only<", ">both<", ">O3 only<", ">reference<"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %s", want)
		}
	}
	// Integer ticks only: no "2.5" on a count axis.
	if regexp.MustCompile(`>\d+\.\d+<`).Match(svg) {
		t.Errorf("fractional tick label on a count axis")
	}
	pdf, err := sample().PDF()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("not a PDF: %.20q", pdf)
	}
	if _, err := (Bars{Title: "empty"}).SVG(); err == nil {
		t.Error("no categories: want an error")
	}
}

func TestWrap(t *testing.T) {
	if got := Wrap("openai:gpt-4o-mini (matched, paper)", 14); got != "openai:gpt-4o-mini\n(matched,\npaper)" {
		t.Errorf("Wrap = %q", got)
	}
}

var (
	svgSizeRe = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	svgTextRe = regexp.MustCompile(`(?s)<text x="([-0-9.e]+)" y="[-0-9.e]+" transform="scale\(1, -1\)"\s*style="[^"]*font-size:([0-9.]+)px">([^<]*)</text>`)
)

// textsInside checks that every horizontal text of an SVG starts and ends
// within its width, and returns the width.
func textsInside(t *testing.T, name string, svg []byte) float64 {
	t.Helper()
	m := svgSizeRe.FindSubmatch(svg)
	if m == nil {
		t.Fatalf("%s: no SVG size", name)
	}
	width, _ := strconv.ParseFloat(string(m[1]), 64)
	texts := svgTextRe.FindAllSubmatch(bytes.ReplaceAll(svg, []byte("<g transform=\"rotate(90)\">\n<text"), []byte("<g><rotated")), -1)
	if len(texts) == 0 {
		t.Fatalf("%s: no text found", name)
	}
	for _, tm := range texts {
		x, _ := strconv.ParseFloat(string(tm[1]), 64)
		size, _ := strconv.ParseFloat(string(tm[2]), 64)
		face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Length(size))
		w := float64(face.Width(html.UnescapeString(string(tm[3]))))
		if x < -0.5 || x+w > width+0.5 {
			t.Errorf("%s: text %q spans %.1f to %.1f pt, outside the chart's 0 to %.1f", name, tm[3], x, x+w, width)
		}
	}
	return width
}

// TestTextsInsideAndWidthBounded: a long title over two narrow categories
// stays inside the chart, and many categories wrap onto rows no wider than
// MaxWidth, legend included.
func TestTextsInsideAndWidthBounded(t *testing.T) {
	narrow := Bars{Title: "Compile rate by contract size", YLabel: "compiling samples", Categories: []string{"1-5", "6-10"},
		Percent: true, Series: []Series{{Name: "mutant", Values: []float64{1, 1}}, {Name: "reference", Values: []float64{1, 0.5}}}}
	ops := []string{"(none)", "arithmetic", "boundary", "constant", "delete_statement", "drop_require", "logical",
		"relational", "remove_modifier", "return_value", "sender_origin", "unchecked"}
	wide := Bars{Title: "Mutants exposed per oracle", YLabel: "mutated samples exposed", Categories: ops, Percent: true}
	for i, o := range []string{"O1", "O2", "O3 (fixed, paper)", "O4 (fixed, paper)"} {
		vals := make([]float64, len(ops))
		for j := range vals {
			vals[j] = float64((i+j)%5) / 4
		}
		wide.Series = append(wide.Series, Series{Name: o, Values: vals})
	}
	for name, b := range map[string]Bars{"narrow": narrow, "wide": wide, "stacked": sample()} {
		svg, err := b.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if w := textsInside(t, name, svg); w > float64(MaxWidth)+0.5 {
			t.Errorf("%s: %.0f pt wide, more than %v", name, w, MaxWidth)
		}
		for _, s := range b.Series {
			if !bytes.Contains(svg, []byte(">"+html.EscapeString(s.Name)+"<")) {
				t.Errorf("%s: legend lacks %q", name, s.Name)
			}
		}
	}
	if wide.rows() < 2 {
		t.Errorf("12 operators x 4 oracles in %d row(s): want them wrapped", wide.rows())
	}
}

var (
	gridRe = regexp.MustCompile(`<path d="M([0-9.]+),([0-9.]+)L([0-9.]+),([0-9.]+)" style="fill:none;stroke:#808080`)
	barRe  = regexp.MustCompile(`<path d="M([0-9.]+),[0-9.]+L[0-9.]+,[0-9.]+L([0-9.]+),[0-9.]+L[0-9.]+,[0-9.]+Z" style="fill:#([0-9A-F]{6})"`)
)

// TestBarsInsideTheGrid: the horizontal grid lines span every bar (the x
// range covers whole category slots), in a narrow chart too.
func TestBarsInsideTheGrid(t *testing.T) {
	narrow := Bars{Title: "Compile rate by contract size", Categories: []string{"1-5", "6-10"}, Percent: true,
		Series: []Series{{Name: "mutant", Values: []float64{1, 1}}, {Name: "reference", Values: []float64{1, 0.5}}}}
	for name, b := range map[string]Bars{"narrow": narrow, "stacked": sample()} {
		svg, err := b.SVG()
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := math.Inf(1), math.Inf(-1) // the horizontal grid lines' span
		for _, m := range gridRe.FindAllSubmatch(svg, -1) {
			if string(m[2]) == string(m[4]) {
				x0, _ := strconv.ParseFloat(string(m[1]), 64)
				x1, _ := strconv.ParseFloat(string(m[3]), 64)
				lo, hi = min(lo, x0), max(hi, x1)
			}
		}
		if lo > hi {
			t.Fatalf("%s: no horizontal grid line", name)
		}
		w, _ := b.width()
		legend := float64(w - b.legendWidth())
		bars := 0
		for _, m := range barRe.FindAllSubmatch(svg, -1) {
			if x0, _ := strconv.ParseFloat(string(m[1]), 64); string(m[3]) == "FFFFFF" || x0 >= legend {
				continue // the background, a legend's colour box
			}
			bars++
			x0, _ := strconv.ParseFloat(string(m[1]), 64)
			x1, _ := strconv.ParseFloat(string(m[2]), 64)
			if x0 < lo-0.01 || x1 > hi+0.01 {
				t.Errorf("%s: a bar spans %.1f to %.1f, out of the grid's %.1f to %.1f", name, x0, x1, lo, hi)
			}
		}
		if bars == 0 {
			t.Fatalf("%s: no bar found", name)
		}
	}
}

// A grouped series with an interval per category gets a whisker (a line and
// two caps) per category that has one, and the axis reaches the highest end.
func TestWhiskersDrawnWhereAnIntervalIs(t *testing.T) {
	plain := Bars{Title: "t", YLabel: "rate", Percent: true, Categories: []string{"a", "b", "c"},
		Series: []Series{{Name: "O2", Values: []float64{0.5, 0.6, 0.7}}}}
	withCI := plain
	withCI.Series = []Series{{Name: "O2", Values: []float64{0.5, 0.6, 0.7},
		Low: []float64{0.4, math.NaN(), 0.6}, High: []float64{0.6, math.NaN(), 0.8}}}
	paths := func(b Bars) int {
		svg, err := b.SVG()
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Count(svg, []byte("<path"))
	}
	if got := paths(withCI) - paths(plain); got != 6 {
		t.Errorf("two intervals drew %d more paths, want 6 (a line and two caps each)", got)
	}
	counts := Bars{Categories: []string{"a"}, Series: []Series{{Name: "n", Values: []float64{3}, Low: []float64{1}, High: []float64{9}}}}
	if top, _ := counts.yAxis(); top < 9 {
		t.Errorf("axis top %v, want at least the interval's 9", top)
	}
}
