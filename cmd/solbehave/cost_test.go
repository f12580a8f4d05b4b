package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/projection"
)

// `solbehave cost` projects from any run's recorded unit costs: the small
// reference run's units carry CPU, the projection has every stage with an
// interval around it, says its fits rest on too few units, and projects a
// run like the measured one at another size.
func TestCostProjectsFromARunsUnits(t *testing.T) {
	ref := smallReference(t)
	data := filepath.Join(t.TempDir(), "data")
	if err := copyTree(ref.data, data); err != nil {
		t.Fatal(err)
	}
	out, err := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT count(*) FILTER (WHERE cpu_ms > 0) || '/' || count(*) FROM units WHERE stage IN ('verify', 'compile', 'o2')")
	if err != nil {
		t.Fatal(err, out)
	}
	if n := strings.Split(strings.TrimSpace(out), "\n"); n[len(n)-1] == "0/0" || strings.HasPrefix(n[len(n)-1], "0/") {
		t.Fatalf("units with CPU recorded: %s", out)
	}
	// A compile unit compiles its samples one after another on one worker:
	// all but a worker's first compile add to its youth.
	out, err = solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT sum(solc_youth) > 0 FROM units WHERE stage = 'compile'")
	if n := strings.Split(strings.TrimSpace(out), "\n"); err != nil || n[len(n)-1] != "true" {
		t.Fatalf("compile units' youth recorded: %s %v", out, err)
	}
	project := func(args ...string) projection.Projection {
		t.Helper()
		out, err := solbehave(t, append([]string{"cost", "--data", data, "--json", "--resamples", "200"}, args...)...)
		if err != nil {
			t.Fatal(err, out)
		}
		var p projection.Projection
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err, out)
		}
		return p
	}
	p := project()
	if p.Target != projection.Paper.Name || p.Goal == "" || p.Resamples != 200 {
		t.Errorf("default target %q, goal %q, resamples %d", p.Target, p.Goal, p.Resamples)
	}
	for _, stage := range []string{"verify", "compile", "o2", "o1"} {
		iv, h := p.CPUHoursInterval[stage], p.CPUHours[stage]
		if h <= 0 || iv[0] > h || h > iv[1] {
			t.Errorf("%s: %v CPU-hours, interval %v", stage, h, iv)
		}
	}
	if p.TotalInterval[0] > p.TotalCPUHours || p.TotalCPUHours > p.TotalInterval[1] || len(p.TooFew) == 0 {
		t.Errorf("total %v [%v], too few %v", p.TotalCPUHours, p.TotalInterval, p.TooFew)
	}
	// The run's verify workers each served a few candidates; the paper's
	// serve about 75: cost says so.
	if w := p.Warmth(); len(w) == 0 || !strings.HasPrefix(w[0], "verify ") {
		t.Errorf("warmth: %q, want verify's units per worker start", w)
	}
	like := project("--candidates", "40", "--k", "4")
	if !strings.Contains(like.Target, "40 candidates") || like.Goal != "" || like.TotalCPUHours >= p.TotalCPUHours {
		t.Errorf("a run like the measured one: %q, goal %q, %v CPU-hours (the paper's %v)", like.Target, like.Goal, like.TotalCPUHours, p.TotalCPUHours)
	}
}

// TestCostRefusesNumbersOutOfRange: negative counts were silently replaced
// by the measured run's, --resamples 0 by the default, and huge ones grew
// without bound; each is refused naming its flag, before any data is read.
func TestCostRefusesNumbersOutOfRange(t *testing.T) {
	data := t.TempDir()
	for _, c := range [][]string{
		{"--candidates", "-1"}, {"--k", "-3"}, {"--models", "-2"}, {"--cores", "-4"}, {"--cores", "16,0"},
		{"--resamples", "0"}, {"--models", "99999999999"}, {"--candidates", "999999999999999999"},
		{"--resamples", "100000000"}, {"--kept", "-1"}, {"--target-jobs", "-1"},
	} {
		out, err := solbehave(t, append([]string{"cost", "--data", data}, c...)...)
		if err == nil || !strings.Contains(err.Error(), c[0]+" ") {
			t.Errorf("cost %s %s: err %v, want one naming %s; output %s", c[0], c[1], err, c[0], out)
		}
	}
}
