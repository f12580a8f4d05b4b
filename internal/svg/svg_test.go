package svg

import (
	"encoding/xml"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// marks parses the SVG (it must be well-formed XML) and returns the
// heights and fills of its data marks.
func marks(t *testing.T, doc string) (heights []float64, fills []string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v\n%s", err, doc)
			}
			return
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "rect" {
			continue
		}
		attrs := map[string]string{}
		for _, a := range se.Attr {
			attrs[a.Name.Local] = a.Value
		}
		if attrs["class"] != "mark" {
			continue
		}
		h, _ := strconv.ParseFloat(attrs["height"], 64)
		heights = append(heights, h)
		fills = append(fills, attrs["fill"])
	}
}

func TestBarsDrawOneMarkPerValueInProportion(t *testing.T) {
	b := Bars{Title: "t <&>", Categories: []string{"1-5", "6-10", "11-20"}, Percent: true,
		Series: []Series{{"crawled", []float64{0.2, 0.4, math.NaN()}}, {"verified", []float64{0.1, 0.8, 0.05}}}}
	h, fills := marks(t, b.SVG())
	if len(h) != 5 {
		t.Fatalf("%d marks, want 5 (NaN draws none)", len(h))
	}
	// Marks go category by category, series by series: 0.2 0.1 | 0.4 0.8 | 0.05.
	if math.Abs(h[0]/h[1]-2) > 1e-2 || math.Abs(h[3]/h[1]-8) > 1e-1 || math.Abs(h[2]/h[4]-8) > 1e-1 {
		t.Errorf("heights not proportional to values: %v", h)
	}
	if fills[0] == fills[1] || fills[0] != fills[2] || fills[4] != fills[1] {
		t.Errorf("series colours: %v", fills)
	}
	if !strings.Contains(b.SVG(), "t &lt;&amp;&gt;") || !strings.Contains(b.SVG(), "80.0%") {
		t.Error("title not escaped or value label missing")
	}
	if b.Empty() || !(Bars{Series: []Series{{"x", []float64{math.NaN()}}}}).Empty() {
		t.Error("Empty")
	}
}

func TestStackedBarsSumToTheTotal(t *testing.T) {
	b := Bars{Categories: []string{"m"}, Stacked: true,
		Series: []Series{{"O2 only", []float64{3}}, {"both", []float64{2}}, {"O3 only", []float64{5}}}}
	doc := b.SVG()
	h, _ := marks(t, doc)
	if len(h) != 3 || math.Abs(h[0]+h[1]+h[2]-h[2]*2) > 0.5 {
		t.Fatalf("stack heights %v: the parts must add up to the total (10 = 2 x 5)", h)
	}
	ys := regexp.MustCompile(`class="mark" x="[^"]+" y="([^"]+)"`).FindAllStringSubmatch(doc, -1)
	y0, _ := strconv.ParseFloat(ys[0][1], 64)
	y1, _ := strconv.ParseFloat(ys[1][1], 64)
	if math.Abs(y0-(y1+h[1])) > 0.2 {
		t.Errorf("second segment does not sit on the first: y0=%v y1=%v h1=%v", y0, y1, h[1])
	}
}

func TestHeatmapShadesByValue(t *testing.T) {
	m := Heatmap{Rows: []string{"drop-require", "swap-arith"}, Cols: []string{"O2", "O3"},
		Values: [][]float64{{0, 1}, {0.5, math.NaN()}}, Labels: [][]string{{"0/4", "4/4"}, {"", ""}}}
	doc := m.SVG()
	h, fills := marks(t, doc)
	if len(h) != 3 {
		t.Fatalf("%d cells, want 3", len(h))
	}
	if fills[0] != "#e8f1fa" || fills[1] != "#08306b" {
		t.Errorf("shades %v: 0 must be pale, 1 deep", fills)
	}
	if !strings.Contains(doc, ">4/4<") || !strings.Contains(doc, ">50.0%<") {
		t.Error("cell labels: given text, else the value in %")
	}
	if m.Empty() || !(Heatmap{}).Empty() {
		t.Error("Empty")
	}
}

func TestNiceCeil(t *testing.T) {
	for in, want := range map[float64]float64{0.7: 1, 1: 1, 1.2: 2, 3: 5, 7: 10, 42: 50, 180: 200} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", in, got, want)
		}
	}
}
