// Package svg draws the report's charts as standalone SVG: grouped or
// stacked bar charts and heatmaps, with axes, value labels and a legend, and
// no script, font or stylesheet from outside (the report must open offline).
// Every data mark carries class="mark" and a <title> (the hover text), which
// is what the report's browser test counts.
package svg

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Palette is the series colours (Tableau 10), in order.
var Palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// Series is one named row of values, one per category; NaN marks a missing
// value (no bar).
type Series struct {
	Name   string
	Values []float64
}

// Bars is a vertical bar chart: categories along x, one bar per series in
// each (side by side, or stacked).
type Bars struct {
	Title      string // what the chart shows (the SVG's accessible name)
	Categories []string
	Series     []Series
	Stacked    bool
	Percent    bool   // values are shares in [0, 1], labelled in %
	YLabel     string // axis label
	Width      int    // default 720
	Height     int    // default 320
}

const (
	marginLeft   = 64
	marginRight  = 16
	marginTop    = 16
	marginBottom = 56
	legendRow    = 18
)

// Empty tells whether there is no value to draw.
func (b Bars) Empty() bool {
	for _, s := range b.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) {
				return false
			}
		}
	}
	return true
}

// SVG renders the chart.
func (b Bars) SVG() string {
	w, h := orDefault(b.Width, 720), orDefault(b.Height, 320)
	per := legendColumns(b.Series)
	legendH := legendRow * ((len(b.Series) + per - 1) / per)
	plotW := float64(w - marginLeft - marginRight)
	plotH := float64(h - marginTop - marginBottom - legendH)
	top := b.maxValue()
	var s strings.Builder
	open(&s, w, h, b.Title)
	yAxis(&s, top, plotW, plotH, b.Percent, b.YLabel)
	n := max(1, len(b.Categories))
	band := plotW / float64(n)
	for i, cat := range b.Categories {
		x0 := marginLeft + band*float64(i)
		b.drawCategory(&s, i, x0, band, plotH, top)
		label(&s, x0+band/2, float64(marginTop)+plotH+16, "middle", truncate(cat, int(band/6.5)), cat)
	}
	legend(&s, b.Series, per, float64(h-legendH), w)
	s.WriteString("</svg>")
	return s.String()
}

func (b Bars) drawCategory(s *strings.Builder, i int, x0, band, plotH, top float64) {
	inner := band * 0.8
	base := float64(marginTop) + plotH
	stackY := base
	barW := inner / float64(max(1, len(b.Series)))
	if b.Stacked {
		barW = inner
	}
	for j, ser := range b.Series {
		if i >= len(ser.Values) || math.IsNaN(ser.Values[i]) {
			continue
		}
		v := ser.Values[i]
		if b.Stacked && v == 0 {
			continue // an empty segment
		}
		// A zero stays visible as a stub on the axis: it is a value, not a gap.
		hgt := math.Max(plotH*v/top, 2)
		x := x0 + band*0.1 + barW*float64(j)
		y := base - hgt
		if b.Stacked {
			x = x0 + band*0.1
			y = stackY - hgt
			stackY = y
		}
		tip := fmt.Sprintf("%s, %s: %s", ser.Name, b.Categories[i], format(v, b.Percent))
		rect(s, x, y, barW-1, hgt, Palette[j%len(Palette)], tip)
		if !b.Stacked && barW >= 22 {
			label(s, x+(barW-1)/2, y-3, "middle", format(v, b.Percent), "")
		}
	}
}

func (b Bars) maxValue() float64 {
	top := 0.0
	if b.Percent {
		top = 1
	}
	var sums []float64
	for _, s := range b.Series {
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			top = math.Max(top, v)
			for len(sums) <= i {
				sums = append(sums, 0)
			}
			sums[i] += v
		}
	}
	if b.Stacked {
		for _, v := range sums {
			top = math.Max(top, v)
		}
	}
	if top <= 0 {
		return 1
	}
	return niceCeil(top)
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p*1.0000001 {
			return m * p
		}
	}
	return 10 * p
}

func yAxis(s *strings.Builder, top, plotW, plotH float64, percent bool, ylabel string) {
	const ticks = 4
	for t := 0; t <= ticks; t++ {
		v := top * float64(t) / ticks
		y := float64(marginTop) + plotH - plotH*float64(t)/ticks
		fmt.Fprintf(s, `<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, marginLeft, float64(marginLeft)+plotW, y, y)
		label(s, marginLeft-6, y+4, "end", format(v, percent), "")
	}
	fmt.Fprintf(s, `<line x1="%d" x2="%d" y1="%d" y2="%.1f" stroke="#444"/>`, marginLeft, marginLeft, marginTop, float64(marginTop)+plotH)
	if ylabel != "" {
		fmt.Fprintf(s, `<text transform="translate(14,%.1f) rotate(-90)" text-anchor="middle" font-size="12">%s</text>`,
			float64(marginTop)+plotH/2, html.EscapeString(ylabel))
	}
}

// legendColumns fits long series names (oracle combinations) in fewer,
// wider legend columns.
func legendColumns(series []Series) int {
	longest := 0
	for _, s := range series {
		longest = max(longest, len([]rune(s.Name)))
	}
	switch {
	case longest <= 18:
		return 4
	case longest <= 40:
		return 2
	}
	return 1
}

func legend(s *strings.Builder, series []Series, per int, y float64, w int) {
	colW := float64(w-marginLeft) / float64(per)
	for j, ser := range series {
		x := float64(marginLeft) + colW*float64(j%per)
		yy := y + float64(legendRow*(j/per)) + 4
		fmt.Fprintf(s, `<rect x="%.1f" y="%.1f" width="10" height="10" fill="%s"/>`, x, yy, Palette[j%len(Palette)])
		label(s, x+14, yy+9, "start", truncate(ser.Name, int(colW/6.5)-2), ser.Name)
	}
}

// Heatmap is a grid of shares in [0, 1] (NaN: no cell), rows by columns,
// each cell shaded by its value and labelled.
type Heatmap struct {
	Title  string
	Rows   []string
	Cols   []string
	Values [][]float64 // [row][col]
	Labels [][]string  // [row][col] cell text; the value in % when empty
}

// Empty tells whether there is no cell to draw.
func (m Heatmap) Empty() bool {
	for _, r := range m.Values {
		for _, v := range r {
			if !math.IsNaN(v) {
				return false
			}
		}
	}
	return true
}

// SVG renders the heatmap.
func (m Heatmap) SVG() string {
	const rowLabelW, cellH, headH = 150, 28, 40
	cellW := 96.0
	w := rowLabelW + int(cellW)*max(1, len(m.Cols)) + marginRight
	h := headH + cellH*len(m.Rows) + 8
	var s strings.Builder
	open(&s, w, h, m.Title)
	for c, col := range m.Cols {
		label(&s, rowLabelW+cellW*float64(c)+cellW/2, headH-10, "middle", truncate(col, 15), col)
	}
	for r, row := range m.Rows {
		y := float64(headH + cellH*r)
		label(&s, rowLabelW-8, y+cellH/2+4, "end", truncate(row, 22), row)
		for c := range m.Cols {
			v := cell(m.Values, r, c)
			if math.IsNaN(v) {
				continue
			}
			x := rowLabelW + cellW*float64(c)
			text := cellLabel(m.Labels, r, c, v)
			rect(&s, x+1, y+1, cellW-2, cellH-2, shade(v), fmt.Sprintf("%s, %s: %s", row, m.Cols[c], text))
			colour := "#222"
			if v > 0.55 {
				colour = "#fff"
			}
			fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="12" fill="%s">%s</text>`,
				x+cellW/2, y+cellH/2+4, colour, html.EscapeString(text))
		}
	}
	s.WriteString("</svg>")
	return s.String()
}

func cell(vals [][]float64, r, c int) float64 {
	if r < len(vals) && c < len(vals[r]) {
		return vals[r][c]
	}
	return math.NaN()
}

func cellLabel(labels [][]string, r, c int, v float64) string {
	if r < len(labels) && c < len(labels[r]) && labels[r][c] != "" {
		return labels[r][c]
	}
	return format(v, true)
}

// shade maps [0, 1] from a pale to a deep blue.
func shade(v float64) string {
	v = math.Max(0, math.Min(1, v))
	lerp := func(a, b int) int { return a + int(math.Round(float64(b-a)*v)) }
	return fmt.Sprintf("#%02x%02x%02x", lerp(0xe8, 0x08), lerp(0xf1, 0x30), lerp(0xfa, 0x6b))
}

// ---- primitives ----

func open(s *strings.Builder, w, h int, title string) {
	fmt.Fprintf(s, `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`, w, h, w, h)
	fmt.Fprintf(s, `<title>%s</title>`, html.EscapeString(title))
}

func rect(s *strings.Builder, x, y, w, h float64, fill, tip string) {
	fmt.Fprintf(s, `<rect class="mark" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`,
		x, y, math.Max(w, 0), math.Max(h, 0), fill, html.EscapeString(tip))
}

// label writes text; full, when set and different, becomes its hover title.
func label(s *strings.Builder, x, y float64, anchor, text, full string) {
	fmt.Fprintf(s, `<text x="%.1f" y="%.1f" text-anchor="%s">`, x, y, anchor)
	if full != "" && full != text {
		fmt.Fprintf(s, `<title>%s</title>`, html.EscapeString(full))
	}
	s.WriteString(html.EscapeString(text) + "</text>")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if n < 4 || len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func format(v float64, percent bool) string {
	if percent {
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}
