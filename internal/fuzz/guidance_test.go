package fuzz

import (
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
)

// maze nests narrow conditions: random arguments essentially never reach
// its inner return (the only place the two versions differ), arguments
// grown from inputs that reached the outer branches do.
const maze = `pragma solidity 0.8.19;
contract Maze {
    uint256 public walks;
    function walk(uint64 a, uint64 b) public returns (uint256) {
        walks += 1;
        if (a > 5000 && a < 5100) {
            if (b > a && b - a < 20) {
                if ((a + b) % 3 == 1) {
                    return INNER;
                }
                return 3;
            }
            return 4;
        }
        return 5;
    }
}`

// deployMaze compiles the maze with inner as the inner return value and
// deploys it on a fresh chain.
func deployMaze(t *testing.T, inner string) (Target, abi.Method, []byte) {
	t.Helper()
	src := strings.Replace(maze, "INNER", inner, 1)
	out := deploytest.Compile(t, solc.Input{Compiler: "0.8.19", Sources: map[string]string{"Maze.sol": src}})
	c, err := out.Contract("Maze")
	if err != nil {
		t.Fatal(err)
	}
	code, err := c.CreationCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := chain.New(chain.Options{})
	res, err := h.Deploy(mazeDeployer, code, nil, mazeBlock)
	if err != nil || !res.Success {
		t.Fatalf("deploy: %v %+v", err, res)
	}
	parsed, err := abi.JSON(strings.NewReader(string(c.ABI)))
	if err != nil {
		t.Fatal(err)
	}
	return Target{Chain: h, Address: res.ContractAddress}, parsed.Methods["walk"], h.Code(res.ContractAddress)
}

var (
	mazeDeployer = common.HexToAddress("0x00000000000000000000000000000000000d3b10")
	mazeBlock    = chain.Block{Number: 16_700_000, Time: 1_677_000_000}
)

// TestCoverageGuidanceFindsNestedBranch: with the same seed and budget,
// the guided campaign reaches the diverging return and the unguided one
// (fresh arguments every call) does not.
func TestCoverageGuidanceFindsNestedBranch(t *testing.T) {
	ref, m, refCode := deployMaze(t, "1")
	sample, _, sampleCode := deployMaze(t, "2")
	cfg := Config{Seed: 42, Sender: mazeDeployer, Block: mazeBlock,
		Dictionary: NewDictionaryFrom(Seeds{Sources: []string{maze}, Code: [][]byte{refCode, sampleCode}})}
	guided, err := Differential(context.Background(), ref, sample, m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Unguided = true
	unguided, err := Differential(context.Background(), ref, sample, m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("guided: equivalent=%v after %d calls, corpus %d, coverage %+v", guided.Equivalent, guided.Calls, guided.Corpus, guided.CoverageRef)
	t.Logf("unguided: equivalent=%v after %d calls", unguided.Equivalent, unguided.Calls)
	if guided.Equivalent {
		t.Error("the guided campaign missed the inner branch")
	}
	if !unguided.Equivalent {
		t.Error("the unguided campaign found the inner branch: the maze is too easy to show guidance")
	}
	if cx := guided.Counterexample; cx != nil {
		last := cx.Steps[len(cx.Steps)-1]
		t.Logf("shrunk: walk%v after %d replays", last.Args.Strings(m.Inputs), cx.ShrinkRuns)
	}
}
