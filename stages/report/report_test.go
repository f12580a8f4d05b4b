package report

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/views/synth"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

var ctx = context.Background()

// render draws the page over db.
func render(t *testing.T, db *sql.DB) string {
	t.Helper()
	html, err := Render(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return string(html)
}

// synthDB is the views over a synthetic warehouse (every dataset filled).
func synthDB(t *testing.T) *sql.DB {
	t.Helper()
	root := filepath.Join(t.TempDir(), "warehouse")
	if err := synth.Write(root, 11); err != nil {
		t.Fatal(err)
	}
	db, err := views.OpenInMemory(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func emptyDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := views.OpenInMemory(filepath.Join(t.TempDir(), "warehouse"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// figureBlocks splits a page into its <figure> elements by id.
func figureBlocks(page string) map[string]string {
	re := regexp.MustCompile(`(?s)<figure data-figure="([^"]+)">(.*?)</figure>`)
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		out[m[1]] = m[2]
	}
	return out
}

func TestEveryFigureDrawnWhenThereIsData(t *testing.T) {
	page := render(t, synthDB(t))
	blocks := figureBlocks(page)
	for _, id := range figureIDs() {
		b, ok := blocks[id]
		switch {
		case !ok:
			t.Errorf("figure %s missing from the page", id)
		case !strings.Contains(b, `<svg class="chart"`) || !strings.Contains(b, "<path"):
			t.Errorf("figure %s has no chart over a full warehouse: %.300s", id, b)
		case !strings.Contains(b, `download="`+id+`.svg" href="data:image/svg`) ||
			!strings.Contains(b, `download="`+id+`.pdf" href="data:application/pdf;base64,`):
			t.Errorf("figure %s has no SVG and PDF downloads", id)
		}
	}
	// Count axes tick at whole numbers only ("7.5 contracts" was a bug).
	for _, id := range []string{"funnel", "fig4a-divergent", "fig4b"} {
		if m := regexp.MustCompile(`>(\d+\.\d+)</text>`).FindString(blocks[id]); m != "" {
			t.Errorf("figure %s: fractional tick %s on a count axis", id, m)
		}
	}
	// Figure 2 has the paper's six buckets at both stages; Figure 4(b) the
	// paper's three parts.
	for _, want := range []string{">0<", ">1-5<", ">6-10<", ">11-20<", ">21-30<", ">31+<", ">crawled<", ">verified<"} {
		if !strings.Contains(blocks["fig2"], want) {
			t.Errorf("figure 2 lacks %s", want)
		}
	}
	for _, want := range []string{">O2 only<", ">both<", ">O3 only<"} {
		if !strings.Contains(blocks["fig4b"], want) {
			t.Errorf("figure 4(b) lacks %s", want)
		}
	}
	if !strings.Contains(page, `<table data-table="runs">`) && !strings.Contains(page, `data-table="runs"`) {
		t.Error("no run information")
	}
	if !strings.Contains(page, `<table data-table="table3_dcr_validation">`) {
		t.Error("Table III not on the page")
	}
	checkSelfContained(t, page)
	for _, v := range []string{"construction_funnel", "fig2_size_distribution", "fig4_replay", "mutant_kills"} {
		if !strings.Contains(page, `<table data-table="`+v+`">`) {
			t.Errorf("table %s not on the page", v)
		}
	}
	if strings.Contains(page, `data-table="replay_sample_summary"`) {
		t.Error("dataset helper views do not belong on the page")
	}
}

func TestEmptyWarehouseSaysNoDataYet(t *testing.T) {
	page := render(t, emptyDB(t))
	for id, b := range figureBlocks(page) {
		if strings.Contains(b, "<svg") || !strings.Contains(b, "no data yet") {
			t.Errorf("figure %s over an empty warehouse: %.300s", id, b)
		}
	}
	if len(figureBlocks(page)) != len(figureIDs()) {
		t.Errorf("%d figures on the page, want %d", len(figureBlocks(page)), len(figureIDs()))
	}
	checkSelfContained(t, page)
}

// A broken figure query is an error, not a silent "no data yet".
func TestBrokenFigureQueryFails(t *testing.T) {
	_, err := draw(ctx, emptyDB(t), figure{ID: "x", Query: "SELECT 1/'a'"})
	if err == nil {
		t.Fatal("want an error")
	}
	d, err := draw(ctx, emptyDB(t), figure{ID: "y", Query: "SELECT * FROM table_not_landed_yet"})
	if err != nil || !strings.HasPrefix(d.NoData, "no data yet") {
		t.Fatalf("a missing view: %+v, %v", d, err)
	}
}

func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	if regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//`).MatchString(page) || strings.Contains(page, "#ZgotmplZ") || strings.Contains(page, "<script") ||
		strings.Contains(page, "<link") || strings.Contains(page, "@import") {
		t.Error("the page must need nothing from the network (no external src/href, script, link or @import)")
	}
}

// reportEnv is a run environment over a fresh data folder, one job (the
// report stage reads no corpus).
func reportEnv(t *testing.T) *pipeline.Env {
	t.Helper()
	env := stagetest.IsolatedEnv(t, "")
	env.Jobs = 1
	return env
}

// TestStageWritesPageAndSkipsWhenCurrent runs the stage through the runner.
func TestStageWritesPageAndSkipsWhenCurrent(t *testing.T) {
	env := reportEnv(t)
	data, w := env.Data, env.Warehouse
	if err := synth.Write(w.Root, 5); err != nil {
		t.Fatal(err)
	}
	run := func() pipeline.Counters { return stagetest.RunStage(t, env, New()) }
	if c := run(); c.Ran != 1 {
		t.Fatalf("first run: %+v", c)
	}
	page, err := os.ReadFile(Path(data))
	if err != nil || !bytes.Contains(page, []byte(`data-figure="fig2"`)) {
		t.Fatalf("no page written: %v", err)
	}
	if c := run(); c.Skipped != 1 {
		t.Fatalf("unchanged warehouse: want the unit skipped, got %+v", c)
	}
	os.Remove(Path(data))
	if c := run(); c.Ran != 1 {
		t.Fatalf("page deleted: want a rerun, got %+v", c)
	}
	if c := run(); c.Skipped != 1 {
		t.Fatalf("redrawn page: want the unit skipped, got %+v", c)
	}
	if err := synth.Write(w.Root, 6); err != nil { // new rows in every part
		t.Fatal(err)
	}
	if c := run(); c.Ran != 1 {
		t.Fatalf("new warehouse rows: want a rerun, got %+v", c)
	}
}

// ---- headless Chromium ----

// probe runs in the page (a copy: the report itself has no script) and
// reports where each figure's SVG is and how many marks have area.
const probe = `<script>
(function () {
  var figs = [].map.call(document.querySelectorAll('figure[data-figure]'), function (f) {
    var svg = f.querySelector('svg');
    var box = (svg || f).getBoundingClientRect();
    var all = [].filter.call(f.querySelectorAll('svg path'), function (m) {
      var fill = m.style.fill || ''; return fill !== '' && fill !== 'none' && !/#fff|255, 255, 255/i.test(fill);
    });
    var marks = all.filter(function (m) {
      var b = m.getBoundingClientRect(); return b.width > 0 && b.height > 0;
    });
    var texts = [].map.call(f.querySelectorAll('svg text'), function (x) {
      var b = x.getBoundingClientRect(); return {t: x.textContent, l: b.left, r: b.right, t0: b.top, b: b.bottom};
    });
    // Every text inside its chart, and the chart inside its figure (the
    // page's column): nothing cut at an edge or scrolled out of sight.
    var fb = f.getBoundingClientRect(), outside = [];
    texts.forEach(function (x) {
      if (x.l < box.left - 1 || x.r > box.right + 1 || x.t0 < box.top - 1 || x.b > box.bottom + 1) outside.push(x.t);
    });
    if (svg && box.right > fb.right + 1) outside.push('the chart (' + Math.round(box.width) + ' px) is wider than its figure (' + Math.round(fb.width) + ' px)');
    var overlaps = [];
    for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++) {
      var a = texts[i], c = texts[j];
      var w = Math.min(a.r, c.r) - Math.max(a.l, c.l), h = Math.min(a.b, c.b) - Math.max(a.t0, c.t0);
      if (w > 1 && h > 1) overlaps.push(a.t + ' / ' + c.t);
    }
    return {id: f.dataset.figure, x: box.left + scrollX, y: box.top + scrollY, w: box.width, h: box.height,
      drawn: marks.length, marks: all.length, texts: texts.length, overlaps: overlaps, outside: outside, nodata: !!f.querySelector('.nodata')};
  });
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify({height: document.documentElement.scrollHeight, figures: figs});
  document.body.appendChild(pre);
})();
</script>`

type probeResult struct {
	Height  int `json:"height"`
	Figures []struct {
		ID                  string
		X, Y, W, H          float64
		Drawn, Marks, Texts int
		Overlaps, Outside   []string
		NoData              bool
	} `json:"figures"`
}

func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("headless Chromium not installed (Debian: apt-get update && apt-get install -y chromium; `make test` tries it): skipping the browser rendering check")
	return ""
}

// TestPageRendersInChromium renders the report of a full synthetic
// warehouse in headless Chromium and checks that every figure has drawn
// content: marks with area in the layout, and coloured pixels in the
// screenshot where its SVG is; that its labels do not overlap, every text
// lies inside its chart and the chart inside the page's column. The
// screenshot is kept as an artifact.
func TestPageRendersInChromium(t *testing.T) {
	bin := chromiumPath(t)
	dir := t.TempDir()
	probed := filepath.Join(dir, "probed.html")
	page := strings.Replace(render(t, synthDB(t)), "</body>", probe+"\n</body>", 1)
	if err := os.WriteFile(probed, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	// One launch both lays out (the probe, in the dumped DOM) and shoots; a
	// page taller than the window is shot again at its full height.
	const width, height = 1200, 12000
	shot := filepath.Join(saveDir(t), "report.png")
	res := runProbe(t, bin, dir, probed, width, height, shot)
	if res.Height > height {
		res = runProbe(t, bin, dir, probed, width, res.Height, shot)
	}
	if len(res.Figures) != len(figureIDs()) {
		t.Fatalf("browser saw %d figures, want %d", len(res.Figures), len(figureIDs()))
	}
	img := decodePNG(t, shot)
	for _, f := range res.Figures {
		if f.NoData || f.Marks == 0 || f.Drawn == 0 { // a bar of value 0 has no area
			t.Errorf("figure %s: %d of %d marks drawn with area (nodata=%v)", f.ID, f.Drawn, f.Marks, f.NoData)
			continue
		}
		if len(f.Overlaps) > 0 {
			t.Errorf("figure %s: overlapping labels %q", f.ID, f.Overlaps)
		}
		if len(f.Outside) > 0 {
			t.Errorf("figure %s: outside its box: %q", f.ID, f.Outside)
		}
		if f.Texts < 4 {
			t.Errorf("figure %s: %d labels (title, ticks, categories expected)", f.ID, f.Texts)
		}
		if n := colouredPixels(img, f.X, f.Y, f.W, f.H); n < 50 {
			t.Errorf("figure %s: only %d coloured pixels in its %.0fx%.0f box of the screenshot", f.ID, n, f.W, f.H)
		}
	}
	t.Logf("screenshot: %s (%dx%d)", shot, img.Bounds().Dx(), img.Bounds().Dy())
}

func runProbe(t *testing.T, bin, dir, page string, width, height int, shot string) probeResult {
	t.Helper()
	out := chromium(t, bin, dir, "--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height),
		"--dump-dom", "--screenshot="+shot, "file://"+page)
	m := regexp.MustCompile(`(?s)<pre id="probe">(.*?)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no probe result in the dumped DOM (%d bytes)", len(out))
	}
	var res probeResult
	text := strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(string(m[1]))
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		t.Fatalf("probe JSON: %v\n%s", err, text)
	}
	return res
}

func chromium(t *testing.T, bin, dir string, args ...string) []byte {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
		"--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}
	cmd := exec.CommandContext(c, bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// saveDir is where the screenshot is kept: $SOLBEHAVE_ARTIFACTS when set,
// else the test's artifact folder (kept with `go test -artifacts`).
func saveDir(t *testing.T) string {
	if d := os.Getenv("SOLBEHAVE_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.ArtifactDir()
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// colouredPixels counts saturated pixels (the palette's, not text or grid
// grey, not the white page) in a box of the screenshot.
func colouredPixels(img image.Image, x, y, w, h float64) int {
	n := 0
	b := img.Bounds()
	for py := int(y); py < int(y+h) && py < b.Max.Y; py++ {
		for px := int(x); px < int(x+w) && px < b.Max.X; px++ {
			r, g, bl, _ := img.At(px, py).RGBA()
			hi, lo := max(r, g, bl)>>8, min(r, g, bl)>>8
			if hi-lo > 40 {
				n++
			}
		}
	}
	return n
}

// A correlation the view leaves NULL (fewer than three models) reads "not
// defined" on the page, not a number or a dash.
func TestUndefinedCorrelationSaysSo(t *testing.T) {
	db := emptyDB(t)
	if _, err := db.ExecContext(ctx, `CREATE OR REPLACE VIEW oracle_agreement AS
		SELECT 'fixed' AS graph_setting, 'paper' AS profile, 2 AS models, NULL::DOUBLE AS spearman_rho, NULL::DOUBLE AS pearson_r,
			NULL::DOUBLE AS spearman_rho_ci_low, NULL::DOUBLE AS spearman_rho_ci_high`); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<table data-table="oracle_agreement">(.*?)</table>`).FindStringSubmatch(render(t, db))
	if m == nil {
		t.Fatal("no oracle_agreement table on the page")
	}
	if n := strings.Count(m[1], ">not defined<"); n != 2 {
		t.Errorf("oracle_agreement: %d cells say not defined, want 2:\n%s", n, m[1])
	}
}

// Two measures were both called "the vulnerability rate": runs with any
// finding (the detection rate) and findings new to a sample (the
// introduced-vulnerability rate). The page names each, and neither bare.
func TestVulnerabilityMeasuresNamedApart(t *testing.T) {
	page := render(t, synthDB(t))
	for _, want := range []string{"Detection rate", `data-table="vuln_detected"`, `data-table="vuln_introduced"`,
		"introduced-vulnerability rate", "detected_rate"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`(?i)(^|[^-])vulnerability rates?\b`).FindString(page); m != "" {
		t.Errorf("the page still says %q, which names neither measure", m)
	}
}

// TestUnwritablePageIsAStorageFailure: when the page cannot be written (here
// its name is taken by a folder, as a full or read-only disk would refuse
// it), the unit's error row says storage, retriable, and the next run
// tries again.
func TestUnwritablePageIsAStorageFailure(t *testing.T) {
	env := reportEnv(t)
	if err := os.MkdirAll(filepath.Join(Path(env.Data), "taken"), 0o755); err != nil {
		t.Fatal(err)
	}
	for run := 1; run <= 2; run++ {
		if c := stagetest.Run(t, env, New()); c.Ran != 1 || c.Failed != 1 {
			t.Fatalf("run %d: want the unit run and failed, got %+v", run, c)
		}
	}
	errs := stagetest.Rows(t, env, schemas.Errors)
	if len(errs) != 1 || errs[0].Class != failure.Storage.String() || !errs[0].Retriable {
		t.Fatalf("want one retriable storage error row, got %+v", errs)
	}
}

// TestFirstRunNamesItself: the page a data folder's first run draws names
// that run and says no earlier run is recorded, not "no data yet" (the run
// records its row only after the page).
func TestFirstRunNamesItself(t *testing.T) {
	html, err := RenderMade(ctx, emptyDB(t), &Made{RunID: "run-1"})
	if err != nil {
		t.Fatal(err)
	}
	_, runs, _ := strings.Cut(string(html), `<section id="runs">`)
	if !strings.Contains(runs, `data-run="run-1"`) || strings.Contains(runs, "no data yet") {
		t.Errorf("the first run's page says:\n%s", runs)
	}
}

// TestPageNamesTheReferenceExtractor: the run's reference extractor (O3's
// fixed graphs), as its parameters record it, is on the page.
func TestPageNamesTheReferenceExtractor(t *testing.T) {
	ri := &pipeline.RunInfo{ID: "run-1", Params: map[string]map[string]string{"o3": {"reference-extractor": "llm:gpt-4o"}}}
	html, err := RenderMade(ctx, emptyDB(t), madeBy(ri))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `data-param="reference-extractor">llm:gpt-4o</code>`) {
		t.Error("the page does not name the reference extractor")
	}
}

// A rate and its interval columns render as one cell, "x% [lo%–hi%]", and
// paper_claims' ci_low / ci_high join run_value; a missing interval adds nothing.
func TestIntervalsShareTheValuesCell(t *testing.T) {
	db := emptyDB(t)
	tb, err := queryTable(ctx, db, "t", `SELECT 'm' AS model, 0.5::DOUBLE AS hit_rate, 0.25::DOUBLE AS hit_rate_ci_low, 0.75::DOUBLE AS hit_rate_ci_high,
		3.7::DOUBLE AS run_value, 3.1::DOUBLE AS ci_low, 4.2::DOUBLE AS ci_high, NULL::DOUBLE AS other_rate, NULL::DOUBLE AS other_rate_ci_low, NULL::DOUBLE AS other_rate_ci_high`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tb.Columns, ","); got != "model,hit_rate,run_value,other_rate" {
		t.Fatalf("columns %s, want the interval columns folded into their values'", got)
	}
	var texts []string
	for _, c := range tb.Rows[0] {
		texts = append(texts, c.Text)
	}
	if got, want := strings.Join(texts, " | "), "m | 50.0% [25.0%–75.0%] | 3.7 [3.1–4.2] | –"; got != want {
		t.Fatalf("row %q, want %q", got, want)
	}
}

// The page has a paper_claims section.
func TestPageHasThePaperClaims(t *testing.T) {
	page := render(t, emptyDB(t))
	if !strings.Contains(page, "paper_claims") {
		t.Fatal("the page has no paper_claims section")
	}
}

// Figure 4(a)'s bars carry their 95% interval (whiskers): over a full
// warehouse every bar, O4's too, has one and holds its value inside it.
func TestFigure4HasIntervals(t *testing.T) {
	db := synthDB(t)
	for _, f := range figures {
		if f.ID != "fig4a-match" && f.ID != "fig4a-divergent" {
			continue
		}
		pts, err := points(ctx, db, f.Query)
		if err != nil {
			t.Fatal(err)
		}
		with := 0
		for _, p := range pts {
			if math.IsNaN(p.lo) || math.IsNaN(p.hi) {
				continue
			}
			with++
			if p.lo > p.value+1e-9 || p.hi < p.value-1e-9 {
				t.Errorf("%s %s/%s: %v outside [%v, %v]", f.ID, p.cat, p.series, p.value, p.lo, p.hi)
			}
		}
		if len(pts) == 0 || with < len(pts) {
			t.Errorf("%s: %d of %d bars have an interval, want every one", f.ID, with, len(pts))
		}
	}
}
