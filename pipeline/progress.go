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
	stop    chan struct{} // ends the heartbeat
}

// progressEvery is how often the log says how a stage is going, also while
// no unit finishes (a one-unit stage would otherwise say nothing until done).
var progressEvery = 5 * time.Second

// NewProgress starts the display of a stage's progress over total units.
func NewProgress(env *Env, stage string, total int, wantBar bool) *Progress {
	p := &Progress{env: env, stage: stage, total: total, start: time.Now(), lastLog: time.Now()}
	if wantBar && total > 0 && term.IsTerminal(int(os.Stderr.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetDescription(stage),
			progressbar.OptionSetWriter(os.Stderr), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("units"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	if p.bar == nil && total > 0 {
		env.Log.Info("stage started", "stage", stage, "units", total)
		p.stop = make(chan struct{})
		go p.heartbeat()
	}
	return p
}

// heartbeat logs the progress line when none was logged for progressEvery.
func (p *Progress) heartbeat() {
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			if time.Since(p.lastLog) >= progressEvery && p.count < p.total {
				p.log("")
			}
			p.mu.Unlock()
		}
	}
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
	if failed || time.Since(p.lastLog) > progressEvery || p.count == p.total {
		p.log(unit)
	}
}

// log writes one progress line (p.mu held). The rate counts at least one
// second of elapsed time: a first unit done in microseconds (a cache hit)
// would otherwise claim tens of thousands of units per second.
func (p *Progress) log(unit string) {
	elapsed := time.Since(p.start)
	rate := float64(p.count) / max(elapsed.Seconds(), 1)
	args := []any{"stage", p.stage, "done", p.count, "total", p.total, "elapsed", elapsed.Round(time.Second).String()}
	if p.count > 0 {
		eta := time.Duration(float64(p.total-p.count) / rate * float64(time.Second))
		args = append(args, "units_per_s", float64(int(rate*100))/100, "eta", eta.Round(time.Second).String())
	}
	if unit != "" {
		args = append(args, "last", unit)
	}
	p.env.Log.Info("progress", args...)
	p.lastLog = time.Now()
}

// Done ends the display.
func (p *Progress) Done() {
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
}
