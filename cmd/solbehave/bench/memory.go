package bench

import (
	"os"
	"runtime"
	"strings"
	"syscall"
)

// memPoint is the memory the bench process had used by some point.
type memPoint struct {
	MaxRSS  int64  // getrusage: peak resident set of this process, bytes
	HeapSys uint64 // runtime.MemStats.HeapSys: heap obtained from the OS now
	Sys     uint64 // runtime.MemStats.Sys: all memory obtained from the OS now
}

func sampleMemory() memPoint {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p := memPoint{HeapSys: ms.HeapSys, Sys: ms.Sys}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		p.MaxRSS = ru.Maxrss * 1024 // Linux reports KiB
	}
	return p
}

// loadAverage is the first three fields of /proc/loadavg ("" elsewhere): a
// loaded machine explains wall-clock figures that CPU time does not share.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
