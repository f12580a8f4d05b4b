package pipeline

import (
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress shows done/total, rate and ETA: a bar on a terminal, plain log
// lines otherwise (at most one every few seconds, and one per failure).
type Progress struct {
	env   *Env
	stage string
	total int
	bar   *progressbar.ProgressBar

	mu      sync.Mutex
	count   int
	start   time.Time
	lastLog time.Time
}

// NewProgress starts the display of a stage's progress over total units.
func NewProgress(env *Env, stage string, total int, wantBar bool) *Progress {
	p := &Progress{env: env, stage: stage, total: total, start: time.Now(), lastLog: time.Now()}
	if wantBar && total > 0 && term.IsTerminal(int(os.Stderr.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetDescription(stage),
			progressbar.OptionSetWriter(os.Stderr), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("units"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	return p
}

// Step counts one finished unit.
func (p *Progress) Step(unit string, failed bool) { p.Advance(1, unit, failed) }

// Advance counts n finished units, the last of them unit (an engine that
// learns of completions in batches, such as a workflow query, reports them so).
func (p *Progress) Advance(n int, unit string, failed bool) {
	if n <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count += n
	if p.bar != nil {
		p.bar.Add(n)
		return
	}
	if failed || time.Since(p.lastLog) > 5*time.Second || p.count == p.total {
		elapsed := time.Since(p.start)
		rate := float64(p.count) / elapsed.Seconds()
		eta := time.Duration(float64(p.total-p.count)/max(rate, 1e-9)) * time.Second
		p.env.Log.Info("progress", "stage", p.stage, "done", p.count, "total", p.total,
			"units_per_s", float64(int(rate*100))/100, "eta", eta.Round(time.Second).String(), "last", unit)
		p.lastLog = time.Now()
	}
}

// Done ends the display.
func (p *Progress) Done() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
