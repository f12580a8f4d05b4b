package dcrextract

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
)

// StaticName is the static extractor's name in datasets and file names.
const StaticName = "static"

// Input is what the static extractor reads about one contract.
type Input struct {
	Contract string            // the contract's name
	Output   *solc.Output      // the original's compiler output (AST and ABI)
	Sources  map[string]string // file name -> source text, as compiled
	History  []Call            // its recorded transactions, in order
	// Caller is the address the sequences are sent from (the deployer): the
	// value proposed for an address parameter that a guard wants non-zero.
	Caller common.Address
	// ConstructorArgs are the ABI-encoded arguments the contract was
	// deployed with (nil when unknown): a constructor parameter that carried
	// the deployer's address is the deployer's, as msg.sender would be.
	ConstructorArgs []byte
}

// Result is an extracted graph with the provenance of its parts.
type Result struct {
	Graph     *dcrgraph.Graph
	Events    map[string]EventInfo // by event id
	Relations []RelationInfo       // parallel to Graph.Relations
}

// EventInfo says where an event's proposed call came from.
type EventInfo struct {
	ArgSources  []string // per argument: FromHistory, FromSource or FromDefault
	ValueSource string   // "" for non-payable functions
}

// RelationInfo says which rule produced a relation.
type RelationInfo struct {
	Rule string
}

// Static rules (RelationInfo.Rule).
const (
	RuleValue    = "state-condition"  // B's precondition reads state A establishes
	RuleOneTime  = "flag-condition"   // B needs a flag only A sets, never cleared
	RuleSwitchOn = "switch-include"   // A sets a global flag B needs; someone clears it
	RuleSwitchOf = "switch-exclude"   // A clears a global flag B needs
	RuleDisable  = "flag-exclude"     // A sets a flag B needs unset, and nothing unsets it
	RuleResponse = "balance-response" // payable A, B sends the balance out
)

// extraction is the state of one static extraction.
type extraction struct {
	in      Input
	m       *model
	parsed  *abi.ABI
	methods []*abi.Method
	sums    []*summary
	props   []proposal
	ids     []string
	failIDs []string

	failProps []proposal
	excluded  map[int]bool // events excluded at the start

	conds map[[2]int][]clause // condition (a, b) -> the clauses of b it answers
	rules map[[2]int]string
	rels  []dcrgraph.Relation
	info  []RelationInfo
}

// Static extracts a contract's DCR graph from its AST, deterministically.
func Static(in Input) (*Result, error) {
	if in.Output == nil {
		return nil, errors.New("dcrextract: no compiler output")
	}
	c, err := in.Output.Contract(in.Contract)
	if err != nil {
		return nil, err
	}
	parsed, err := abi.JSON(bytes.NewReader(c.ABI))
	if err != nil {
		return nil, fmt.Errorf("dcrextract: ABI of %s: %w", in.Contract, err)
	}
	m, err := newModel(in.Output, in.Sources, in.Contract, deployerArgs(&parsed, in))
	if err != nil {
		return nil, err
	}
	x := &extraction{in: in, m: m, parsed: &parsed, conds: map[[2]int][]clause{},
		rules: map[[2]int]string{}, excluded: map[int]bool{}}
	x.analyze()
	x.relations()
	return x.result()
}

func (x *extraction) analyze() {
	ok := fromHistory(x.parsed, x.in.History, true)
	failed := fromHistory(x.parsed, x.in.History, false)
	seen := map[string]int{}
	for _, e := range x.m.entries {
		meth := abiMethod(x.parsed, e)
		x.methods = append(x.methods, meth)
		x.sums = append(x.sums, x.m.summarize(e))
		base := e.label()
		seen[base]++
		if seen[base] > 1 {
			base = fmt.Sprintf("%s%d", base, seen[base])
		}
		x.ids = append(x.ids, base+"Success")
		x.failIDs = append(x.failIDs, base+"Fail")
	}
	for i, e := range x.m.entries {
		sel := selectorOf(x.methods[i], e)
		x.props = append(x.props, x.propose(i, ok[sel]))
		fp := x.props[i]
		if t := failed[sel]; t != nil {
			fp = x.propose(i, t)
		}
		x.failProps = append(x.failProps, fp)
	}
}

func selectorOf(meth *abi.Method, e entry) string {
	if meth == nil {
		if e.fn.Name == "" {
			return fallbackSelector
		}
		return "?"
	}
	return fmt.Sprintf("%x", meth.ID)
}

// relations applies the static rules to every pair of entry points.
func (x *extraction) relations() {
	for b := range x.m.entries {
		for _, c := range x.sums[b].clauses {
			if x.selfEstablished(b, c) {
				continue
			}
			switch c.kind {
			case cGate:
				x.gateRelations(b, c)
			case cValue:
				x.valueConditions(b, c)
			}
		}
	}
	x.addConditions()
	x.responses()
}

// selfEstablished: B writes the state a clause checks before checking it
// (submitTransaction confirms, then executeTransaction checks the
// confirmation): the clause is about B's own work, not an earlier call.
func (x *extraction) selfEstablished(b int, c clause) bool {
	keys := []varKey{c.gate.key}
	if c.kind != cGate {
		keys = keys[:0]
		for _, r := range c.reads {
			keys = append(keys, r.key)
		}
	}
	for _, k := range keys {
		for _, w := range x.sums[b].writes {
			if w.seq < c.seq && w.key.overlaps(k) && k.v != balanceVar {
				return true
			}
		}
	}
	return false
}

// valueConditions: A ->• B when one of B's comparisons reads state that
// starts unset and that A changes in the direction the comparison needs,
// unless A itself needs that state before changing it.
func (x *extraction) valueConditions(b int, c clause) {
	for _, r := range c.reads {
		if !x.startsUnset(r.key) {
			continue
		}
		for a := range x.m.entries {
			if a == b {
				continue
			}
			w, ok := x.firstWrite(a, r.key, func(w write) bool { return helps(w.kind, r.pol) })
			if !ok || x.dependsOn(a, r.key, w.seq) {
				continue
			}
			x.addCondition(a, b, c, RuleValue)
		}
	}
}

// startsUnset: the state is zero after deployment (no initializer, no
// constructor assignment); the balance starts at zero too.
func (x *extraction) startsUnset(k varKey) bool {
	if k.v == balanceVar {
		return true
	}
	v := x.m.varByName[k.v]
	return v != nil && !v.initialized()
}

func helps(kind writeKind, pol int) bool {
	switch pol {
	case 1:
		return kind == wSet || kind == wInc || kind == wTrue || kind == wBoolArg
	case -1:
		return kind == wSet || kind == wDec || kind == wClear || kind == wFalse || kind == wBoolArg
	}
	return kind == wSet || kind == wInc || kind == wTrue || kind == wBoolArg
}

func (x *extraction) firstWrite(a int, k varKey, pred func(write) bool) (write, bool) {
	for _, w := range x.sums[a].writes {
		if w.key.overlaps(k) && pred(w) {
			return w, true
		}
	}
	return write{}, false
}

// dependsOn: entry a checks state k before its write at seq, so it runs
// only once k is already established and cannot be what establishes it.
func (x *extraction) dependsOn(a int, k varKey, seq int) bool {
	for _, c := range x.sums[a].clauses {
		if c.seq >= seq {
			continue
		}
		// Only checks that want k established count: a function that
		// requires k unset (voteStartTime == 0) is what sets it up.
		if c.kind == cGate && c.gate.want && c.gate.key.overlaps(k) {
			return true
		}
		for _, r := range c.reads {
			if r.pol >= 0 && r.key.overlaps(k) {
				return true
			}
		}
	}
	return false
}

// flagWrite is entry a's first direct write to a boolean flag on every
// success path (whole-struct writes create new entries, and a flag flipped
// only on some paths is no reliable switch).
func (x *extraction) flagWrite(a int, g gate) (writeKind, bool) {
	for _, w := range x.sums[a].writes {
		if w.whole || w.cond || !w.key.overlaps(g.key) {
			continue
		}
		switch {
		case w.kind == wClear:
			return wFalse, true
		case w.kind == wTrue || w.kind == wFalse || w.kind == wBoolArg:
			return w.kind, true
		case g.numeric && (w.kind == wSet || w.kind == wInc):
			return wTrue, true // a number set to something: the flag "is set"
		}
	}
	return 0, false
}

// gateRelations applies the flag rules to B's gate `key == want`.
func (x *extraction) gateRelations(b int, c clause) {
	g := c.gate
	var enable, disable []int
	for a := range x.m.entries {
		if a == b {
			continue
		}
		kind, ok := x.flagWrite(a, g)
		if !ok {
			continue
		}
		if kind == wBoolArg || (kind == wTrue) == g.want {
			enable = append(enable, a)
		}
		if kind == wBoolArg || (kind == wTrue) != g.want {
			disable = append(disable, a)
		}
	}
	initOK := x.initiallyHolds(g)
	selfDisables := false // B flips its own gate (pause requires !paused, sets it)
	if kind, ok := x.flagWrite(b, g); ok && kind != wBoolArg && (kind == wTrue) != g.want {
		selfDisables = true
	}
	switch {
	case !g.mapping && len(enable) > 0 && (len(disable) > 0 || selfDisables): // a switch
		for _, a := range enable {
			x.addRelation(dcrgraph.Relation{Type: dcrgraph.Include, Source: x.ids[a], Target: x.ids[b]}, RuleSwitchOn)
		}
		for _, a := range disable {
			x.addRelation(dcrgraph.Relation{Type: dcrgraph.Exclude, Source: x.ids[a], Target: x.ids[b]}, RuleSwitchOf)
		}
		if !initOK {
			x.excludedAtStart(b)
		}
	case !initOK:
		for _, a := range enable {
			x.addCondition(a, b, c, RuleOneTime)
		}
	case len(enable) == 0:
		for _, a := range disable {
			x.addRelation(dcrgraph.Relation{Type: dcrgraph.Exclude, Source: x.ids[a], Target: x.ids[b]}, RuleDisable)
		}
	}
}

func (x *extraction) excludedAtStart(b int) { x.excluded[b] = true }

// initiallyHolds says whether a flag has the wanted value after deployment
// (unknown initial values count as holding: DCR stays permissive).
func (x *extraction) initiallyHolds(g gate) bool {
	v := x.m.varByName[g.key.v]
	lit := ""
	switch {
	case !g.mapping:
		lit = v.ctorLiteral
		if lit == "" {
			lit = v.initText
		}
	case v.ctorLiteral == "":
	case g.senderKeyed && v.ctorKeyedBySender:
		lit = v.ctorLiteral
	default:
		return true // the constructor filled entries we cannot tell apart
	}
	if g.numeric { // "is set": a non-zero literal or anything else counts as set
		switch {
		case lit == "" || isZeroText(lit):
			lit = "false"
		case lit != "?":
			lit = "true"
		}
	}
	switch lit {
	case "true":
		return g.want
	case "false", "":
		return !g.want
	}
	return true
}

// once: B needs a flag and flips it itself (require(!done); done = true),
// checking it before it writes anything (a flag of an entry B has just
// created, as submitTransaction's own confirmation, does not count).
func (x *extraction) once(b int) bool {
	first := int(^uint(0) >> 1)
	for _, w := range x.sums[b].writes {
		first = min(first, w.seq)
	}
	for _, c := range x.sums[b].clauses {
		if c.kind != cGate || c.seq > first {
			continue
		}
		if kind, ok := x.flagWrite(b, c.gate); ok && kind != wBoolArg && (kind == wTrue) != c.gate.want {
			return true
		}
	}
	return false
}

func (x *extraction) addCondition(a, b int, c clause, rule string) {
	k := [2]int{a, b}
	x.conds[k] = append(x.conds[k], c)
	if _, ok := x.rules[k]; !ok {
		x.rules[k] = rule
	}
}

// addConditions turns the collected pairs into relations whose guard is
// "B's precondition does not hold yet", so the condition stops blocking B
// once the state satisfies it by any route.
func (x *extraction) addConditions() {
	keys := make([][2]int, 0, len(x.conds))
	for k := range x.conds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][1] != keys[j][1] {
			return keys[i][1] < keys[j][1]
		}
		return keys[i][0] < keys[j][0]
	})
	for _, k := range keys {
		guard, consts := x.m.guardFor(x.conds[k], x.props[k[1]].args)
		x.addRelation(dcrgraph.Relation{Type: dcrgraph.Condition, Source: x.ids[k[0]], Target: x.ids[k[1]],
			Guard: guard, Constants: consts}, x.rules[k])
	}
}

// ownerOnly: the entry checks that the owner calls it.
func (x *extraction) ownerOnly(b int) bool {
	for _, c := range x.sums[b].clauses {
		if c.kind == cRole && c.role == "owner" {
			return true
		}
	}
	return false
}

// responses: a payable function makes pending, while there is a balance, a
// function that sends the whole balance out, or an owner-only function that
// sends ether out (withdraw(to, amount)).
func (x *extraction) responses() {
	for a, e := range x.m.entries {
		if !e.payable {
			continue
		}
		for b := range x.m.entries {
			if b != a && (x.sums[b].sendsBalance || (x.sums[b].sendsEther && x.ownerOnly(b))) {
				x.addRelation(dcrgraph.Relation{Type: dcrgraph.Response, Source: x.ids[a], Target: x.ids[b],
					Guard: "address(this).balance > 0"}, RuleResponse)
			}
		}
	}
}

func (x *extraction) addRelation(r dcrgraph.Relation, rule string) {
	for _, have := range x.rels {
		if have.Type == r.Type && have.Source == r.Source && have.Target == r.Target {
			return
		}
	}
	x.rels = append(x.rels, r)
	x.info = append(x.info, RelationInfo{Rule: rule})
}

// result assembles the graph: events in source order, relations sorted.
func (x *extraction) result() (*Result, error) {
	res := &Result{Events: map[string]EventInfo{}}
	g := &dcrgraph.Graph{Contract: x.m.name, Extractor: StaticName}
	excluded := x.excluded
	for i, e := range x.m.entries {
		role := dcrgraph.RoleAny
		for _, c := range x.sums[i].clauses {
			if c.kind == cRole && c.role == "owner" {
				role = dcrgraph.RoleOwner
			}
		}
		p := x.props[i]
		ev := dcrgraph.Event{ID: x.ids[i], Function: e.fn.Name, Branch: "success", Role: role, Once: x.once(i),
			Included: !excluded[i], Args: p.args, Value: p.value}
		g.Events = append(g.Events, ev)
		res.Events[ev.ID] = EventInfo{ArgSources: p.argSources, ValueSource: p.valueSource}
		if x.sums[i].failBranch {
			fp := x.failProps[i]
			fail := ev
			fail.ID, fail.Branch, fail.Once, fail.Included = x.failIDs[i], "fail", false, true
			fail.Args, fail.Value = fp.args, fp.value
			g.Events = append(g.Events, fail)
			res.Events[fail.ID] = EventInfo{ArgSources: fp.argSources, ValueSource: fp.valueSource}
		}
	}
	order := make([]int, len(x.rels))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := x.rels[order[i]], x.rels[order[j]]
		return strings.Join([]string{a.Source, a.Target, string(a.Type)}, "\x00") <
			strings.Join([]string{b.Source, b.Target, string(b.Type)}, "\x00")
	})
	for _, i := range order {
		g.Relations = append(g.Relations, x.rels[i])
		res.Relations = append(res.Relations, x.info[i])
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("dcrextract: static graph of %s: %w", x.m.name, err)
	}
	res.Graph = g
	return res, nil
}

// deployerArgs lists the positions of the constructor arguments that carry
// the deployer's address in the recorded deployment (OpenZeppelin 5's
// `constructor(address initialOwner) Ownable(initialOwner)`, deployed with
// the deployer as initialOwner). Arguments that do not decode name none,
// and the owner stays unknown.
func deployerArgs(parsed *abi.ABI, in Input) map[int]bool {
	out := map[int]bool{}
	if len(in.ConstructorArgs) == 0 || in.Caller == (common.Address{}) {
		return out
	}
	values, err := parsed.Constructor.Inputs.Unpack(in.ConstructorArgs)
	if err != nil {
		return out
	}
	for i, v := range values {
		if a, ok := v.(common.Address); ok && a == in.Caller {
			out[i] = true
		}
	}
	return out
}

// FromRecord builds the static extractor's input from a corpus record and
// the original's compiler output: its sources, its history, its deployer and
// the constructor arguments it was deployed with.
func FromRecord(rec *deploy.Record, out *solc.Output) Input {
	in := Input{Contract: rec.Name(), Output: out, Caller: rec.Deployer()}
	if c, err := rec.Target(out); err == nil {
		// Linking does not change the code's length, so the code linked at
		// any addresses tells where the arguments start in the creation input.
		anywhere := map[string]common.Address{}
		for _, lib := range c.Libraries() {
			anywhere[lib] = common.Address{}
		}
		if code, err := c.CreationCode(anywhere); err == nil {
			in.ConstructorArgs, _, _ = rec.ConstructorArgs(code)
		}
	}
	if rec.Files != nil {
		in.Sources = rec.Files.Files
	}
	for _, tx := range rec.Txs {
		in.History = append(in.History, Call{Data: tx.Input, Value: tx.Value, Succeeded: tx.Succeeded})
	}
	return in
}

// Version identifies the static rules: bump it when the graphs they extract
// from the same contract change, so stages recompute them.
const Version = "static-4"
