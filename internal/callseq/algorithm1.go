package callseq

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/guardstate"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/schemas"
)

// Contract is what Generate needs about one original.
type Contract struct {
	Deployment *deploy.Deployment // the original, freshly deployed; never modified
	Graph      *dcrgraph.Graph
	Layout     *guardstate.Layout // storage layout for guards without getters; may be nil
	History    []deploy.Tx        // recorded calls: users, pace and fallback arguments
	Ownership  []string           // ownership-transferring functions (OwnershipFunctions)
	Sources    []string           // source texts, for the argument search's dictionary
}

// Priorities of SELECT, as recorded per attempt.
const (
	PriorityObligation   = "obligation"
	PriorityPrerequisite = "prerequisite"
	PriorityUCB          = "ucb"
	PriorityFinal        = "final" // an ownership-transferring event at the end of a sequence
)

// Where a call's arguments came from (args_source).
const (
	ArgsProposed = "proposed"
	ArgsHistory  = "history"
	ArgsSearch   = "search"
)

// Why a sequence ended (the last attempt's End) and why the run stopped.
const (
	EndBudget   = "budget"    // T successful calls collected
	EndAttempts = "attempts"  // MaxAttempts reached
	EndNoEvent  = "no_event"  // the marking allows nothing (Algorithm 1's E = ∅)
	EndStall    = "stall"     // Stall discarded steps in a row
	EndLength   = "length"    // MaxLength kept calls
	EndNoStep   = "exhausted" // run only: a fresh sequence allowed no event at all
)

// Attempt is one call Algorithm 1 sent to the original (or could not send).
type Attempt struct {
	Seq, Step, Try int // sequence, SELECT step in it, argument variant of the step
	Position       int // kept calls of the sequence before this one
	Event          string
	Function       string // "" for fallback / receive
	Branch         string
	Role           dcrgraph.Role
	Priority       string
	ArgsSource     string
	Args           string // decoded, JSON list of strings
	Call           replay.Call
	Status         schemas.CallStatus // success, revert, error, unencodable, unknown_function
	Kept           bool
	Reason         string
	GasUsed        uint64
	Candidates     int    // events SELECT chose among
	Before, After  string // marking summaries (After = Before when discarded)
	Pending        string // pending events after the attempt, comma-separated
	GuardErrors    int    // guards that could not be evaluated in the step
	End            string // on a sequence's last attempt: why it ended
}

// Result is one run of Algorithm 1 on one contract.
type Result struct {
	Attempts  []Attempt
	Sequences int // sequences started
	Kept      int // kept calls, ownership-transferring ones included
	Stop      string
	Users     []common.Address
	Ownership []string
}

// tally is one event's record on the contract, for UCB.
type tally struct {
	attempts, successes int
	fruitless           int // steps in a row the fallback was tried and found nothing
}

// generator is the state of one Generate call.
type generator struct {
	cfg       Config
	c         Contract
	d         *deploy.Deployment
	eng       *dcrgraph.Engine
	events    map[string]dcrgraph.Event
	ids       []string
	ownership map[string]bool
	methods   map[string]*abi.Method // event id -> its function (nil: fallback/receive)
	methodErr map[string]error
	history   map[string][]recorded
	search    *fuzz.Generator
	rng       *rand.Rand
	users     []common.Address
	pace      pace
	stats     map[string]*tally
	total     int // SELECT steps taken, the N of UCB
	selected  int // kept calls that count toward the budget
	res       *Result
}

// Generate runs Algorithm 1 on c.
func Generate(ctx context.Context, c Contract, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if c.Deployment == nil || c.Graph == nil {
		return nil, errors.New("sequence: no deployment or no graph")
	}
	eng, err := dcrgraph.NewEngine(c.Graph)
	if err != nil {
		return nil, err
	}
	g := newGenerator(c, cfg, eng)
	for g.res.Stop == "" {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch steps := g.sequence(); {
		case g.selected >= cfg.Budget:
			g.res.Stop = EndBudget
		case len(g.res.Attempts) >= cfg.maxAttempts():
			g.res.Stop = EndAttempts
		case steps == 0:
			g.res.Stop = EndNoStep
		}
	}
	return g.res, nil
}

func newGenerator(c Contract, cfg Config, eng *dcrgraph.Engine) *generator {
	d := c.Deployment
	g := &generator{cfg: cfg, c: c, d: d, eng: eng, events: map[string]dcrgraph.Event{}, ownership: map[string]bool{},
		methods: map[string]*abi.Method{}, methodErr: map[string]error{}, history: historyTuples(d.ABI, c.History),
		rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5eed5eed5eed5eed)), stats: map[string]*tally{},
		users: users(cfg.Users, c.History, d.Deployer, d.Address), pace: paceOf(cfg, d.Block, c.History)}
	for _, f := range c.Ownership {
		g.ownership[f] = true
	}
	for _, ev := range c.Graph.Events {
		g.events[ev.ID] = ev
		g.ids = append(g.ids, ev.ID)
		g.stats[ev.ID] = &tally{}
		g.methods[ev.ID], g.methodErr[ev.ID] = methodFor(d.ABI, ev)
	}
	sort.Strings(g.ids)
	g.search = fuzz.NewGenerator(cfg.Seed^0xa5a5a5a5, g.dictionary())
	g.res = &Result{Users: g.users, Ownership: append([]string(nil), c.Ownership...)}
	return g
}

// dictionary seeds the argument search with what the contract knows of
// itself: its actors, constructor arguments, recorded calls and literals.
func (g *generator) dictionary() *fuzz.Dictionary {
	s := fuzz.Seeds{Actors: append([]common.Address{g.d.Deployer, g.d.Address}, g.users...),
		Encoded: [][]byte{g.d.Args}, Sources: g.c.Sources, Code: [][]byte{g.d.Chain.Code(g.d.Address)}}
	for _, tx := range g.c.History {
		if data := tx.Input; len(data) > 4 {
			s.Encoded = append(s.Encoded, data[4:])
		}
	}
	return fuzz.NewDictionaryFrom(s)
}

// run is one sequence in progress.
type run struct {
	h        *chain.Harness
	gs       *guardstate.State
	m        *dcrgraph.Marking
	block    chain.Block
	seq      int
	step     int
	position int
}

// sequence builds one sequence from a fresh deployment and returns the
// number of SELECT steps it took.
func (g *generator) sequence() int {
	r := &run{h: g.d.Chain.Fork(), m: dcrgraph.NewMarking(g.c.Graph), block: g.d.Block, seq: g.res.Sequences}
	defer r.h.Release()
	r.gs = guardstate.ForDeployment(g.d, r.h, g.c.Layout)
	g.res.Sequences++
	start, stall, length := len(g.res.Attempts), 0, 0
	end := ""
	for end == "" {
		if end = g.bound(stall, length); end != "" {
			break
		}
		g.advance(r)
		user := g.user()
		cands, awaited, gerrs := g.candidates(r, user)
		if len(cands) == 0 {
			end = EndNoEvent
			break
		}
		c, prio := g.choose(cands, awaited, r.m)
		if g.try(r, c, prio, len(cands), gerrs) {
			length, stall = length+1, 0
		} else {
			stall++
		}
		r.step++
	}
	g.finish(r)
	if n := len(g.res.Attempts); n > start {
		g.res.Attempts[n-1].End = end
	}
	return r.step
}

// bound says which limit, if any, ends the sequence before the next step.
func (g *generator) bound(stall, length int) string {
	switch {
	case g.selected >= g.cfg.Budget:
		return EndBudget
	case len(g.res.Attempts) >= g.cfg.maxAttempts():
		return EndAttempts
	case g.cfg.MaxLength > 0 && length >= g.cfg.MaxLength:
		return EndLength
	case g.cfg.Stall > 0 && stall >= g.cfg.Stall:
		return EndStall
	}
	return ""
}

// user draws the account an `any` event of the step is sent from: the
// deployer when there are no user accounts (the paper: every call comes from
// the address that deployed the contract, §IV-E2 d).
func (g *generator) user() common.Address {
	if len(g.users) == 0 {
		return g.d.Deployer
	}
	return g.users[g.rng.IntN(len(g.users))]
}

// advance moves to the next step's block: a gap uniform in [1, 2·mean−1]
// blocks, each of the history's seconds per block.
func (g *generator) advance(r *run) {
	gap := uint64(1)
	if g.pace.blocks > 1 {
		gap += g.rng.Uint64N(2*g.pace.blocks - 1)
	}
	r.block.Number += gap
	r.block.Time += gap * g.pace.secsPerBlock
}

// candidate is an event SELECT may choose, with the account that would
// send it and the guard view of that account.
type candidate struct {
	id     string
	sender common.Address
	view   dcrgraph.State
}

// candidates lists the events the marking allows (guards read for the
// sender of each event's role) that do not transfer ownership, and the
// events some included event is waiting on.
func (g *generator) candidates(r *run, user common.Address) ([]candidate, map[string]bool, int) {
	memo := newStepMemo()
	owner, any := memoView{r.gs.At(g.d.Deployer, r.block), memo}, memoView{r.gs.At(user, r.block), memo}
	enOwner, errsOwner := g.eng.Enabled(r.m, owner)
	enAny, errsAny := g.eng.Enabled(r.m, any)
	awaited := map[string]bool{}
	for _, view := range []dcrgraph.State{owner, any} {
		ids, _ := g.eng.Awaited(r.m, view)
		for _, id := range ids {
			awaited[id] = true
		}
	}
	inOwner, inAny := setOf(enOwner), setOf(enAny)
	var cands []candidate
	for _, id := range g.ids {
		ev := g.events[id]
		switch {
		case g.ownership[ev.Function]:
		case ev.Role == dcrgraph.RoleOwner && inOwner[id]:
			cands = append(cands, candidate{id, g.d.Deployer, owner})
		case ev.Role != dcrgraph.RoleOwner && inAny[id]:
			cands = append(cands, candidate{id, user, any})
		}
	}
	return cands, awaited, countGuardErrors(errsOwner, errsAny)
}

func setOf(ids []string) map[string]bool {
	s := make(map[string]bool, len(ids))
	for _, id := range ids {
		s[id] = true
	}
	return s
}

// countGuardErrors counts the distinct relations whose guard failed.
func countGuardErrors(lists ...[]dcrgraph.GuardError) int {
	seen := map[int]bool{}
	for _, l := range lists {
		for _, e := range l {
			seen[e.Relation] = true
		}
	}
	return len(seen)
}

// finish sends the ownership-transferring events the marking allows, in id
// order, at the end of the sequence (Algorithm 1, line 17). They are sent
// even past MaxAttempts: a few per sequence, and the run stops after it.
func (g *generator) finish(r *run) {
	for _, id := range g.ids {
		ev := g.events[id]
		if !g.ownership[ev.Function] {
			continue
		}
		g.advance(r)
		sender := g.d.Deployer
		if ev.Role != dcrgraph.RoleOwner {
			sender = g.user()
		}
		view := memoView{r.gs.At(sender, r.block), newStepMemo()}
		if enabled, _ := g.eng.Enabled(r.m, view); !setOf(enabled)[id] {
			continue
		}
		g.try(r, candidate{id, sender, view}, PriorityFinal, 1, 0)
	}
}

// variant is one argument tuple tried for a step.
type variant struct {
	source string
	data   []byte
	value  *big.Int
	status schemas.CallStatus // set when the call cannot be sent
	reason string
}

// try sends the chosen event with its proposed arguments and, when they
// revert, the fallback's; it keeps the first success.
func (g *generator) try(r *run, c candidate, prio string, ncands, gerrs int) bool {
	ev := g.events[c.id]
	next, stepErrs, err := g.eng.Step(r.m, c.id, c.view)
	if err != nil { // cannot happen for an enabled event; skip it
		return false
	}
	gerrs = max(gerrs, len(stepErrs))
	kept := false
	var tried []variant
	for v, ok := g.proposed(ev), true; ok && (prio == PriorityFinal || len(g.res.Attempts) < g.cfg.maxAttempts()); {
		tried = append(tried, v)
		a := g.attempt(r, c, ev, prio, v, len(tried)-1, ncands, gerrs)
		if v.status == "" {
			g.send(r, &a, v)
		}
		if a.Kept {
			r.m = next
			kept = true
		}
		a.After, a.Pending = r.m.Summary(), strings.Join(r.m.Pending(), ",")
		g.res.Attempts = append(g.res.Attempts, a)
		if kept {
			break
		}
		v, ok = g.fallback(ev, tried)
	}
	g.record(c.id, prio, kept, r)
	if len(tried) > 1 {
		if t := g.stats[c.id]; kept {
			t.fruitless = 0
		} else {
			t.fruitless++
		}
	}
	return kept
}

// record updates the event's tally and the run's counters after a step.
func (g *generator) record(id, prio string, kept bool, r *run) {
	t := g.stats[id]
	t.attempts++
	g.total++
	if !kept {
		return
	}
	t.successes++
	r.position++
	g.res.Kept++
	if prio != PriorityFinal {
		g.selected++
	}
}

func (g *generator) attempt(r *run, c candidate, ev dcrgraph.Event, prio string, v variant, try, ncands, gerrs int) Attempt {
	return Attempt{Seq: r.seq, Step: r.step, Try: try, Position: r.position, Event: ev.ID, Function: ev.Function,
		Branch: ev.Branch, Role: ev.Role, Priority: prio, ArgsSource: v.source, Args: formatArgs(g.methods[ev.ID], v.data),
		Call: replay.Call{From: c.sender, Data: v.data, Value: v.value, Gas: g.cfg.Gas, Block: r.block,
			TxHash: fmt.Sprintf("seq%d/step%d/try%d", r.seq, r.step, try)},
		Status: v.status, Reason: v.reason, Candidates: ncands, Before: r.m.Summary(), GuardErrors: gerrs}
}

// send applies the attempt's call to the sequence's state.
func (g *generator) send(r *run, a *Attempt, v variant) {
	to := g.d.Address
	res, err := r.h.Apply(chain.Msg{From: a.Call.From, To: &to, Data: v.data, Value: v.value, Gas: g.cfg.Gas, Block: r.block})
	switch {
	case err != nil:
		a.Status, a.Reason = schemas.StatusError, err.Error()
	case res.Success:
		a.Status, a.Kept, a.GasUsed = schemas.StatusSuccess, true, res.GasUsed
	default:
		a.Status, a.GasUsed = schemas.StatusRevert, res.GasUsed
		a.Reason = res.RevertReason
		if a.Reason == "" && res.Err != nil {
			a.Reason = res.Err.Error()
		}
	}
}

// FromRecord prepares a corpus contract for Generate: the original deployed
// from its compiler output as verify deploys it, its storage layout, its
// ownership-transferring functions, its history and sources.
func FromRecord(rec *deploy.Record, out *solc.Output, g *dcrgraph.Graph) (Contract, error) {
	target, err := rec.Target(out)
	if err != nil {
		return Contract{}, err
	}
	d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil {
		return Contract{}, fmt.Errorf("original: %w", err)
	}
	prog, err := solast.ParseProgram(out.ASTs(), nil) // once, for the layout and the ownership analysis
	if err != nil {
		return Contract{}, err
	}
	layout, err := guardstate.LayoutOf(out, prog, target.Name)
	if err != nil {
		layout = nil // guards then read getters only
	}
	owners, err := OwnershipFunctions(out, prog, target.Name)
	if err != nil {
		return Contract{}, err
	}
	c := Contract{Deployment: d, Graph: g, Layout: layout, History: rec.Txs, Ownership: owners}
	if rec.Files != nil {
		for _, name := range slices.Sorted(maps.Keys(rec.Files.Files)) {
			c.Sources = append(c.Sources, rec.Files.Files[name])
		}
	}
	return c, nil
}
