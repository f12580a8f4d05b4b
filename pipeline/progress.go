package pipeline

import (
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows done/total, rate and ETA: a bar on a terminal, plain log
// lines otherwise (at most one every few seconds, and one per failure).
type progress struct {
	env   *Env
	stage string
	total int
	bar   *progressbar.ProgressBar

	mu      sync.Mutex
	count   int
	start   time.Time
	lastLog time.Time
}

func newProgress(env *Env, stage string, total int, wantBar bool) *progress {
	p := &progress{env: env, stage: stage, total: total, start: time.Now(), lastLog: time.Now()}
	if wantBar && total > 0 && term.IsTerminal(int(os.Stderr.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetDescription(stage),
			progressbar.OptionSetWriter(os.Stderr), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("units"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) step(unit string, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count++
	if p.bar != nil {
		p.bar.Add(1)
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

func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
