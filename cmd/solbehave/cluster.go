package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// proc is a child process of a solbehave binary whose output is kept, for
// the Temporal test and `bench --temporal`: a dev server or a worker.
type proc struct {
	cmd *exec.Cmd

	mu    sync.Mutex
	buf   bytes.Buffer
	waits []lineWait
}

type lineWait struct {
	substr string
	ch     chan string
}

// startProc starts bin with args and extra environment, reading its output.
func startProc(bin string, env []string, args ...string) (*proc, error) {
	p := &proc{cmd: exec.Command(bin, args...)}
	p.cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = pw, pw
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.cmd.Wait(); pw.Close() }()
	go p.read(pr)
	return p, nil
}

func (p *proc) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		p.mu.Lock()
		p.buf.WriteString(line + "\n")
		kept := p.waits[:0]
		for _, w := range p.waits {
			if strings.Contains(line, w.substr) {
				w.ch <- line
				close(w.ch)
			} else {
				kept = append(kept, w)
			}
		}
		p.waits = kept
		p.mu.Unlock()
	}
	p.mu.Lock()
	for _, w := range p.waits {
		close(w.ch) // the process ended without the line
	}
	p.waits = nil
	p.mu.Unlock()
}

// next yields the next output line containing substr (closed empty if the
// process ends first).
func (p *proc) next(substr string) <-chan string {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := make(chan string, 1)
	p.waits = append(p.waits, lineWait{substr, ch})
	return ch
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

func (p *proc) stop() { p.cmd.Process.Kill() }

// startDevServer starts `bin temporal dev-server` on free ports and waits
// for its ready line; the first use builds the server (minutes, then cached).
func startDevServer(bin string, limit time.Duration) (*proc, string, error) {
	port, err := freePortBlock()
	if err != nil {
		return nil, "", err
	}
	p, err := startProc(bin, nil, "temporal", "dev-server", "--port", strconv.Itoa(port))
	if err != nil {
		return nil, "", err
	}
	ready := p.next("ready ")
	select {
	case line, ok := <-ready:
		if ok {
			return p, strings.TrimPrefix(line, "ready "), nil
		}
		return nil, "", fmt.Errorf("dev server exited:\n%s", p.output())
	case <-time.After(limit):
		p.stop()
		return nil, "", fmt.Errorf("dev server not ready after %s:\n%s", limit, p.output())
	}
}

// startWorker starts `bin worker` on a task queue.
func startWorker(bin, addr, queue string, env []string, args ...string) (*proc, error) {
	return startProc(bin, env, append([]string{"worker", "--temporal", addr, "--task-queue", queue}, args...)...)
}

// freePortBlock finds a port p with p..p+3 and p+100..p+103 free: the dev
// server's four services and their membership ports.
func freePortBlock() (int, error) {
	for try := 0; try < 50; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if p+103 < 65536 && portsFree(p, 4) && portsFree(p+100, 4) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free block of ports for the dev server")
}

func portsFree(from, n int) bool {
	for p := from; p < from+n; p++ {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}
