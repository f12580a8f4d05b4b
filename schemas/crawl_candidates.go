package schemas

import _ "embed"

//go:embed crawl_candidates.md
var crawlCandidatesDoc string

// CrawlCandidate is one row of the `crawl_candidates` dataset: a candidate
// contract and the crawl filters it passed or failed (solbehave paper §IV-A(a)).
type CrawlCandidate struct {
	ContractID    string `parquet:"contract_id"`
	Address       string `parquet:"address"`
	Name          string `parquet:"name"`
	Origin        string `parquet:"origin"`
	DiscoveredTxs int64  `parquet:"discovered_txs"`
	Verified      bool   `parquet:"verified"`
	Proxy         bool   `parquet:"proxy"`
	ProxyEvidence string `parquet:"proxy_evidence"`
	NTransactions int64  `parquet:"n_transactions"`
	EnoughHistory bool   `parquet:"enough_history"`
	Passed        bool   `parquet:"passed"`
	Reason        string `parquet:"reason"`
	// NNontrivialFunctions is the chain count read from the recorded
	// source by the lexer (Figure 2's size at the crawled stage, no
	// compile); -1 when the source cannot be read or linearised.
	NNontrivialFunctions int64 `parquet:"n_nontrivial_functions"`
	// NStateChangingABI counts the recorded ABI's state-changing methods;
	// -1 when the recorded ABI cannot be read.
	NStateChangingABI int64  `parquet:"n_state_changing_abi"`
	SizeBucket        string `parquet:"size_bucket"`
}

// CrawlCandidates is the crawl_candidates dataset: rows of CrawlCandidate.
var CrawlCandidates = Define[CrawlCandidate](Dataset{Name: "crawl_candidates", Partitions: []string{"contract"}, Doc: crawlCandidatesDoc})
