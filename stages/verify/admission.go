package verify

import (
	"fmt"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/proxy"
)

// crawlFilter applies the crawl's filters of §IV-A(a) again to a corpus
// contract, whichever way it entered the corpus (a recorded folder, a live
// crawl's output, a folder copied in by hand): a proxy, or a contract with
// fewer than MinTxs transactions after its creation, is not kept. It returns
// the reason class and the reason, "" when the contract passes. txs is the
// number of calls to the contract the record holds (read up to MinTxs).
func (s *Stage) crawlFilter(rec *deploy.Record, txs int) (class, reason string) {
	if rec.Source == nil {
		return "", ""
	}
	if v := proxy.DetectContract(rec.Source, rec.CreationInput()); v.Proxy {
		return "proxy", "proxy: " + v.Evidence
	}
	if txs < s.MinTxs {
		return "short_history", fmt.Sprintf("short_history: %d < %d transactions", txs, s.MinTxs)
	}
	return "", ""
}
