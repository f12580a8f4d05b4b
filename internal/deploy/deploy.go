package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/solc"
)

// LibraryDeployer deploys the libraries a contract links against: an address
// no mainnet history sends from, so its nonce never collides.
var LibraryDeployer = common.HexToAddress("0x00000000000000000000000000000000000001b0")

// DeployGas bounds a deployment: creation gas on a fresh chain may differ from
// the recorded one (other fork rules, no warm storage), so the recorded limit
// is not used here.
const DeployGas = 30_000_000

// Deployment is a contract deployed on its own embedded chain.
type Deployment struct {
	Chain      *chain.Harness // the state right after deployment; Fork it before each run
	Address    common.Address
	Deployer   common.Address
	Block      chain.Block
	Contract   *solc.Contract
	ABI        abi.ABI
	Args       []byte
	ArgsSource string
	Libraries  map[string]common.Address
	Result     *chain.Result // the creation's result
	AtRecorded bool          // the contract sits at its recorded mainnet address
}

// Target picks the record's contract from a compile output.
func (r *Record) Target(out *solc.Output) (*solc.Contract, error) {
	return out.Contract(r.Name())
}

// Deploy deploys c (the original or a sample compiled from the record's
// settings) as the record's creation did. args nil means: derive them from
// the record (see ConstructorArgs).
func Deploy(r *Record, out *solc.Output, c *solc.Contract, args []byte, opts chain.Options) (*Deployment, error) {
	parsed, err := abi.JSON(bytes.NewReader(c.ABI))
	if err != nil {
		return nil, fmt.Errorf("ABI of %s: %w", c.Name, err)
	}
	h := chain.New(opts)
	d := &Deployment{Chain: h, Contract: c, ABI: parsed, Block: r.CreationBlock(), Deployer: r.Deployer()}
	d.Libraries, err = Libraries(h, out, c, LibraryDeployer, d.Block)
	if err != nil {
		return nil, err
	}
	if err := placeLinkedLibraries(h, out, r.LinkedLibraries(), d.Block); err != nil {
		return nil, err
	}
	code, err := c.CreationCode(d.Libraries)
	if err != nil {
		return nil, err
	}
	d.Args, d.ArgsSource = args, "given"
	if args == nil {
		if d.Args, d.ArgsSource, err = r.ConstructorArgs(code); err != nil {
			return nil, err
		}
	}
	if r.Creation != nil {
		h.SetNonce(d.Deployer, r.Creation.Nonce)
	}
	res, err := h.Apply(chain.Msg{From: d.Deployer, Data: append(code, d.Args...), Value: r.CreationValue(), Gas: DeployGas, Block: d.Block})
	if err != nil {
		return nil, err
	}
	d.Result, d.Address = res, res.ContractAddress
	if err := h.Created(res); err != nil {
		return d, err
	}
	d.AtRecorded = strings.EqualFold(d.Address.Hex(), r.Entry.Address)
	return d, nil
}

// placeLinkedLibraries puts each library the recorded compiler input
// linked at a fixed address (settings.libraries: the address it had on
// mainnet) at that address, compiled from out: the contract's code calls it
// there, and a fresh chain holds nothing there. A library keeps no state,
// so its runtime code is all it needs.
func placeLinkedLibraries(h *chain.Harness, out *solc.Output, linked map[string]common.Address, b chain.Block) error {
	for _, name := range slices.Sorted(maps.Keys(linked)) {
		if len(h.Code(linked[name])) > 0 {
			continue
		}
		lib, err := out.Contract(name)
		if err != nil {
			return fmt.Errorf("library %s: %w", name, err)
		}
		at, err := deployLibrary(h, lib, nil, LibraryDeployer, b)
		if err != nil {
			return err
		}
		h.SetCode(linked[name], h.Code(at))
	}
	return nil
}

// deployLibrary creates lib (linked to libs) from the account from.
func deployLibrary(h *chain.Harness, lib *solc.Contract, libs map[string]common.Address, from common.Address, b chain.Block) (common.Address, error) {
	code, err := lib.CreationCode(libs)
	if err != nil {
		return common.Address{}, err
	}
	res, err := h.Apply(chain.Msg{From: from, Data: code, Gas: DeployGas, Block: b})
	if err != nil {
		return common.Address{}, err
	}
	if err := h.Created(res); err != nil {
		return common.Address{}, fmt.Errorf("library %s: %w", lib.Name, err)
	}
	return res.ContractAddress, nil
}

// Libraries deploys every library c links against (and theirs, first), each
// once, from the account from, and returns their addresses by name.
func Libraries(h *chain.Harness, out *solc.Output, c *solc.Contract, from common.Address, b chain.Block) (map[string]common.Address, error) {
	libs := map[string]common.Address{}
	var visit func(c *solc.Contract, depth int) error
	visit = func(c *solc.Contract, depth int) error {
		if depth > 8 {
			return errors.New("library links nest too deep")
		}
		for _, name := range linkedNames(c) {
			if _, done := libs[name]; done {
				continue
			}
			lib, err := out.Contract(name)
			if err != nil {
				return fmt.Errorf("library %s: %w", name, err)
			}
			if err := visit(lib, depth+1); err != nil {
				return err
			}
			at, err := deployLibrary(h, lib, libs, from, b)
			if err != nil {
				return err
			}
			libs[name] = at
		}
		return nil
	}
	return libs, visit(c, 0)
}

func linkedNames(c *solc.Contract) []string {
	var names []string
	for _, byName := range c.LinkReferences {
		for name := range byName {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Deployer is the address that created the contract on mainnet.
func (r *Record) Deployer() common.Address {
	if r.Creation != nil {
		return r.Creation.From
	}
	return common.HexToAddress("0x00000000000000000000000000000000000d3b10")
}

// CreationBlock is the block the contract was created in.
func (r *Record) CreationBlock() chain.Block {
	if r.Creation != nil {
		return r.Creation.Block
	}
	if len(r.Txs) > 0 {
		return r.Txs[0].Block
	}
	return chain.Block{Number: 1, Time: 1438269988}
}

// CreationValue is the Ether sent with the creation.
func (r *Record) CreationValue() *big.Int {
	if r.Creation != nil {
		return new(big.Int).Set(r.Creation.Value)
	}
	return new(big.Int)
}

// RecordedAddress is the address the contract has on mainnet.
func (r *Record) RecordedAddress() common.Address { return common.HexToAddress(r.Entry.Address) }

// ExpectedAddress is where CREATE puts the contract on a fresh chain.
func (r *Record) ExpectedAddress() common.Address {
	if r.Creation == nil {
		return common.Address{}
	}
	return crypto.CreateAddress(r.Deployer(), r.Creation.Nonce)
}

// DeploySample deploys a sample compiled from the record's settings exactly
// as the original was: same deployer, nonce, block, value and constructor
// arguments, so both sit at the same address and privileged calls line up.
func DeploySample(r *Record, orig *Deployment, out *solc.Output, opts chain.Options) (*Deployment, error) {
	c, err := r.Target(out)
	if err != nil {
		return nil, err
	}
	args := orig.Args
	if args == nil {
		args = []byte{}
	}
	return Deploy(r, out, c, args, opts)
}
