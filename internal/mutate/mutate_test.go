package mutate_test

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/democorpus"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

type demo struct {
	name, compiler, src string
	fns                 []solast.Function
	opts                mutate.Options
}

var (
	demoOnce sync.Once
	demos    []demo
	demoErr  error
	mgr      *solc.Manager
)

// loadDemos compiles each demo contract once and reads its functions.
func loadDemos(t *testing.T) []demo {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: solc cannot run")
	}
	demoOnce.Do(func() {
		mgr = solc.NewManager(solc.Options{})
		for _, spec := range democorpus.Specs() {
			if spec.MultiFile() {
				continue // these fixtures read one flattened file
			}
			src, err := spec.Source()
			if err != nil {
				demoErr = err
				return
			}
			out, err := compileSrc(spec.Compiler, spec.Name, src)
			if err != nil {
				demoErr = err
				return
			}
			root, err := solast.Parse(out.Sources[spec.Name+".sol"].AST)
			if err != nil {
				demoErr = err
				return
			}
			d := demo{name: spec.Name, compiler: spec.Compiler, src: src,
				opts: mutate.Options{Checked: strings.Contains(spec.Compiler, "0.8."), Modifiers: mutate.ModifierNames(root)}}
			for _, c := range solast.Contracts(root) {
				if c.Name == spec.Name {
					d.fns = solast.Functions(c.Node)
				}
			}
			demos = append(demos, d)
		}
	})
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return demos
}

func compileSrc(compiler, name, src string) (*solc.Output, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return mgr.Compile(ctx, solc.Input{Compiler: compiler, Sources: map[string]string{name + ".sol": src}})
}

func applySite(src string, s mutate.Site) string { return src[:s.Start] + s.Text + src[s.End:] }

// TestEveryOperatorCompilesOnTheDemoCorpus: for each operator, some site in
// the demo corpus yields a mutant that compiles (and differs from the original).
func TestEveryOperatorCompilesOnTheDemoCorpus(t *testing.T) {
	ds := loadDemos(t)
	for _, op := range mutate.Operators() {
		t.Run(op, func(t *testing.T) {
			tried := 0
			for _, d := range ds {
				for _, fn := range d.fns {
					for _, s := range mutate.Sites(d.src, fn, d.opts) {
						if s.Operator != op || tried >= 4 {
							continue
						}
						tried++
						mutant := applySite(d.src, s)
						if mutant == d.src || s.Detail == "" {
							t.Fatalf("site %+v changes nothing or says nothing", s)
						}
						if _, err := compileSrc(d.compiler, d.name, mutant); err == nil {
							return
						} else {
							t.Logf("%s %s: %s does not compile: %v", d.name, fn.Name, s.Detail, err)
						}
					}
				}
			}
			t.Fatalf("no compiling %s mutant among %d tried", op, tried)
		})
	}
}

func TestSitesAreInsideTheFunction(t *testing.T) {
	for _, d := range loadDemos(t) {
		for _, fn := range d.fns {
			for _, s := range mutate.Sites(d.src, fn, d.opts) {
				lo, hi := fn.BodySrc.Start, fn.BodySrc.End()
				if s.Header {
					lo, hi = fn.Src.Start, fn.BodySrc.Start
				}
				if s.Start < lo || s.End > hi {
					t.Errorf("%s.%s: %s site [%d,%d) outside [%d,%d)", d.name, fn.Name, s.Operator, s.Start, s.End, lo, hi)
				}
				if s.Operator == mutate.Unchecked && !d.opts.Checked {
					t.Errorf("%s: unchecked offered below 0.8", d.name)
				}
			}
		}
	}
}

func TestPickIsReproducibleAndRateBound(t *testing.T) {
	d := loadDemos(t)[0]
	var sites [][]mutate.Site
	for _, fn := range d.fns {
		sites = append(sites, mutate.Sites(d.src, fn, d.opts))
	}
	draw := func(seed int64, rate float64) []string {
		var out []string
		for i, ss := range sites {
			s, ok := mutate.Pick(seed, i, ss, rate)
			out = append(out, map[bool]string{true: s.Operator + s.Detail, false: "-"}[ok])
		}
		return out
	}
	a, b := strings.Join(draw(7, 0.5), "|"), strings.Join(draw(7, 0.5), "|")
	if a != b {
		t.Fatal("the same seed drew different mutations")
	}
	differs := false
	for seed := int64(8); seed < 20 && !differs; seed++ {
		differs = strings.Join(draw(seed, 0.5), "|") != a
	}
	if !differs {
		t.Fatal("twelve other seeds all drew the same mutations")
	}
	for _, x := range draw(3, 0) {
		if x != "-" {
			t.Fatal("rate 0 mutated a function")
		}
	}
	for i, x := range draw(3, 1) {
		if x == "-" && len(sites[i]) > 0 {
			t.Fatal("rate 1 left a function with sites unmutated")
		}
	}
}

func TestSitesOnASmallFunction(t *testing.T) {
	src := `pragma solidity 0.8.19;
contract C {
    uint public x;
    address owner;
    modifier onlyOwner() { require(msg.sender == owner); _; }
    function f(uint a) public onlyOwner returns (bool) {
        require(a > 2, "small");
        x += a * 2;
        return !(x == 0) && true;
    }
}
`
	mgr = solc.NewManager(solc.Options{})
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	out, err := compileSrc("0.8.19", "C", src)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := solast.Parse(out.Sources["C.sol"].AST)
	var fn solast.Function
	for _, c := range solast.Contracts(root) {
		fn = solast.Functions(c.Node)[0]
	}
	got := map[string][]string{}
	for _, s := range mutate.Sites(src, fn, mutate.Options{Checked: true, Modifiers: mutate.ModifierNames(root)}) {
		got[s.Operator] = append(got[s.Operator], src[s.Start:s.End]+"=>"+s.Text)
	}
	want := map[string]string{
		mutate.DropRequire:     `require(a > 2, "small");=>`,
		mutate.Relational:      ">=><=|===>!=",
		mutate.Boundary:        ">=>>=",
		mutate.Arithmetic:      "+==>-=|*=>/",
		mutate.Logical:         "!=>|&&=>||",
		mutate.Constant:        "2=>3|2=>1|2=>3|2=>1|0=>1",
		mutate.DeleteStatement: "x += a * 2;=>",
		mutate.RemoveModifier:  "onlyOwner=>",
		mutate.ReturnValue:     "!(x == 0) && true=>!(!(x == 0) && true)",
		mutate.Unchecked:       "x += a * 2;=>unchecked { x += a * 2; }",
	}
	for op, w := range want {
		if g := strings.Join(got[op], "|"); g != w {
			t.Errorf("%s: got %q, want %q", op, g, w)
		}
	}
	if len(got[mutate.SenderOrigin]) != 0 {
		t.Errorf("sender_origin sites in a function without msg.sender: %v", got[mutate.SenderOrigin])
	}
}
