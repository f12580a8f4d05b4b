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

// Series is one named set of bars, a value per category (NaN: no bar).
type Series struct {
	Name   string
	Values []float64
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
)

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

// height leaves room for every legend line.
func (b Bars) height() vg.Length {
	return max(minHeight, vg.Length(len(b.Series))*entryStep+30*vg.Millimeter)
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

func (b Bars) width() (vg.Length, error) {
	if len(b.Categories) == 0 {
		return 0, fmt.Errorf("chart: %q has no categories", b.Title)
	}
	return axisMargin + vg.Length(len(b.Categories))*b.slot() + b.legendWidth(), nil
}

// draw lays the plot out left and the legend right of it.
func (b Bars) draw(dc draw.Canvas) error {
	p := plot.New()
	p.Title.Text = b.Title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Y.Label.Text = b.YLabel
	p.Y.Min = 0
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	// The legend is drawn beside the plot, not by p.Draw inside it.
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = thumbWidth
	legend.Padding = entryStep - vg.Points(10) // lines apart, their boxes never touching
	p.Add(plotter.NewGrid())

	var below *plotter.BarChart
	top := 0.0
	for i, s := range b.Series {
		vals := make(plotter.Values, len(b.Categories))
		for j := range vals {
			if j < len(s.Values) && !math.IsNaN(s.Values[j]) {
				vals[j] = s.Values[j]
			}
		}
		bc, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return fmt.Errorf("chart: %s: %w", s.Name, err)
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
		for j := range vals {
			top = max(top, bc.BarHeight(j))
		}
		p.Add(bc)
		legend.Add(s.Name, bc)
	}
	wrapped := make([]string, len(b.Categories))
	for i, c := range b.Categories {
		wrapped[i] = Wrap(c, wrapAt)
	}
	p.NominalX(wrapped...)
	p.X.Tick.Label.Handler = spaced{text.Plain{Fonts: font.DefaultCache}}
	if b.Percent {
		p.Y.Max = math.Max(1, top)
		p.Y.Tick.Marker = plot.TickerFunc(percentTicks)
	} else {
		step := IntegerStep(top)
		p.Y.Max = math.Max(step, math.Ceil(top/step)*step)
		p.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return IntegerTicks(lo, hi, step) })
	}
	lw := b.legendWidth()
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	if lw > 0 {
		legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-lw+legendGap, 0, 0, -12*vg.Millimeter))
	}
	return nil
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
