// Package democorpus is solbehave's built-in demo corpus: thirteen
// Solidity contracts written for the project (embedded under contracts/),
// eight flattened into one file each and five recorded as Etherscan records
// a multi-file source (its standard-JSON input) built on OpenZeppelin
// Contracts from npm, a scripted scenario of user behaviour for each, and the deterministic
// generator that runs those scenarios on the real harness (internal/chain)
// with the contracts built by the real compiler (internal/solc) and records
// what happened in Etherscan's format, exactly as the mainnet recordings in
// ../shared/corpus/mainnet are laid out: index.json plus one folder
// <ContractName>_<address> per contract holding getsourcecode.json and
// txlist.json. `go run ./cmd/democorpus -out data/corpus/demo` writes it; the
// committed data/corpus/demo is the pipeline's default input and a test keeps
// it byte-identical to what the generator produces.
//
// # How a history is made
//
// Each contract is deployed from a fixed deployer (its key derives from the
// contract's name, not the seed) at a fixed nonce, so its address is
// crypto.CreateAddress(deployer, nonce) whatever the seed. The seed (default
// 42) derives a population of 64 user accounts and drives every random
// choice through math/rand/v2's PCG, one stream per contract. Each history
// is dated in its compiler's era: the 0.4.24 contracts in 2018 (blocks
// 5.5M-6.9M, proof-of-work blocks of 13-16 s), the 0.8.19 contracts in 2023
// (blocks 16.6M-16.9M, 12 s slots, before Shanghai), the 0.8.21 ones
// (OpenZeppelin 5, whose compiler emits PUSH0) in autumn 2023 (blocks
// 18.3M-18.8M, after Shanghai), with one to a few hundred blocks between
// transactions. Every transaction runs once with ample
// gas to learn its gas use, then for real with the limit recorded
// (gasUsed*1.2 + 10,000, rounded up to a thousand; raised should refunds make
// that limit change the outcome), so replaying a record with its own gas
// limit does what the record says. isError is the harness's outcome. Hashes
// are keccak256(contract address, counter), block hashes match the harness's
// BLOCKHASH, nonces count per sender.
//
// # The contracts (ground truth for the oracles)
//
// The state-changing functions listed as never called appear in no recorded
// transaction: historical replay cannot reach them, an oracle that goes beyond
// history can. Spec.NeverCalled carries the same lists, and a test checks
// them against the generated histories.
//
// Vault (0.4.24, not optimized; 0x4c9fd16cf84c1405a1a54a415446860e67a41b37):
// the paper's Figure 1, verbatim: balance, initialized, initialize, deposit,
// withdraw. Users deposit; about one call in eight is a withdraw, and every
// withdraw reverts because the vault was never initialized. Never called:
// initialize. So the state where withdraw's balance check matters is
// reachable, but no recorded transaction reaches it.
//
// GiftToken (0.4.24, optimized; 0xb9554c2ee261c84d70d3c0d5543b0c35417b4ccf):
// an ERC-20 with an owner-run sale, modelled on GIFTO (the paper's Figure 3).
// Constructor(initialSupply = 10^14 units, 5 decimals) gives the owner the
// supply; while the sale is on, buy() or a plain ether transfer (fallback)
// buys tokens from the owner's balance (at least 0.01 ether; the owner cannot
// buy); transfer and transferFrom return false instead of reverting when
// refused, as GIFTO did. Scenario: pre-sale purchases (revert), enableSale,
// buying and trading, disableSale + withdrawEth, buyers who still try
// (revert), enableSale again, disableSale + withdrawEth, more trading;
// strangers calling owner functions (revert). Never called: setBuyPrice,
// transferOwnership.
//
// MultiSigWallet (0.4.24, optimized; 0x09f5cb7b3bf78088b28ffa6d2433ae40c94cea22):
// Gnosis-style wallet, constructor(owners = deployer + 4 users, required = 3).
// Deposits through the payable fallback; owners submit payments to payees,
// others confirm, and the third confirmation executes; some proposals ask for
// more than the wallet holds, fail on execution (ExecutionFailure, no revert)
// and are executed later with executeTransaction; revocations; outsiders
// confirming or submitting, owners confirming twice and re-executing executed
// proposals revert. Never called: addOwner, removeOwner, replaceOwner,
// changeRequirement (only the wallet itself may call them).
//
// EtherLocker (0.4.24, not optimized; 0x366e5461f56d30292f4f2c71cb9184492f4db189):
// lock(beneficiary, releaseTime) payable locks ether (at least a day ahead),
// release(lockId) pays the beneficiary once due, the owner's extendLock
// postpones a lock. Two months of locks and releases; releases too early, by
// strangers or twice revert, as do locks that are too short or carry no ether
// and extendLock from non-owners. Never called: setMinLockDuration,
// transferOwnership.
//
// TimedCrowdsale (0.8.19, optimized; 0x2f114b7afbd2f03a9f57d41ecdf44702fb584dac):
// constructor(wallet, rate 5000, opening = deployment + 2 days, closing =
// opening + 14 days, cap 250 ether, goal 100 ether). buyTokens(beneficiary)
// and receive() while open (at least 0.05 ether, within the cap); after the
// close the owner finalizes (the goal is reached, so the wallet is paid) and
// buyers claimTokens and transfer them. Reverts: purchases before the opening,
// too small, over the cap or after the close; claims before finalizing or
// twice; early or repeated finalize; every claimRefund (the goal was reached,
// so claimRefund is called but never succeeds). Never called: setRate,
// extendClosingTime, setWallet.
//
// StakingPool (0.8.19, optimized; 0x1416fcf7370593790bc72114987b9f59ba74785f):
// stake ether, earn reward points per second (Synthetix-style
// rewardPerToken, block.timestamp based), constructor(rewardRate = 0.1 point
// a second); withdraw, claimReward (points go to an internal reward
// balance), exit, transferReward. The owner calls setRewardRate twice (at a
// third and two thirds of the history). Reverts: stakes below 0.01 ether,
// withdrawals above the stake, claims with nothing accrued. Never called:
// setPaused, setMinStake, transferOwnership.
//
// AllowlistNFT (0.8.19, optimized; 0x7b4daff3ebe1839bb3ae2d934d777b0d67150777):
// minimal ERC-721 (ownerOf, balanceOf, approve, transferFrom) with 250
// tokens, 5 per wallet. The owner allowlists 30 addresses (setAllowlist, two
// batches); three days of allowlistMint at 0.03 ether; setPublicMint(true);
// mint at 0.05 ether until sold out; approvals and transfers; withdraw twice.
// Reverts: outsiders on allowlistMint, public mints while closed, wrong
// payments, mints over the wallet limit or past the supply, transfers by
// non-owners, owner functions from strangers. Never called: setPrice,
// setBaseURI, transferOwnership.
//
// PaymentChannel (0.8.19, not optimized; 0x9116970dab2ae2953809c53fe23f46057f2cae85):
// one-way channels: open(recipient, expiry) payable, topUp, extend,
// close(channelId, amount, signature) by the recipient with the sender's
// voucher (ecrecover over the eth_sign digest of keccak256(contract,
// channelId, amount); the generator signs with the users' keys), and
// claimTimeout by the sender after expiry. Reverts: expiries within the
// one-hour minimum, top-ups by others, vouchers for another amount (bad
// signature) or above the deposit, timeouts claimed early. Never called:
// setMinDuration, transferOwnership.
//
// # Multi-file contracts (2023 mainnet's shape)
//
// Each is its own files (contracts/multi/<Name>/) plus the OpenZeppelin
// files they import (contracts/third_party/openzeppelin/<release>/, only
// those, MIT), recorded as a Hardhat project verifies: SourceCode is the
// standard-JSON input between double braces, the files named as imported
// (`@openzeppelin/contracts/...`).
// Their histories are 211-212 transactions, the owner's setup included, and
// every one but the proxy has 1 to 20 non-trivial functions in its
// inheritance chain (the size filter's count; a test checks it).
//
// PhasedMintNFT (0.8.19, OpenZeppelin 4.8.1, chain count 20): ERC-721 with
// Enumerable, an allowlist phase then a public one, 120 tokens, four per
// wallet; OpenZeppelin's ERC721 and ERC721Enumerable trimmed (no _safeMint,
// _burn, after-transfer hook) to fit the bound. The owner allowlists and
// opens the phases; holders transfer (plain and both safe variants),
// approve and set operators; the owner withdraws.
//
// RoleVesting (0.8.19, OpenZeppelin 4.8.1, 12): ether vesting governed by
// AccessControl (and ReentrancyGuard): the admin grants two vesters their
// role, they fund schedules, beneficiaries release; the admin revokes
// schedules and one vester's role. Never called: renounceRole.
//
// HarborToken (0.8.21, OpenZeppelin 5.0.1, 19): a capped ERC-20 with
// Ownable and Pausable: the owner mints allocations, pauses for a few
// hours, mints again. Never called: renounceOwnership, transferOwnership.
//
// TipJar (0.8.21, OpenZeppelin 5.0.1, 10): tips to registered creators,
// kept in an external library (TipLedger) deployed just before it and
// linked at its address (settings.libraries). Never called:
// renounceOwnership, transferOwnership.
//
// ERC1967Proxy (0.8.21, OpenZeppelin 5.0.1): OpenZeppelin's proxy in front
// of NameRegistry (contracts/NameRegistry.sol, deployed just before it,
// not part of the corpus); Etherscan's Proxy flag and Implementation are
// recorded, so the crawl's proxy filter drops it.
package democorpus
