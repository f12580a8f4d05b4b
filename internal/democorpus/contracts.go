package democorpus

import (
	"embed"
	"fmt"
)

// Sources are the demo contracts: one flattened file per single-file
// contract (contracts/<Name>.sol), the own files of each multi-file one
// (contracts/multi/<Name>/) and the OpenZeppelin Contracts files they use
// (contracts/third_party/openzeppelin/<version>/, from npm, MIT: its LICENSE).
//
//go:embed contracts/*.sol contracts/multi contracts/third_party/openzeppelin
var Sources embed.FS

const (
	compiler0424 = "v0.4.24+commit.e67f0147"
	compiler0819 = "v0.8.19+commit.7dd6d404"
	compiler0821 = "v0.8.21+commit.d9974bed"
)

// Spec is one demo contract: how it is built and deployed, and the scenario
// its history comes from.
type Spec struct {
	Name        string // contract name; its source is contracts/<Name>.sol
	Compiler    string // Etherscan's CompilerVersion
	Optimize    bool   // runs are always 200
	License     string // Etherscan's LicenseType
	DeployNonce uint64 // the deployer's nonce at creation: the address is CreateAddress(deployer, nonce)
	StartBlock  uint64 // creation block
	Users       int    // accounts of the seed's population that use the contract
	// NeverCalled lists the state-changing functions no recorded
	// transaction calls: only an oracle that goes beyond history reaches them.
	NeverCalled []string

	// A multi-file contract is recorded as its standard-JSON input.
	OZ         string // the OpenZeppelin Contracts release it builds on ("" = a single flattened file)
	Root       string // the source file that defines the contract, as the input names it
	EVMVersion string // settings.evmVersion ("" = the compiler's default)
	// Libraries are deployed before the contract, from its deployer at the
	// nonces just below DeployNonce, and linked at those addresses.
	Libraries []string
	// Implementation is the contract (contracts/<Implementation>.sol) that
	// a proxy delegates to, deployed by the proxy's deployer at the nonce
	// just below DeployNonce; the scenario calls the proxy with its ABI.
	Implementation string

	args     func(c deployContext) []any
	scenario func(s *session)
	source   string // a generated source (the size ablation's); "" = contracts/<Name>.sol
}

// Source is the contract's embedded Solidity file (a single-file contract;
// Files serves both kinds).
func (c Spec) Source() (string, error) {
	if c.source != "" {
		return c.source, nil
	}
	if c.MultiFile() {
		return "", fmt.Errorf("democorpus: %s is a multi-file contract: read its Files", c.Name)
	}
	b, err := Sources.ReadFile("contracts/" + c.Name + ".sol")
	if err != nil {
		return "", fmt.Errorf("democorpus: source of %s: %w", c.Name, err)
	}
	return string(b), nil
}

// Specs lists the demo contracts in corpus order.
func Specs() []Spec {
	return []Spec{
		{Name: "Vault", Compiler: compiler0424, Optimize: false, License: "None",
			DeployNonce: 3, StartBlock: 5_612_480, Users: 14,
			NeverCalled: []string{"initialize"}, scenario: vaultScenario},
		{Name: "GiftToken", Compiler: compiler0424, Optimize: true, License: "None",
			DeployNonce: 0, StartBlock: 5_703_117, Users: 36,
			NeverCalled: []string{"setBuyPrice", "transferOwnership"},
			args:        func(deployContext) []any { return []any{giftSupply} }, scenario: giftScenario},
		{Name: "MultiSigWallet", Compiler: compiler0424, Optimize: true, License: "None",
			DeployNonce: 12, StartBlock: 6_012_055, Users: 24,
			NeverCalled: []string{"addOwner", "removeOwner", "replaceOwner", "changeRequirement"},
			args:        multisigArgs, scenario: multisigScenario},
		{Name: "EtherLocker", Compiler: compiler0424, Optimize: false, License: "None",
			DeployNonce: 5, StartBlock: 6_301_942, Users: 30,
			NeverCalled: []string{"setMinLockDuration", "transferOwnership"}, scenario: lockerScenario},
		{Name: "TimedCrowdsale", Compiler: compiler0819, Optimize: true, License: "MIT",
			DeployNonce: 27, StartBlock: 16_604_318, Users: 48,
			NeverCalled: []string{"setRate", "extendClosingTime", "setWallet"},
			args:        crowdsaleArgs, scenario: crowdsaleScenario},
		{Name: "StakingPool", Compiler: compiler0819, Optimize: true, License: "MIT",
			DeployNonce: 2, StartBlock: 16_655_640, Users: 28,
			NeverCalled: []string{"setPaused", "setMinStake", "transferOwnership"},
			args:        func(deployContext) []any { return []any{stakingInitialRate} }, scenario: stakingScenario},
		{Name: "AllowlistNFT", Compiler: compiler0819, Optimize: true, License: "MIT",
			DeployNonce: 41, StartBlock: 16_702_907, Users: 60,
			NeverCalled: []string{"setPrice", "setBaseURI", "transferOwnership"}, scenario: nftScenario},
		{Name: "PaymentChannel", Compiler: compiler0819, Optimize: false, License: "MIT",
			DeployNonce: 8, StartBlock: 16_718_233, Users: 32,
			NeverCalled: []string{"setMinDuration", "transferOwnership"}, scenario: channelScenario},
		{Name: "PhasedMintNFT", Compiler: compiler0819, Optimize: true, License: "MIT",
			DeployNonce: 6, StartBlock: 16_727_431, Users: 48,
			OZ: "4.8.1", Root: "contracts/PhasedMintNFT.sol", scenario: phasedMintScenario},
		{Name: "RoleVesting", Compiler: compiler0819, Optimize: true, License: "MIT",
			DeployNonce: 14, StartBlock: 16_733_904, Users: 30,
			NeverCalled: []string{"renounceRole"},
			OZ:          "4.8.1", Root: "contracts/RoleVesting.sol",
			args: func(c deployContext) []any { return []any{c.deployer.Addr} }, scenario: vestingScenario},
		{Name: "HarborToken", Compiler: compiler0821, Optimize: true, License: "MIT",
			DeployNonce: 3, StartBlock: 18_402_113, Users: 40,
			NeverCalled: []string{"renounceOwnership", "transferOwnership"},
			OZ:          "5.0.1", Root: "contracts/HarborToken.sol",
			args: func(c deployContext) []any { return []any{c.deployer.Addr} }, scenario: harborScenario},
		{Name: "TipJar", Compiler: compiler0821, Optimize: true, License: "MIT",
			DeployNonce: 9, StartBlock: 18_455_870, Users: 44,
			NeverCalled: []string{"renounceOwnership", "transferOwnership"},
			OZ:          "5.0.1", Root: "contracts/TipJar.sol", Libraries: []string{"TipLedger"},
			args: func(c deployContext) []any { return []any{c.deployer.Addr} }, scenario: tipJarScenario},
		{Name: "ERC1967Proxy", Compiler: compiler0821, Optimize: true, License: "MIT",
			DeployNonce: 2, StartBlock: 18_520_337, Users: 36,
			OZ: "5.0.1", Root: ozImport + "proxy/ERC1967/ERC1967Proxy.sol", Implementation: "NameRegistry",
			args: registryProxyArgs, scenario: registryScenario},
	}
}
