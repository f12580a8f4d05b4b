package cpuclock

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A unit's CPU must include the solc workers it keeps busy: children that
// are still running count, not only this process's own time.
func TestTreeCPUCountsLivingChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	before := Tree()
	// Burn CPU, then stay alive so the time is only in /proc, not yet in RUSAGE_CHILDREN.
	child := startBurner(t, 400000)
	defer func() { child.Process.Kill(); child.Wait() }()
	childCPU := procCPU(t, child.Process.Pid)
	if childCPU < 50*time.Millisecond {
		t.Skipf("the child burnt only %s", childCPU)
	}
	if got := Tree() - before; got < childCPU {
		t.Fatalf("Tree grew by %s while a living child used %s", got, childCPU)
	}
}

// startBurner starts a shell that counts to loops, says "burnt" and sleeps,
// and returns once it has said so.
func startBurner(t *testing.T, loops int) *exec.Cmd {
	t.Helper()
	child := exec.Command("sh", "-c", "i=0; while [ $i -lt "+strconv.Itoa(loops)+" ]; do i=$((i+1)); done; echo burnt; sleep 30")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, _ := out.Read(buf); !strings.Contains(string(buf[:n]), "burnt") {
		child.Process.Kill()
		child.Wait()
		t.Fatalf("child said %q", buf[:n])
	}
	return child
}

// procCPU reads one process's utime + stime.
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := parseProcStat(b)
	if !ok {
		t.Fatalf("cannot parse %q", b)
	}
	return s.cpu
}

func TestParseProcStatNameWithSpacesAndParens(t *testing.T) {
	line := []byte("4242 (node (worker) 1) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 11 0 900 1000 200")
	s, ok := parseProcStat(line)
	if !ok || s.ppid != 17 || s.cpu != 3*time.Second || s.childrenCP != 100*time.Millisecond {
		t.Fatalf("got %+v, %v; want ppid 17, cpu 3s, children 100ms", s, ok)
	}
}

// A child that is waited for moves its CPU from /proc to RUSAGE_CHILDREN.
// Tree reads both, so a wait that falls between the two reads must not
// make the tree's CPU drop (a unit charged a negative share) or jump.
func TestTreeStaysMonotoneAcrossAWait(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	for round := range 8 {
		child := startBurner(t, 100000)
		waited := make(chan struct{})
		go func() {
			time.Sleep(time.Duration(round) * time.Millisecond)
			child.Process.Kill()
			child.Wait()
			close(waited)
		}()
		last := Tree()
		for done := false; !done; {
			select {
			case <-waited:
				done = true
			default:
			}
			now := Tree()
			// Our own CPU only grows; a drop of more than a tick is the child lost.
			if now < last-10*time.Millisecond {
				t.Fatalf("round %d: the tree's CPU fell from %s to %s while a child was waited for", round, last, now)
			}
			last = now
		}
	}
}
