// Package chart draws the report's bar charts with gonum/plot, as SVG for
// the page and PDF for LaTeX: grouped or stacked bars, integer ticks on
// counts, percent ticks on rates, the legend beside the plot, and category
// slots wide enough that no two labels overlap.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

func init() {
	// Sans for screen and paper; Debian's fonts-liberation has it for the
	// browser, and gonum/plot embeds it for measuring and for PDF.
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

// Series is one named set of bars, a value per category (NaN: no bar), and
// optionally an interval per category drawn as a whisker over the bar (Low
// and High: nil, or NaN at a category, for none; grouped bars only).
type Series struct {
	Name      string
	Values    []float64
	Low, High []float64
}

// Bars is a bar chart over categories.
type Bars struct {
	Title, YLabel string
	Categories    []string
	Series        []Series
	Stacked       bool // series stacked in one bar per category
	Percent       bool // values are 0–1 rates, ticked as %
}

// Palette is Tableau 10, in order.
var Palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

const (
	barWidth   = 9 * vg.Millimeter / 2
	minHeight  = 80 * vg.Millimeter
	entryStep  = 6 * vg.Millimeter // a legend line and its gap
	thumbWidth = 4 * vg.Millimeter // a legend entry's colour box
	legendGap  = 4 * vg.Millimeter // between the plot and its legend
	wrapAt     = 14                // characters per line of a category label
	labelGap   = 4 * vg.Millimeter
	axisMargin = 22 * vg.Millimeter // the y axis, its label and ticks
	titlePad   = 3 * vg.Millimeter
	rowGap     = 5 * vg.Millimeter // between rows of a wrapped chart
	inset      = vg.Length(3)      // left of the y label, in points
)

// MaxWidth is the widest a chart gets (800 pt, about 1070 CSS px: the
// report's column); more categories wrap onto further rows.
const MaxWidth = vg.Length(800)

// SVG renders the chart as an SVG document.
func (b Bars) SVG() ([]byte, error) {
	return b.render(func(w, h vg.Length) vg.CanvasWriterTo { return vgsvg.New(w, h) })
}

// PDF renders the chart as a one-page PDF (fonts embedded), for LaTeX.
func (b Bars) PDF() ([]byte, error) {
	return b.render(func(w, h vg.Length) vg.CanvasWriterTo { return vgpdf.New(w, h) })
}

// render draws the chart on a canvas of its size made by newCanvas.
func (b Bars) render(newCanvas func(w, h vg.Length) vg.CanvasWriterTo) ([]byte, error) {
	w, err := b.width()
	if err != nil {
		return nil, err
	}
	c := newCanvas(w, b.height())
	if err := b.draw(draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// slot is the width of one category: its bars, or its widest label line.
func (b Bars) slot() vg.Length {
	bars := vg.Length(len(b.Series)) * barWidth
	if b.Stacked {
		bars = barWidth * 2
	}
	face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Points(10))
	widest := vg.Length(0)
	for _, c := range b.Categories {
		for _, line := range strings.Split(Wrap(c, wrapAt), "\n") {
			widest = max(widest, face.Width(line))
		}
	}
	return max(bars, widest) + labelGap
}

// perRow is how many categories one row of bars holds: all of them when
// they fit in MaxWidth beside the legend, else as many as fit (at least
// one); the rest wrap onto further rows, so no chart is wider than a page.
func (b Bars) perRow() int {
	room := MaxWidth - inset - axisMargin - b.legendWidth()
	n := max(1, int(room/b.slot()))
	return min(n, len(b.Categories))
}

func (b Bars) rows() int { return (len(b.Categories) + b.perRow() - 1) / b.perRow() }

// titleHeight is the band above the rows that holds the title.
func (b Bars) titleHeight() vg.Length {
	if b.Title == "" {
		return 0
	}
	return titleStyle().Rectangle(b.Title).Size().Y + titlePad
}

// height leaves room for every row and every legend line.
func (b Bars) height() vg.Length {
	rows := vg.Length(b.rows())*minHeight + vg.Length(b.rows()-1)*rowGap
	return b.titleHeight() + max(rows, vg.Length(len(b.Series))*entryStep+30*vg.Millimeter)
}

// legendWidth is the room of the legend, which names even a single series
// (what the bars count).
func (b Bars) legendWidth() vg.Length {
	if len(b.Series) == 0 {
		return 0
	}
	face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Points(10))
	widest := vg.Length(0)
	for _, s := range b.Series {
		widest = max(widest, face.Width(s.Name))
	}
	// gap, colour box, a space, the name, a margin
	return legendGap + thumbWidth + face.Width(" ") + widest + 3*vg.Millimeter
}

// width holds the rows' slots and the legend, and the title over the plot
// part (it is centred there: a narrower plot would push it past the left
// edge).
func (b Bars) width() (vg.Length, error) {
	if len(b.Categories) == 0 {
		return 0, fmt.Errorf("chart: %q has no categories", b.Title)
	}
	plotW := inset + axisMargin + vg.Length(b.perRow())*b.slot()
	if b.Title != "" {
		plotW = max(plotW, titleStyle().Width(b.Title)+2*titlePad)
	}
	return plotW + b.legendWidth(), nil
}

func titleStyle() text.Style {
	sty := plot.New().Title.TextStyle
	sty.Font.Size = vg.Points(12)
	sty.Handler = text.Plain{Fonts: font.DefaultCache}
	return sty
}

// draw lays the title over the plot, the rows of bars below it and the
// legend right of them.
func (b Bars) draw(dc draw.Canvas) error {
	lw := b.legendWidth()
	plotC := draw.Crop(dc, 0, -lw, 0, 0)
	if b.Title != "" {
		sty := titleStyle()
		sty.XAlign = draw.XCenter
		sty.YAlign = draw.YTop
		plotC.FillText(sty, vg.Point{X: plotC.Center().X, Y: plotC.Max.Y}, b.Title)
	}
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = thumbWidth
	legend.Padding = entryStep - vg.Points(10) // lines apart, their boxes never touching
	yMax, ticks := b.yAxis()
	per, rows := b.perRow(), b.rows()
	th := b.titleHeight()
	rowH := (dc.Max.Y - dc.Min.Y - th - vg.Length(rows-1)*rowGap) / vg.Length(rows)
	for r := range rows {
		lo, hi := r*per, min((r+1)*per, len(b.Categories))
		p, bars, err := b.rowPlot(lo, hi, per, yMax, ticks)
		if err != nil {
			return err
		}
		if r == 0 {
			for i, bc := range bars {
				legend.Add(b.Series[i].Name, bc)
			}
		}
		top := -th - vg.Length(r)*(rowH+rowGap) // a gap keeps the labels above clear of this row's top tick
		// inset: the rotated y label's ascent would reach past the left edge
		p.Draw(draw.Crop(plotC, inset, 0, dc.Max.Y-dc.Min.Y+top-rowH, top))
	}
	if lw > 0 {
		legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-lw+legendGap, 0, 0, -th-4*vg.Millimeter))
	}
	return nil
}

// yAxis is the value axis shared by every row: its top and its ticks.
func (b Bars) yAxis() (float64, plot.Ticker) {
	top := 0.0
	for j := range b.Categories {
		sum := 0.0
		for _, s := range b.Series {
			v := bound(s.Values, j)
			top = max(top, v, bound(s.High, j))
			sum += v
		}
		if b.Stacked {
			top = max(top, sum)
		}
	}
	if b.Percent {
		return math.Max(1, top), plot.TickerFunc(percentTicks)
	}
	step := IntegerStep(top)
	return math.Max(step, math.Ceil(top/step)*step),
		plot.TickerFunc(func(lo, hi float64) []plot.Tick { return IntegerTicks(lo, hi, step) })
}

// rowPlot is the plot of categories lo..hi-1 in a row of per slots: the x
// range spans whole slots (half a slot beside the outer bars), so the grid
// spans every bar; no vertical grid lines run through the bars.
func (b Bars) rowPlot(lo, hi, per int, yMax float64, ticks plot.Ticker) (*plot.Plot, []*plotter.BarChart, error) {
	p := plot.New()
	p.Y.Label.Text = b.YLabel
	p.Y.Min, p.Y.Max = 0, yMax
	p.Y.Tick.Marker = ticks
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	p.Add(grid)
	var out []*plotter.BarChart
	var below *plotter.BarChart
	for i, s := range b.Series {
		vals := make(plotter.Values, hi-lo)
		for j := range vals {
			vals[j] = bound(s.Values, lo+j)
		}
		bc, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return nil, nil, fmt.Errorf("chart: %s: %w", s.Name, err)
		}
		bc.Color = Palette[i%len(Palette)]
		bc.LineStyle.Width = 0
		if b.Stacked {
			bc.Width = barWidth * 2
			if below != nil {
				bc.StackOn(below)
			}
			below = bc
		} else {
			bc.Offset = (vg.Length(i) - vg.Length(len(b.Series)-1)/2) * barWidth
		}
		p.Add(bc)
		if !b.Stacked {
			p.Add(whiskers{low: window(s.Low, lo, hi), high: window(s.High, lo, hi), offset: bc.Offset})
		}
		out = append(out, bc)
	}
	wrapped := make([]string, hi-lo)
	for i := range wrapped {
		wrapped[i] = Wrap(b.Categories[lo+i], wrapAt)
	}
	p.NominalX(wrapped...)
	p.Y.Padding = 0 // the half slot of the x range keeps the first label clear of the y axis
	p.X.Min, p.X.Max = -0.5, float64(per)-0.5
	p.X.Tick.Label.Handler = spaced{text.Plain{Fonts: font.DefaultCache}}
	return p, out, nil
}

// bound is a bar's value or interval end at category j, 0 where there is none.
func bound(ends []float64, j int) float64 {
	if j < len(ends) && !math.IsNaN(ends[j]) {
		return ends[j]
	}
	return 0
}

// window is the interval ends of categories lo..hi-1 (nil where the series
// has none).
func window(ends []float64, lo, hi int) []float64 {
	if ends == nil {
		return nil
	}
	out := make([]float64, hi-lo)
	for j := range out {
		out[j] = math.NaN()
		if lo+j < len(ends) {
			out[j] = ends[lo+j]
		}
	}
	return out
}

// whiskers draws each category's interval as a vertical line with caps,
// centred on its bar (offset from the category, as the bar is).
type whiskers struct {
	low, high []float64
	offset    vg.Length
}

func (w whiskers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	half := barWidth / 4
	for j := range min(len(w.low), len(w.high)) {
		lo, hi := w.low[j], w.high[j]
		if math.IsNaN(lo) || math.IsNaN(hi) {
			continue
		}
		x := trX(float64(j)) + w.offset
		yl, yh := trY(lo), trY(hi)
		c.StrokeLine2(sty, x, yl, x, yh)
		c.StrokeLine2(sty, x-half, yl, x+half, yl)
		c.StrokeLine2(sty, x-half, yh, x+half, yh)
	}
}

func percentTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for v := 0.0; v <= hi+1e-9; v += 0.25 {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%.0f%%", v*100)})
	}
	return ts
}

// IntegerStep is a tick step for counts up to top: 1, 2 or 5 times a power
// of ten, at most about six ticks, never below 1.
func IntegerStep(top float64) float64 {
	if top <= 5 {
		return 1
	}
	raw := top / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return math.Max(1, m*mag)
		}
	}
	return math.Max(1, 10*mag)
}

// IntegerTicks are the multiples of step from lo to hi, labelled as whole
// numbers.
func IntegerTicks(lo, hi, step float64) []plot.Tick {
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%.0f", v)})
	}
	return ts
}

// Wrap breaks s into lines of at most n characters at spaces (a longer word
// keeps its line).
func Wrap(s string, n int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// spaced is gonum/plot's plain text with a full line height between the
// lines of a label (Plain steps one font size, so the glyph boxes of two
// lines overlap by the descent).
type spaced struct{ text.Plain }

func (h spaced) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	fnt := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := h.Lines(txt)
	step := fnt.Extents().Height
	total := step * vg.Length(len(lines))
	pt.Y += total*vg.Length(sty.YAlign) - fnt.Extents().Ascent
	for i, line := range lines {
		xoffs := vg.Length(sty.XAlign) * fnt.Width(line)
		n := vg.Length(len(lines) - i)
		c.FillString(fnt, pt.Add(vg.Point{X: xoffs, Y: n*step - (step - sty.Font.Size)}), line)
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

// Box keeps a line's measure; Style.Height adds the line gap between lines.
func (h spaced) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	return h.Plain.Box(txt, fnt)
}
