package vuln

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/solbehave/solbehave/internal/solc"
)

func sbTarget(t *testing.T, path, ver, name string) Target {
	src, _ := os.ReadFile("/work/shared/vulns/smartbugs-curated/dataset/" + path)
	out, err := compiler().Compile(context.Background(), solc.Input{Compiler: ver, Sources: map[string]string{"a.sol": string(src)}})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := out.Contract(name)
	target, err := DeployStandalone(out, c, BlockFor(ver))
	if err != nil {
		t.Fatal(err)
	}
	return target
}

func TestDebugSB(t *testing.T) {
	for _, f := range [][3]string{
		{"reentrancy/simple_dao.sol", "0.4.26", "SimpleDAO"},
		{"reentrancy/etherstore.sol", "0.4.10", "EtherStore"},
		{"reentrancy/0x7a8721a9d64c74da899424c1b52acbf58ddc9782.sol", "0.4.19", "PrivateDeposit"},
		{"time_manipulation/roulette.sol", "0.4.25", "Roulette"},
		{"arithmetic/BECToken.sol", "0.4.16", "BecToken"},
	} {
		target := sbTarget(t, f[0], f[1], f[2])
		counts := map[Class]int{}
		seeds := 0
		for seed := int64(1); seed <= 8; seed++ {
			c := DefaultConfig()
			c.Seed = seed
			fmt.Sscan(os.Getenv("POP"), &c.Population)
			fmt.Sscan(os.Getenv("GEN"), &c.Generations)
			fmt.Sscan(os.Getenv("PM"), &c.MutationRate)
			r, _ := Run(context.Background(), target, c)
			seeds += r.Seeds
			for _, f := range r.Findings {
				counts[f.Class]++
			}
		}
		fmt.Println(f[2], counts, seeds/8)
	}
}
