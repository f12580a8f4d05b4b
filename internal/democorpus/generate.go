package democorpus

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/solc"
)

// DefaultSeed is the seed the committed corpus was generated with.
const DefaultSeed = 42

// populationSize is how many user accounts a seed derives.
const populationSize = 64

// Address is where a contract is deployed: CREATE from its fixed deployer at
// its deploy nonce. It does not depend on the seed.
func (c Spec) Address() (common.Address, error) {
	d, err := deployerOf(c.Name)
	if err != nil {
		return common.Address{}, err
	}
	return crypto.CreateAddress(d.Addr, c.DeployNonce), nil
}

// Generate compiles every demo contract with the real compiler, deploys it on
// a fresh harness and runs its scenario, returning the recordings in corpus
// order. The same seed always gives the same recordings.
func Generate(ctx context.Context, m *solc.Manager, seed uint64) ([]*Recording, error) {
	return generateSpecs(ctx, m, seed, Specs())
}

// GenerateAblation records the size-ablation contracts (AblationSpecs) the
// same way.
func GenerateAblation(ctx context.Context, m *solc.Manager, seed uint64) ([]*Recording, error) {
	return generateSpecs(ctx, m, seed, AblationSpecs())
}

func generateSpecs(ctx context.Context, m *solc.Manager, seed uint64, specs []Spec) ([]*Recording, error) {
	builds, err := compileAll(ctx, m, specs)
	if err != nil {
		return nil, err
	}
	return record(builds, seed)
}

// build is a compiled demo contract.
type build struct {
	spec   Spec
	source string
	code   []byte
	abi    []byte // compact JSON, as Etherscan shows it
}

func compileAll(ctx context.Context, m *solc.Manager, specs []Spec) ([]build, error) {
	var builds []build
	for _, spec := range specs {
		src, err := spec.Source()
		if err != nil {
			return nil, err
		}
		code, abiJSON, err := compile(ctx, m, spec, src)
		if err != nil {
			return nil, fmt.Errorf("democorpus: compile %s: %w", spec.Name, err)
		}
		builds = append(builds, build{spec: spec, source: src, code: code, abi: abiJSON})
	}
	return builds, nil
}

// record runs every scenario with the seed's population.
func record(builds []build, seed uint64) ([]*Recording, error) {
	users, err := population(seed, populationSize)
	if err != nil {
		return nil, err
	}
	recs := make([]*Recording, 0, len(builds))
	for _, b := range builds {
		rec, err := recordOne(b, seed, users)
		if err != nil {
			return nil, fmt.Errorf("democorpus: %s: %w", b.spec.Name, err)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

func recordOne(b build, seed uint64, population []account) (*Recording, error) {
	spec := b.spec
	e, ok := eraOf(spec.Compiler)
	if !ok {
		return nil, fmt.Errorf("no era for compiler %s", spec.Compiler)
	}
	parsed, err := abi.JSON(bytes.NewReader(b.abi))
	if err != nil {
		return nil, fmt.Errorf("ABI: %w", err)
	}
	deployer, err := deployerOf(spec.Name)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, nameHash(spec.Name)))
	users := choose(rng, population, spec.Users)
	s := newSession(e, rng, chain.New(chain.Options{}), parsed, deployer, users)

	var args []byte
	if spec.args != nil {
		args, err = parsed.Pack("", spec.args(e.timeOf(spec.StartBlock), deployer, users)...)
		if err != nil {
			return nil, fmt.Errorf("constructor arguments: %w", err)
		}
	}
	if err := s.deploy(spec.StartBlock, spec.DeployNonce, b.code, args); err != nil {
		return nil, err
	}
	spec.scenario(s)
	if s.err != nil {
		return nil, s.err
	}
	if err := checkDates(e, s.txs); err != nil {
		return nil, err
	}
	return &Recording{Source: sourceRecord(spec, b.source, b.abi, args), Txs: s.txs, Reasons: s.reasons,
		Address: lower(s.address)}, nil
}

// compile builds the spec's contract with its recorded settings and returns
// its creation code and ABI.
func compile(ctx context.Context, m *solc.Manager, spec Spec, src string) ([]byte, json.RawMessage, error) {
	out, err := m.Compile(ctx, solc.Input{Compiler: spec.Compiler, Sources: map[string]string{spec.Name + ".sol": src},
		Optimize: spec.Optimize, Runs: 200})
	if err != nil {
		return nil, nil, err
	}
	c, err := out.Contract(spec.Name)
	if err != nil {
		return nil, nil, err
	}
	code, err := c.CreationCode(nil)
	if err != nil {
		return nil, nil, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, c.ABI); err != nil {
		return nil, nil, fmt.Errorf("ABI: %w", err)
	}
	return code, compact.Bytes(), nil
}

func sourceRecord(spec Spec, src string, abiJSON, args []byte) SourceRecord {
	opt := "0"
	if spec.Optimize {
		opt = "1"
	}
	return SourceRecord{SourceCode: src, ABI: string(abiJSON), ContractName: spec.Name,
		CompilerVersion: spec.Compiler, OptimizationUsed: opt, Runs: "200",
		ConstructorArguments: hex.EncodeToString(args), EVMVersion: "Default", LicenseType: spec.License,
		Proxy: "0"}
}

// checkDates keeps a history inside its era: its block range, and before
// the era's time limit.
func checkDates(e era, txs []TxRecord) error {
	last := txs[len(txs)-1]
	var block, ts uint64
	if _, err := fmt.Sscan(last.BlockNumber, &block); err != nil {
		return err
	}
	if _, err := fmt.Sscan(last.TimeStamp, &ts); err != nil {
		return err
	}
	if block > e.lastBlock {
		return fmt.Errorf("history runs to block %d, past the %s era's %d", block, e.name, e.lastBlock)
	}
	if e.timeLimit != 0 && ts >= e.timeLimit {
		return fmt.Errorf("history runs to timestamp %d, past the %s era's limit %d", ts, e.name, e.timeLimit)
	}
	return nil
}

// choose draws n distinct accounts, in a seed-determined order.
func choose(rng *rand.Rand, from []account, n int) []account {
	n = min(n, len(from))
	out := make([]account, 0, n)
	for _, i := range rng.Perm(len(from))[:n] {
		out = append(out, from[i])
	}
	return out
}

func nameHash(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}
