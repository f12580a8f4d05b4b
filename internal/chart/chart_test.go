package chart

import (
	"bytes"
	"math"
	"regexp"
	"testing"
)

func sample() Bars {
	return Bars{Title: "t", YLabel: "contracts", Categories: []string{"openai:gpt-4o-mini (matched, paper)", "reference"},
		Series: []Series{{"O2 only", []float64{3, 1}}, {"both", []float64{2, math.NaN()}}, {"O3 only", []float64{1, 4}}}, Stacked: true}
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
