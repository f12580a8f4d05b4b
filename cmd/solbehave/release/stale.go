package release

import (
	"fmt"
	"strings"

	"github.com/solbehave/solbehave/pipeline"
)

// staleShown bounds the units publish names in its refusal.
const staleShown = 20

// checkCurrency keeps, for the release, the manifests of the units that are
// current (their rows are what the views show), and refuses to publish
// while the warehouse holds rows of a unit that is stale or failed, unless
// --allow-stale: the release's card then lists them. A unit not run yet has
// no rows (a release of the stages up to o2 is complete as such).
func (p *Publisher) checkCurrency() error {
	c, err := pipeline.ReadCurrency(p.Data)
	if err != nil {
		return err
	}
	p.manifests = c.Current
	p.selected = c.Selection(p.Warehouse.Root)
	for _, m := range c.Stale {
		p.stale = append(p.stale, m.Stage+" "+m.Unit+": stale (its inputs or parameters changed after it ran)")
	}
	for _, m := range c.Current {
		if m.Failed {
			p.stale = append(p.stale, m.Stage+" "+m.Unit+": failed (see the errors dataset)")
		}
	}
	if len(p.stale) == 0 || p.AllowStale {
		return nil
	}
	shown := p.stale[:min(len(p.stale), staleShown)]
	more := ""
	if len(p.stale) > len(shown) {
		more = fmt.Sprintf("\n  … %d more", len(p.stale)-len(shown))
	}
	return fmt.Errorf("publish: %d unit(s) are stale or failed (run the pipeline again, `solbehave status --explain` "+
		"says why; or --allow-stale publishes the current units' rows and lists these in the card):\n  %s%s",
		len(p.stale), strings.Join(shown, "\n  "), more)
}

// writeStale lists in the card the stale and failed units of a release
// made with --allow-stale.
func (p *Publisher) writeStale(b *strings.Builder) {
	if len(p.stale) == 0 {
		return
	}
	b.WriteString("\n**Stale or failed (published with --allow-stale):** the release holds the rows of the " +
		"current units only (a failed unit's error row among them).\n\n")
	for _, s := range p.stale {
		fmt.Fprintf(b, "- %s\n", s)
	}
}
