package sharedflag

import (
	"slices"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestEveryBindingReceivesTheValue(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	var a, b string
	var n1, n2 int
	var d1, d2 time.Duration
	var l1, l2 []string
	String(fs, &a, "url", "u0", "")
	String(fs, &b, "url", "ignored", "")
	Int(fs, &n1, "n", 3, "")
	Int(fs, &n2, "n", 9, "")
	Duration(fs, &d1, "d", time.Second, "")
	Duration(fs, &d2, "d", time.Hour, "")
	StringList(fs, &l1, "g", []string{"a"}, "")
	StringList(fs, &l2, "g", nil, "")
	if a != "u0" || b != "u0" || n2 != 3 || d2 != time.Second || !slices.Equal(l2, []string{"a"}) {
		t.Fatalf("defaults not shared: %q %q %d %v %v", a, b, n2, d2, l2)
	}
	if err := fs.Parse([]string{"--url", "http://x", "--n", "7", "--d", "2m", "--g", "p,q", "--g", "r"}); err != nil {
		t.Fatal(err)
	}
	if a != "http://x" || b != "http://x" || n1 != 7 || n2 != 7 || d1 != 2*time.Minute || d2 != 2*time.Minute {
		t.Fatalf("values: %q %q %d %d %v %v", a, b, n1, n2, d1, d2)
	}
	if want := []string{"p", "q", "r"}; !slices.Equal(l1, want) || !slices.Equal(l2, want) {
		t.Fatalf("lists: %v %v", l1, l2)
	}
	if err := fs.Parse([]string{"--n", "x"}); err == nil {
		t.Fatal("a bad int was accepted")
	}
}

func TestTypeClashPanics(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	var s string
	var n int
	String(fs, &s, "k", "", "")
	defer func() {
		if recover() == nil {
			t.Fatal("binding a string flag as an int did not panic")
		}
	}()
	Int(fs, &n, "k", 0, "")
}
