package failure

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/walltime"
)

func TestParseRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range All() {
		s := c.String()
		if strings.HasPrefix(s, "Class(") || seen[s] {
			t.Errorf("class %d has no name of its own: %q", c, s)
		}
		seen[s] = true
		if got, ok := Parse(s); !ok || got != c {
			t.Errorf("Parse(%q) = %v, %v", s, got, ok)
		}
	}
	if _, ok := Parse("no-such-class"); ok {
		t.Error("an unknown name parsed")
	}
}

// The errors dataset's documentation lists every class a row can carry.
func TestEveryClassIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../schemas/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range All() {
		if !strings.Contains(string(doc), "`"+c.String()+"`") {
			t.Errorf("schemas/errors.md does not list class `%s`", c)
		}
	}
}

type transient struct{}

func (transient) Error() string   { return "try later" }
func (transient) Retriable() bool { return true }

func TestOf(t *testing.T) {
	wrapped := fmt.Errorf("unit: %w", New(Timeout, true, errors.New("slow")))
	cases := []struct {
		err       error
		class     Class
		retriable bool
	}{
		{wrapped, Timeout, true},
		{New(Compile, false, errors.New("bad")), Compile, false},
		{New(Compile, false, fmt.Errorf("solc: %w", New(Network, true, errors.New("registry unreachable")))), Network, true},
		{fmt.Errorf("llm: %w", transient{}), External, true},
		{errors.New("a bug"), Internal, false},
	}
	for _, c := range cases {
		if got, r := Of(c.err); got != c.class || r != c.retriable {
			t.Errorf("Of(%v) = %s, %v; want %s, %v", c.err, got, r, c.class, c.retriable)
		}
	}
	if New(Input, false, nil) != nil {
		t.Error("New wrapped a nil error")
	}
}

// TestWallClockIsATimeout: a wall-clock limit anywhere in an error makes it
// a retriable timeout, whatever class a stage wrapped it in (a slow
// compiler start inside a compile failure); other errors keep their class.
func TestWallClockIsATimeout(t *testing.T) {
	slow := New(Compile, false, fmt.Errorf("compiling: %w", walltime.Errorf(time.Minute, "solc: loading solc@0.6.10")))
	if c, retriable := Of(slow); c != Timeout || !retriable {
		t.Errorf("class %s retriable %v, want a retriable timeout", c, retriable)
	}
	if c, retriable := Of(New(Compile, false, errors.New("syntax error"))); c != Compile || retriable {
		t.Errorf("a compile error is classed %s (retriable %v)", c, retriable)
	}
}
