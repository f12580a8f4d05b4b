package cpuclock

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's times.
const clockTicks = 100

// Tree is the user and system time of this process and of every process
// it started: the ones still running (the persistent solc workers, read from
// /proc) and the ones already waited for (RUSAGE_CHILDREN). A unit's cost is
// the difference of two readings around it, so compiles done in a Node
// worker count as much as the Go code's own work. Where /proc cannot be read,
// living children are left out.
//
// A child waited for while /proc is read moves from one count to the other:
// counted in neither, or in both, it would make a reading fall or jump, and
// charge a unit a negative share. So the waited-for count is read on both
// sides of the /proc scan, and the scan redone until no wait fell in it.
func Tree() time.Duration {
	own := Process()
	waited := childrenCPU()
	var living time.Duration
	for range 10 {
		living = descendantsCPU(os.Getpid())
		after := childrenCPU()
		if after == waited {
			break
		}
		waited = after
	}
	return own + waited + living
}

// childrenCPU is the user and system time of the children waited for.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procStat is what Tree reads of one /proc/<pid>/stat.
type procStat struct {
	ppid       int
	cpu        time.Duration // utime + stime
	childrenCP time.Duration // cutime + cstime: its own waited-for children
}

// descendantsCPU sums the CPU of the living descendants of pid, with what
// each of them has waited for.
func descendantsCPU(pid int) time.Duration {
	stats := readProcStats()
	children := map[int][]int{}
	for p, s := range stats {
		children[s.ppid] = append(children[s.ppid], p)
	}
	var total time.Duration
	queue := children[pid]
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		total += stats[p].cpu + stats[p].childrenCP
		queue = append(queue, children[p]...)
	}
	return total
}

func readProcStats() map[int]procStat {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	out := make(map[int]procStat, len(paths))
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // exited meanwhile
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if s, ok := parseProcStat(b); ok && err == nil {
			out[pid] = s
		}
	}
	return out
}

// parseProcStat reads fields 4 (ppid) and 14-17 (utime, stime, cutime,
// cstime) of a stat line; the command name (field 2) may hold spaces and
// parentheses, so fields are counted after its last ')'.
func parseProcStat(b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:]) // f[0] is field 3 (state)
	if len(f) < 15 {
		return procStat{}, false
	}
	n := func(k int) int64 { v, _ := strconv.ParseInt(string(f[k-3]), 10, 64); return v }
	tick := time.Second / clockTicks
	return procStat{
		ppid:       int(n(4)),
		cpu:        time.Duration(n(14)+n(15)) * tick,
		childrenCP: time.Duration(n(16)+n(17)) * tick,
	}, true
}

// Process is the user and system time this process has used.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
