package pipeline

import (
	"bytes"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A unit done in microseconds does not make a rate of thousands per second,
// and a stage whose one unit runs long says so while it runs.
func TestProgressFirstRateAndHeartbeat(t *testing.T) {
	old := progressEvery
	progressEvery = 50 * time.Millisecond
	t.Cleanup(func() { progressEvery = old })
	var buf lockedBuffer
	env := &Env{Log: slog.New(slog.NewTextHandler(&buf, nil))}

	p := NewProgress(env, "fast", 3, false)
	p.Step("a", true) // a failure logs at once
	p.Done()
	m := regexp.MustCompile(`units_per_s=([0-9.]+)`).FindStringSubmatch(buf.String())
	if m == nil {
		t.Fatalf("no rate logged:\n%s", buf.String())
	}
	if r, _ := strconv.ParseFloat(m[1], 64); r > 1 {
		t.Errorf("first rate %v units/s after one instant unit, want at most 1:\n%s", r, buf.String())
	}

	buf = lockedBuffer{}
	env.Log = slog.New(slog.NewTextHandler(&buf, nil))
	p = NewProgress(env, "slow", 1, false)
	time.Sleep(180 * time.Millisecond)
	p.Step("only", false)
	p.Done()
	out := buf.String()
	if !strings.Contains(out, `msg="stage started" stage=slow units=1`) {
		t.Errorf("no start line:\n%s", out)
	}
	if n := strings.Count(out, "msg=progress stage=slow done=0"); n < 2 {
		t.Errorf("%d heartbeat lines while the one unit ran, want several:\n%s", n, out)
	}
}
