package dcrextract

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestExplore(t *testing.T) {
	for _, n := range demoNames {
		d := loadDemo(t, n)
		res, err := Static(FromRecord(d.rec, d.out))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("=====", n)
		for _, e := range res.Graph.Events {
			b, _ := json.Marshal(e.Args)
			fmt.Printf("  %-28s role=%-5s once=%-5v incl=%-5v value=%q args=%s %v\n", e.ID, e.Role, e.Once, e.Included, e.Value, b, res.Events[e.ID])
		}
		for i, r := range res.Graph.Relations {
			fmt.Printf("  %-9s %s -> %s  [%s] guard=%q consts=%v\n", r.Type, r.Source, r.Target, res.Relations[i].Rule, r.Guard, r.Constants)
		}
	}
}
