package sequence

import (
	"fmt"
	"testing"
	"time"
)

func TestExplore(t *testing.T) {
	for _, name := range []string{"TimedCrowdsale"} {
		d := loadDemo(t, name)
		c := d.contract(t)
		start := time.Now()
		res := generate(t, c, smallConfig(1000))
		el := time.Since(start)
		by := map[string][2]int{}
		src := map[string]int{}
		for _, a := range res.Attempts {
			x := by[a.Event]
			x[0]++
			if a.Kept {
				x[1]++
				src[a.ArgsSource]++
			}
			by[a.Event] = x
		}
		fmt.Printf("== %s: %s attempts=%d kept=%d seqs=%d stop=%s owners=%v users=%d src=%v\n", name, el, len(res.Attempts), res.Kept, res.Sequences, res.Stop, res.Ownership, len(res.Users), src)
		fmt.Printf("   %v\n", by)
		if name == "TimedCrowdsale" {
			for _, a := range res.Attempts[:3000] { if a.Event != "buyTokensSuccess" && a.Event != "receiveSuccess" && a.Event != "extendClosingTimeSuccess" { continue }
				fmt.Printf("   %d/%d/%d t=%d %s %s %s %s kept=%v %s %s\n", a.Seq, a.Step, a.Try, a.Call.Block.Time, a.Event, a.Priority, a.ArgsSource, a.Args, a.Kept, a.Reason, a.After)
			}
		}
	}
}
