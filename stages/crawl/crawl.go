// Package crawl is the candidate crawl of solbehave paper §IV-A(a): find
// contracts, fetch their verified source and transaction history from
// Etherscan, and record which filters each passed (verified source, not a
// proxy, enough history) in `crawl_candidates`.
//
// By default it reads the recorded corpus (--corpus) through the Etherscan
// client. With --live it asks Etherscan's API (key from ETHERSCAN_API_KEY)
// about the addresses given with --addresses and those found by sampling
// blocks over JSON-RPC (--rpc), and writes what it fetched as a corpus folder
// (--out-corpus) that verify then reads with --corpus.
package crawl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	gethrpc "github.com/ethereum/go-ethereum/rpc"
	esapi "github.com/nanmu42/etherscan-api"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/egress"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/proxy"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the crawl stage.
type Stage struct {
	Live         bool
	Addresses    []string
	RPC          string
	FromBlock    uint64
	Blocks       int
	Stride       int
	Batch        int
	Top          int
	MinTxs       int
	TxLimit      int
	ChainID      int
	Rate         float64
	EtherscanURL string
	OutCorpus    string
}

// New returns the stage with the paper's parameters.
func New() *Stage {
	return &Stage{FromBlock: 16308190, Blocks: 100, Stride: 1, Batch: 8, Top: 50, MinTxs: 200, TxLimit: 1000, ChainID: 1, Rate: 5}
}

func (s *Stage) Name() string    { return "crawl" }
func (s *Stage) Version() string { return "3" }
func (s *Stage) Summary() string {
	return "fetch candidates' verified source and history; filter unverified, proxies, short histories"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&s.Live, "live", s.Live, "ask Etherscan's API instead of reading --corpus (key from ETHERSCAN_API_KEY)")
	fs.StringSliceVar(&s.Addresses, "addresses", s.Addresses, "candidate addresses for --live (comma-separated)")
	fs.StringVar(&s.RPC, "rpc", s.RPC, "JSON-RPC endpoint whose blocks are sampled for candidates (--live)")
	fs.Uint64Var(&s.FromBlock, "from-block", s.FromBlock, "first block sampled over --rpc")
	fs.IntVar(&s.Blocks, "blocks", s.Blocks, "blocks sampled over --rpc")
	fs.IntVar(&s.Stride, "block-stride", s.Stride, "distance between sampled blocks")
	fs.IntVar(&s.Batch, "block-batch", s.Batch, "blocks fetched concurrently")
	fs.IntVar(&s.Top, "top", s.Top, "most frequent call targets kept as candidates")
	sharedflag.Int(fs, &s.MinTxs, "min-txs", s.MinTxs, "fewest historical transactions a candidate needs (crawl and verify)")
	fs.IntVar(&s.TxLimit, "tx-limit", s.TxLimit, "transactions fetched per candidate")
	fs.IntVar(&s.ChainID, "chain-id", s.ChainID, "chain id for Etherscan's V2 API")
	config.Rate(fs, &s.Rate, "etherscan-rate", s.Rate, "Etherscan requests per second")
	fs.StringVar(&s.EtherscanURL, "etherscan-url", s.EtherscanURL, "Etherscan API base URL (default: the V2 endpoint)")
	fs.StringVar(&s.OutCorpus, "out-corpus", s.OutCorpus, "where --live writes the fetched corpus (default <data>/corpus/crawled)")
}

// candidate is what Plan hands to Run.
type candidate struct {
	address    string
	entry      *etherscan.Entry // recorded mode
	discovered int64
	origin     string
	client     *etherscan.Client
	rejected   string // why this corpus folder or address is not a contract; the unit fails with it
}

// Plan lists the candidates: the recorded corpus, or the live addresses.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if !s.Live {
		return s.planRecorded(ctx, env)
	}
	return s.planLive(ctx, env)
}

func (s *Stage) planRecorded(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	client, err := etherscan.NewRecorded(env.Corpus)
	if err != nil {
		return nil, err
	}
	entries, rejected, err := etherscan.ScanCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for i := range entries {
		e := entries[i]
		digest, err := dirDigest(ctx, e.Dir)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil { // a record replaced since the scan
			units = append(units, rejectedUnit(s, e.ID, e.Address, "recorded", "corpus folder "+e.ID+": "+err.Error()))
			continue
		}
		c := candidate{address: e.Address, entry: &e, origin: "recorded", client: client}
		units = append(units, pipeline.Unit{ID: e.ID, Contract: e.ID, Payload: c,
			Fingerprint: pipeline.Fingerprint(s.Version(), s.MinTxs, s.TxLimit, digest)})
	}
	for _, r := range rejected {
		units = append(units, rejectedUnit(s, r.ID, r.Address, "recorded", "corpus folder "+r.Folder+": "+r.Reason))
	}
	return units, nil
}

// rejectedUnit is a unit that records why a corpus folder or an address
// cannot be crawled: an error row of class input, never a silent skip.
func rejectedUnit(s *Stage, id, address, origin, reason string) pipeline.Unit {
	return pipeline.Unit{ID: id, Contract: id, Payload: candidate{address: address, origin: origin, rejected: reason},
		Fingerprint: pipeline.Fingerprint(s.Version(), reason)}
}

func (s *Stage) planLive(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	key := os.Getenv("ETHERSCAN_API_KEY")
	if key == "" {
		return nil, errors.New("--live needs ETHERSCAN_API_KEY in the environment")
	}
	client := etherscan.NewLive(etherscan.Options{BaseURL: s.EtherscanURL, ChainID: s.ChainID, Key: key,
		RatePerSecond: s.Rate, CacheDir: filepath.Join(env.Data, "cache", "etherscan")})
	found := map[string]int64{}
	origin := map[string]string{}
	var units []pipeline.Unit
	for _, a := range s.Addresses {
		a = strings.ToLower(strings.TrimSpace(a))
		if !addressPattern.MatchString(a) {
			units = append(units, rejectedUnit(s, etherscan.RejectedID(a), "", "live",
				fmt.Sprintf("--addresses %s is not 0x and 40 hex digits", etherscan.Printable(a))))
			continue
		}
		found[a], origin[a] = 0, "live"
	}
	if s.RPC != "" {
		rpc, err := dialRPC(ctx, s.RPC)
		if err != nil {
			return nil, fmt.Errorf("rpc %s: %w", s.RPC, err)
		}
		defer rpc.Close()
		ranked, err := Discover(ctx, rpc, s.discoverOptions())
		if err != nil {
			return nil, err
		}
		for _, r := range ranked {
			a := strings.ToLower(r.Address.Hex())
			found[a], origin[a] = int64(r.Txs), "live+rpc"
		}
	}
	for _, a := range slices.Sorted(maps.Keys(found)) {
		c := candidate{address: a, discovered: found[a], origin: origin[a], client: client}
		// Units are keyed by address: the name is known only once the source is fetched.
		units = append(units, pipeline.Unit{ID: a, Contract: a, Payload: c,
			Fingerprint: pipeline.Fingerprint(s.Version(), s.MinTxs, s.TxLimit, a, found[a])})
	}
	return units, nil
}

func (s *Stage) discoverOptions() DiscoverOptions {
	return DiscoverOptions{FromBlock: s.FromBlock, Blocks: s.Blocks, Stride: s.Stride, Batch: s.Batch, Top: s.Top}
}

// Run fetches one candidate and applies the filters.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, u pipeline.Unit) (*pipeline.Output, error) {
	c := u.Payload.(candidate)
	row := schemas.CrawlCandidate{ContractID: u.Contract, Address: c.address, Origin: c.origin, DiscoveredTxs: c.discovered}
	out := &pipeline.Output{}
	if c.rejected != "" {
		row.Reason = "input: " + c.rejected
		pipeline.Add(out, schemas.CrawlCandidates, []schemas.CrawlCandidate{row})
		return out, failure.New(failure.Input, false, errors.New(c.rejected))
	}
	src, txs, err := s.fetch(ctx, c)
	if err != nil {
		row.Reason = "fetch: " + err.Error()
		pipeline.Add(out, schemas.CrawlCandidates, []schemas.CrawlCandidate{row})
		return out, classify(err)
	}
	s.filter(&row, src, txs)
	if s.Live && row.Verified {
		folder, err := etherscan.FolderName(src.ContractName, c.address)
		if err != nil { // a name from outside that would not stay one folder
			row.Passed, row.Reason = false, "input: "+err.Error()
			pipeline.Add(out, schemas.CrawlCandidates, []schemas.CrawlCandidate{row})
			return out, failure.New(failure.Input, false, err)
		}
		row.ContractID = folder
	}
	// A live crawl writes only the candidates that passed every filter: the
	// folder it writes is the corpus verify reads.
	if s.Live && row.Passed {
		if err := s.writeCorpus(env, row.ContractID, src, txs); err != nil {
			return out, err
		}
	}
	pipeline.Add(out, schemas.CrawlCandidates, []schemas.CrawlCandidate{row})
	return out, nil
}

func (s *Stage) fetch(ctx context.Context, c candidate) (*esapi.ContractSource, []esapi.NormalTx, error) {
	src, err := c.client.Source(ctx, c.address)
	if err != nil {
		return nil, nil, err
	}
	txs, err := c.client.Transactions(ctx, c.address, s.TxLimit+1)
	return src, txs, err
}

// filter applies §IV-A(a)'s filters in order; the first failure is the reason.
func (s *Stage) filter(row *schemas.CrawlCandidate, src *esapi.ContractSource, txs []esapi.NormalTx) {
	row.Name = src.ContractName
	row.Verified = strings.TrimSpace(src.SourceCode) != ""
	v := proxy.DetectContract(src, creationCode(txs, row.Address))
	row.Proxy, row.ProxyEvidence = v.Proxy, v.Evidence
	row.NStateChangingABI = stateChangingABI(src.ABI)
	row.NNontrivialFunctions = chainSize(src)
	if row.NNontrivialFunctions >= 0 {
		row.SizeBucket = schemas.SizeBucket(row.NNontrivialFunctions)
	}
	row.NTransactions = int64(callsTo(txs, row.Address))
	row.EnoughHistory = row.NTransactions >= int64(s.MinTxs)
	switch {
	case !row.Verified:
		row.Reason = "unverified"
	case row.Proxy:
		row.Reason = "proxy"
	case !row.EnoughHistory:
		row.Reason = fmt.Sprintf("short_history: %d < %d transactions", row.NTransactions, s.MinTxs)
	default:
		row.Passed = true
	}
}

func classify(err error) error {
	var e *etherscan.Error
	if errors.As(err, &e) {
		return failure.New(e.Class, e.Retriable, err)
	}
	return err
}

var addressPattern = regexp.MustCompile(`^0x[0-9a-f]{40}$`)

// rpcMaxAnswer bounds one JSON-RPC answer: a block with its transactions is
// well under this, a hostile endpoint cannot exhaust memory.
const rpcMaxAnswer = 64 << 20

// dialRPC connects to a JSON-RPC endpoint over HTTP(S) through the egress
// client (same-origin redirects, bounded answers); other schemes (ws, ipc)
// go through go-ethereum's own dialer.
func dialRPC(ctx context.Context, endpoint string) (*ethclient.Client, error) {
	if !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
		return ethclient.DialContext(ctx, endpoint)
	}
	c, err := gethrpc.DialOptions(ctx, endpoint, gethrpc.WithHTTPClient(egress.Client(2*time.Minute, nil, rpcMaxAnswer)))
	if err != nil {
		return nil, err
	}
	return ethclient.NewClient(c), nil
}
