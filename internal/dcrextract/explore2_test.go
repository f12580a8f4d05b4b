package dcrextract

import (
	"fmt"
	"testing"
)

func TestExplore2(t *testing.T) {
	d := loadDemo(t, "MultiSigWallet")
	in := FromRecord(d.rec, d.out)
	m, err := newModel(in.Output, in.Sources, in.Contract)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range m.vars {
		fmt.Printf("var %s init=%q ctor=%q sender=%v\n", v.name, v.initText, v.ctorLiteral, v.ctorKeyedBySender)
	}
	for _, e := range m.entries {
		s := m.summarize(e)
		fmt.Println("entry", e.label(), "fail", s.failBranch, "sends", s.sendsBalance)
		for _, c := range s.clauses {
			fmt.Printf("   clause kind=%d role=%q neg=%v %s reads=%v gate=%+v\n", c.kind, c.role, c.negated, m.text(c.expr), c.reads, c.gate)
		}
		for _, w := range s.writes {
			fmt.Printf("   write %v kind=%d whole=%v seq=%d\n", w.key, w.kind, w.whole, w.seq)
		}
	}
}
