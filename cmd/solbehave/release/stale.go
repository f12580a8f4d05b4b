package release

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/solbehave/solbehave/internal/views"
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

// checkSkeletons refuses (unless --allow-stale, which lists them in the
// card) samples generated from a skeleton that is not their contract's
// current one: the paper generates every model's samples from one skeleton
// (§IV-B), and a release that mixes two compares models on different tasks.
func (p *Publisher) checkSkeletons(ctx context.Context, db *sql.DB) error {
	var n int
	q := "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('generations', 'skeletons')"
	if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil || n < 2 {
		return err
	}
	samples, err := views.Strings(ctx, db, `SELECT g.contract_id || ' ' || g.model || ' sample ' || g.sample
		FROM generations g JOIN (SELECT contract_id, min(skeleton_sha256) AS now FROM skeletons GROUP BY 1) k USING (contract_id)
		WHERE g.skeleton_sha256 <> k.now ORDER BY 1`)
	if err != nil {
		return fmt.Errorf("publish: samples' skeletons: %w", err)
	}
	var other []string
	for _, s := range samples {
		other = append(other, "generate "+s+": generated from a skeleton that is not its contract's current one (see the sample_skeletons view)")
	}
	if len(other) == 0 {
		return nil
	}
	p.stale = append(p.stale, other...)
	if p.AllowStale {
		return nil
	}
	shown := other[:min(len(other), staleShown)]
	return fmt.Errorf("publish: %d sample(s) were generated from another skeleton than their contract's current one "+
		"(the evaluation's NatSpec model or regeneration scope changed after they ran; run their models again, or "+
		"--allow-stale lists them in the card):\n  %s", len(other), strings.Join(shown, "\n  "))
}
