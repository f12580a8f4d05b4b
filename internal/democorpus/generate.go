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
	spec       Spec
	sourceCode string // SourceCode as Etherscan answers it: the flat file, or the standard-JSON input
	code       []byte
	abi        []byte // compact JSON, as Etherscan shows it
	// before is what the deployer deploys just before the contract: its
	// libraries, then the implementation behind a proxy.
	before []predeploy
	// implementationABI is the ABI a proxy's scenario calls it with.
	implementationABI []byte
}

// predeploy is a contract deployed before a demo contract, at a nonce of
// its deployer just below the contract's.
type predeploy struct {
	name  string
	code  []byte
	nonce uint64
	addr  common.Address
}

func compileAll(ctx context.Context, m *solc.Manager, specs []Spec) ([]build, error) {
	var builds []build
	for _, spec := range specs {
		b, err := compileSpec(ctx, m, spec)
		if err != nil {
			return nil, fmt.Errorf("democorpus: compile %s: %w", spec.Name, err)
		}
		builds = append(builds, b)
	}
	return builds, nil
}

func compileSpec(ctx context.Context, m *solc.Manager, spec Spec) (build, error) {
	if spec.MultiFile() {
		return compileMultiFile(ctx, m, spec)
	}
	src, err := spec.Source()
	if err != nil {
		return build{}, err
	}
	code, abiJSON, err := compile(ctx, m, spec, src)
	return build{spec: spec, sourceCode: src, code: code, abi: abiJSON}, err
}

// compileMultiFile builds the contract from the standard-JSON input it is
// recorded with, its libraries linked where its deployer puts them.
func compileMultiFile(ctx context.Context, m *solc.Manager, spec Spec) (build, error) {
	files, _, err := spec.Files()
	if err != nil {
		return build{}, err
	}
	b := build{spec: spec}
	if b.before, err = plannedPredeploys(spec); err != nil {
		return build{}, err
	}
	libraries, err := linkedAt(files, b.before[:len(spec.Libraries)])
	if err != nil {
		return build{}, err
	}
	input, err := spec.standardJSON(files, libraries)
	if err != nil {
		return build{}, err
	}
	out, err := m.Compile(ctx, solc.Input{Compiler: spec.Compiler, StandardJSON: input})
	if err != nil {
		return build{}, err
	}
	if b.code, b.abi, err = contractOf(out, spec.Name); err != nil {
		return build{}, err
	}
	for i, name := range spec.Libraries {
		if b.before[i].code, _, err = contractOf(out, name); err != nil {
			return build{}, err
		}
	}
	if spec.Implementation != "" {
		impl := &b.before[len(b.before)-1]
		impl.code, b.implementationABI, err = compileImplementation(ctx, m, spec)
		if err != nil {
			return build{}, err
		}
	}
	b.sourceCode = etherscanSourceCode(input)
	return b, nil
}

// plannedPredeploys places the libraries, then the implementation, at the
// deployer's nonces just below the contract's.
func plannedPredeploys(spec Spec) ([]predeploy, error) {
	names := append([]string(nil), spec.Libraries...)
	if spec.Implementation != "" {
		names = append(names, spec.Implementation)
	}
	if uint64(len(names)) > spec.DeployNonce {
		return nil, fmt.Errorf("deploy nonce %d leaves no room for %d earlier deployments", spec.DeployNonce, len(names))
	}
	deployer, err := deployerOf(spec.Name)
	if err != nil {
		return nil, err
	}
	out := make([]predeploy, len(names))
	for i, name := range names {
		nonce := spec.DeployNonce - uint64(len(names)-i)
		out[i] = predeploy{name: name, nonce: nonce, addr: crypto.CreateAddress(deployer.Addr, nonce)}
	}
	return out, nil
}

// linkedAt is settings.libraries: each library's file, name and address.
func linkedAt(files map[string]string, libs []predeploy) (map[string]map[string]string, error) {
	if len(libs) == 0 {
		return nil, nil
	}
	names := make([]string, len(libs))
	for i, l := range libs {
		names[i] = l.name
	}
	where, err := libraryFiles(files, names)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, l := range libs {
		if out[where[l.name]] == nil {
			out[where[l.name]] = map[string]string{}
		}
		out[where[l.name]][l.name] = l.addr.Hex()
	}
	return out, nil
}

// compileImplementation builds the contract behind a proxy from its own
// flattened file, with the proxy's compiler and settings.
func compileImplementation(ctx context.Context, m *solc.Manager, proxy Spec) ([]byte, []byte, error) {
	impl := Spec{Name: proxy.Implementation, Compiler: proxy.Compiler, Optimize: proxy.Optimize}
	src, err := impl.Source()
	if err != nil {
		return nil, nil, err
	}
	return compile(ctx, m, impl, src)
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
	calls, err := b.callABI(parsed)
	if err != nil {
		return nil, err
	}
	deployer, err := deployerOf(spec.Name)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, nameHash(spec.Name)))
	users := choose(rng, population, spec.Users)
	s := newSession(e, rng, chain.New(chain.Options{}), calls, deployer, users)
	for _, p := range b.before {
		if err := s.install(spec.StartBlock, p.nonce, p.code); err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	var args []byte
	if spec.args != nil {
		c := deployContext{time: e.timeOf(spec.StartBlock), deployer: deployer, users: users, implementationABI: calls}
		if len(b.before) > 0 {
			c.implementation = b.before[len(b.before)-1].addr
		}
		args, err = parsed.Pack("", spec.args(c)...)
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
	return &Recording{Source: sourceRecord(b, args), Txs: s.txs, Reasons: s.reasons,
		Address: lower(s.address)}, nil
}

// deployContext is what a spec's constructor arguments may depend on.
type deployContext struct {
	time     uint64 // the creation block's timestamp
	deployer account
	users    []account
	// implementation is the last contract deployed before this one (a
	// proxy's implementation), and implementationABI the ABI calls use.
	implementation    common.Address
	implementationABI abi.ABI
}

// callABI is the ABI the scenario calls the contract with: its own, or
// its implementation's behind a proxy.
func (b build) callABI(own abi.ABI) (abi.ABI, error) {
	if b.spec.Implementation == "" {
		return own, nil
	}
	parsed, err := abi.JSON(bytes.NewReader(b.implementationABI))
	if err != nil {
		return abi.ABI{}, fmt.Errorf("ABI of %s: %w", b.spec.Implementation, err)
	}
	return parsed, nil
}

// compile builds a flattened contract with its recorded settings and
// returns its creation code and ABI.
func compile(ctx context.Context, m *solc.Manager, spec Spec, src string) ([]byte, json.RawMessage, error) {
	out, err := m.Compile(ctx, solc.Input{Compiler: spec.Compiler, Sources: map[string]string{spec.Name + ".sol": src},
		Optimize: spec.Optimize, Runs: 200})
	if err != nil {
		return nil, nil, err
	}
	return contractOf(out, spec.Name)
}

// contractOf is a compiled contract's creation code and its ABI as compact
// JSON, as Etherscan shows it.
func contractOf(out *solc.Output, name string) ([]byte, json.RawMessage, error) {
	c, err := out.Contract(name)
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

func sourceRecord(b build, args []byte) SourceRecord {
	spec := b.spec
	opt := "0"
	if spec.Optimize {
		opt = "1"
	}
	evm := "Default"
	if spec.EVMVersion != "" {
		evm = spec.EVMVersion
	}
	rec := SourceRecord{SourceCode: b.sourceCode, ABI: string(b.abi), ContractName: spec.Name,
		CompilerVersion: spec.Compiler, OptimizationUsed: opt, Runs: "200",
		ConstructorArguments: hex.EncodeToString(args), EVMVersion: evm, LicenseType: spec.License,
		Proxy: "0"}
	if spec.Implementation != "" {
		rec.Proxy, rec.Implementation = "1", lower(b.before[len(b.before)-1].addr)
	}
	return rec
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
