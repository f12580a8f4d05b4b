package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"
)

// Garbage collection settings for a run, unless GOGC or GOMEMLIMIT say
// otherwise. The EVM allocates per call (stack, memory, journal) and keeps
// little alive, so at Go's default (GOGC=100) O1's campaigns spend a fifth
// of their CPU collecting and stopping for collections (profile of
// `go test ./internal/fuzz -bench Differential`: mallocgc and asyncPreempt).
// A heap allowed to grow to 5x the live one collects a quarter as often; the
// soft limit keeps the peak bounded, collecting harder only near it.
const (
	gcPercent   = 400
	memoryLimit = 3 << 30 // bytes
)

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// profileCPU writes a Go CPU profile of the whole invocation to the file
// SOLBEHAVE_CPUPROFILE names (`go tool pprof bin/solbehave FILE`); the
// returned stop ends it. The solc workers are Node processes: their time is
// in the units' cpu_ms, not here.
func profileCPU() (stop func()) {
	path := os.Getenv("SOLBEHAVE_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "solbehave: SOLBEHAVE_CPUPROFILE:", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
