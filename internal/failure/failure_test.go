package failure

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
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
