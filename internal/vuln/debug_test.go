package vuln

import (
	"context"
	"fmt"
	"testing"
)

func TestDebugAll(t *testing.T) {
	for _, p := range pairs {
		for _, side := range [][2]string{{p.vulnFile, p.vulnName}, {p.fixedFile, p.fixedName}} {
			target := deployTestdata(t, side[0], side[1])
			counts := map[Class]int{}
			var cov float64
			for seed := int64(1); seed <= 10; seed++ {
				r, _ := Run(context.Background(), target, testConfig(seed))
				for _, f := range r.Findings {
					counts[f.Class]++
				}
				cov += r.InstructionCoverage() / 10
			}
			fmt.Printf("%-18s cov=%.2f %v\n", side[1], cov, counts)
		}
	}
}
