package vuln

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// Class is one of the five vulnerability classes (SAEFUZZ Table 1).
type Class string

const (
	Reentrancy   Class = "reentrancy"
	Arithmetic   Class = "arithmetic"
	BlockState   Class = "block_state"
	Delegatecall Class = "delegatecall"
	FrozenEther  Class = "frozen_ether"
)

// Classes lists the classes in report order.
var Classes = []Class{Reentrancy, Arithmetic, BlockState, Delegatecall, FrozenEther}

// Evidence is one line of a finding's trace excerpt.
type Evidence struct {
	Tx       int      `json:"tx"` // index in the seed
	Op       string   `json:"op"`
	PC       uint64   `json:"pc"`
	Depth    int      `json:"depth"`
	Slot     string   `json:"slot,omitempty"`
	Value    string   `json:"value,omitempty"`    // stored word, or wei sent
	Operands []string `json:"operands,omitempty"` // overflow: the two stack operands
	Gas      uint64   `json:"gas,omitempty"`      // CALL gas operand
	To       string   `json:"to,omitempty"`
	Taken    *bool    `json:"taken,omitempty"` // JUMPI outcome
	Note     string   `json:"note,omitempty"`
}

// Finding is the first seed that made one class's oracle fire.
type Finding struct {
	Class      Class
	Seed       string // the transaction sequence, JSON (see txJSON)
	TxIndex    int    // the transaction that completed the evidence
	Evidence   string // the trace excerpt, JSON list of Evidence
	Reproduces bool   // a rerun of the seed on a fresh fork fires the oracle again
	Generation int    // generation of the first triggering seed
	Triggers   int    // seeds (over all generations) that fired it

	seed *Seed
}

// hit is one oracle firing on one seed.
type hit struct {
	tx       int
	evidence []Evidence
}

// oracles judges executed seeds and keeps the first finding per class.
type oracles struct {
	e     *engine
	found map[Class]*Finding

	// Frozen Ether is judged over every seed of the run.
	sent      bool     // some seed reached an instruction that sends Ether out
	frozenHit *Finding // first seed with a successful positive-value transaction

	// Block state: counterfactual verdicts per (branch pc, transfer pc):
	// how inverting the branch changed the transfer, "" when it did not.
	decided         map[[2]uint64]string
	unlocked        map[[2]uint64]event // block state: the payout a branch's inversion unlocks (kind 0: none)
	counterfactuals int

	sites    map[string]bool // Site keys recorded
	perClass map[Class]int   // Sites recorded per class
}

func newOracles(e *engine) *oracles {
	return &oracles{e: e, found: map[Class]*Finding{}, decided: map[[2]uint64]string{}, unlocked: map[[2]uint64]event{},
		sites: map[string]bool{}, perClass: map[Class]int{}}
}

// observe applies every oracle to one executed seed.
func (e *engine) observe(run *seedRun, gen int) {
	o := e.oracles
	all := o.checkAll(run)
	for _, class := range Classes {
		hs := all[class]
		if len(hs) == 0 {
			continue
		}
		for _, h := range hs {
			o.site(class, run, h)
		}
		h := hs[0]
		if f := o.found[class]; f != nil {
			f.Triggers++
			continue
		}
		o.found[class] = o.finding(class, run, h, gen)
	}
	if sendsEther(run) {
		o.sent = true
	}
	if o.frozenHit == nil {
		if h, ok := o.valueIn(run); ok {
			o.frozenHit = o.finding(FrozenEther, run, h, gen)
		}
	} else if _, ok := o.valueIn(run); ok {
		o.frozenHit.Triggers++
	}
}

// Site is one distinct place an oracle fired: the class, the function the
// completing transaction called, and the program counters of its evidence
// in the target's runtime code (the stage maps them to source lines).
type Site struct {
	Class    Class
	Function string   // signature of the called function, or "fallback"
	PCs      []uint64 // evidence instructions, in evidence order
}

// maxSites bounds the distinct sites a run keeps per class.
const maxSites = 64

// site records where a hit happened, once per distinct (class, function,
// evidence instructions).
func (o *oracles) site(class Class, run *seedRun, h hit) {
	if o.perClass[class] >= maxSites {
		return // full: no key to build on every later hit of the class
	}
	st := Site{Class: class}
	if h.tx < len(run.seed.Txs) {
		st.Function = run.seed.Txs[h.tx].fn.name
	}
	for _, ev := range h.evidence {
		if ev.Op != "-" {
			st.PCs = append(st.PCs, ev.PC)
		}
	}
	key := fmt.Sprint(st.Class, st.Function, st.PCs)
	if o.sites[key] {
		return
	}
	o.sites[key] = true
	o.perClass[class]++
	o.e.report.Sites = append(o.e.report.Sites, st)
}

func (o *oracles) finding(class Class, run *seedRun, h hit, gen int) *Finding {
	ev, _ := json.Marshal(h.evidence)
	return &Finding{Class: class, Seed: seedJSON(run.seed, o.e.actors), TxIndex: h.tx, Evidence: string(ev),
		Generation: gen, Triggers: 1, seed: run.seed.clone()}
}

// check runs the per-seed oracles (all but frozen Ether): the first hit of
// each class.
func (o *oracles) check(run *seedRun) map[Class]hit {
	out := map[Class]hit{}
	for class, hs := range o.checkAll(run) {
		out[class] = hs[0]
	}
	return out
}

// checkAll runs the per-seed oracles and returns every hit of each class
// that fired, the first first: reentrancy and arithmetic report each
// place their evidence holds in the seed (per-bug recall needs them all),
// the others their first.
func (o *oracles) checkAll(run *seedRun) map[Class][]hit {
	out := map[Class][]hit{}
	type oracle func(*seedRun) []hit
	first := func(f func(*seedRun) (hit, bool)) oracle {
		return func(run *seedRun) []hit {
			if h, ok := f(run); ok {
				return []hit{h}
			}
			return nil
		}
	}
	full := map[Class]oracle{Reentrancy: o.reentrancy, Arithmetic: o.arithmetic, BlockState: first(o.blockState), Delegatecall: first(o.delegatecall)}
	if o.e.cfg.Ablation == AblationOpcode {
		full = map[Class]oracle{Reentrancy: first(opcodeOracle(vm.CALL)), Arithmetic: first(opcodeOracle(vm.ADD, vm.SUB, vm.MUL, vm.DIV, vm.MOD)),
			BlockState: first(opcodeOracle(vm.TIMESTAMP, vm.NUMBER)), Delegatecall: first(opcodeOracle(vm.DELEGATECALL, vm.CALLCODE))}
	}
	for class, f := range full {
		if hs := f(run); len(hs) > 0 {
			out[class] = hs
		}
	}
	return out
}

// finish decides frozen Ether, reruns every finding's seed and fills the
// report's findings in class order.
func (e *engine) finish() {
	e.report.InstructionsCovered, e.report.BranchesCovered = e.total.instructions(), e.total.branches()
	o := e.oracles
	if o.frozenHit != nil && (e.cfg.Ablation == AblationOpcode || !o.sent && e.noExit()) {
		o.found[FrozenEther] = o.frozenHit
	}
	for class, f := range o.found {
		run := e.replay(f.seed)
		if class == FrozenEther {
			_, in := o.valueIn(run)
			f.Reproduces = in && (e.cfg.Ablation == AblationOpcode || !sendsEther(run) && e.noExit())
			continue
		}
		_, f.Reproduces = o.check(run)[class]
	}
	for _, class := range Classes {
		if f := o.found[class]; f != nil {
			e.report.Findings = append(e.report.Findings, *f)
		}
	}
}

// noExit is frozen Ether's static condition (extension frozen-static): the
// code holds no instruction that could send Ether. SAEFUZZ (saefuzz.txt §3,
// Table 3) asks only that no outward transfer ran, so under its profile the
// condition always holds.
func (e *engine) noExit() bool { return !e.cfg.has("frozen-static") || e.exitSites == 0 }

// reentrancySAEFUZZ is the oracle as saefuzz.txt §3 states it (reentrancy
// class, profile saefuzz): a successful CALL of the target's code that
// forwards more than the gas threshold and transfers a positive value, and a
// read–call–write of one storage slot around it in the calling frame.
func (o *oracles) reentrancySAEFUZZ(run *seedRun) []hit {
	var hits []hit
	for ti, tx := range run.txs {
		evs := tx.trace.events
		for ci, c := range evs {
			if c.kind != evCall || c.op != vm.CALL || !c.targetCode || c.reverted || !c.success ||
				c.gas <= o.e.cfg.GasThreshold || c.word.IsZero() {
				continue
			}
			read, write, ok := readCallWrite(evs, ci)
			if !ok || o.e.cfg.has("reentry-confirmation") && evs[write].word == evs[read].word {
				// Reentrancy class, guarded call (extended): a write after
				// the call that puts back the value read before it is a
				// mutex's unlock (`locked = false`), not stale state.
				continue
			}
			hits = append(hits, hit{tx: ti, evidence: []Evidence{
				o.evidence(ti, evs[read], "read before the call"),
				o.evidence(ti, c, fmt.Sprintf("value call with gas > %d", o.e.cfg.GasThreshold)),
				o.evidence(ti, evs[write], "write of the same slot after the call"),
			}})
		}
	}
	return hits
}

// reentrancy (profile extended, extension reentry-confirmation): a successful CALL of the target's code to the attacker
// forwarding more than the gas threshold, a read of a slot before it and a
// write of the same slot after it in the same frame (read–call–write), and
// the confirmation that the attacker's re-entry exploited the stale state:
// either the call carried value and the target sent Ether again before it
// returned, or a re-entrant call into any function of the target (the same
// one or another: cross-function reentrancy, or a callback a modifier makes
// before the body) changed a slot the calling frame had read before the
// call, and did not roll back. A value of zero is allowed in the second
// case only: the stale state is then what the call's frame goes on to use.
func (o *oracles) reentrancy(run *seedRun) []hit {
	// Both profiles take SAEFUZZ's evidence (extended without a mutex's
	// unlock as the write); extended also takes the attacker's re-entry
	// (below), which admits zero-value callbacks.
	if hits := o.reentrancySAEFUZZ(run); len(hits) > 0 || !o.e.cfg.has("reentry-confirmation") {
		return hits
	}
	var hits []hit
	for ti, tx := range run.txs {
		evs := tx.trace.events
		for ci, c := range evs {
			if c.kind != evCall || c.op != vm.CALL || !c.targetCode || c.reverted || !c.success ||
				c.gas <= o.e.cfg.GasThreshold || c.to != AttackerAddress || !c.reentered {
				continue
			}
			read, write, ok := readCallWrite(evs, ci)
			if !ok {
				continue
			}
			ev := []Evidence{o.evidence(ti, evs[read], "read before the call")}
			if !c.word.IsZero() && c.nestedSends > 0 {
				ev = append(ev, o.evidence(ti, c, fmt.Sprintf("value call with gas > %d; the attacker re-entered and received Ether %d more time(s)", o.e.cfg.GasThreshold, c.nestedSends)))
			} else if k, ok := reentrantChange(evs, ci); ok {
				ev = append(ev, o.evidence(ti, c, fmt.Sprintf("call with gas > %d; the attacker re-entered the target", o.e.cfg.GasThreshold)),
					o.evidence(ti, evs[k], "the re-entrant call changed a slot the calling frame read before the call"))
			} else {
				continue
			}
			ev = append(ev, o.evidence(ti, evs[write], "write of the same slot after the call"))
			hits = append(hits, hit{tx: ti, evidence: ev})
		}
	}
	return hits
}

// reentrantChange finds, inside the call evs[ci] (the events that follow it
// at a greater depth), a write of the target's code in another frame that
// changed a slot the call's frame read before the call, and was kept.
func reentrantChange(evs []event, ci int) (int, bool) {
	c := evs[ci]
	read := map[uint256.Int]bool{}
	for r := ci - 1; r >= 0; r-- {
		if l := evs[r]; l.kind == evSLoad && l.frame == c.frame && !l.reverted {
			read[l.slot] = true
		}
	}
	for k := ci + 1; k < len(evs) && evs[k].depth > c.depth; k++ {
		s := evs[k]
		if s.kind == evSStore && s.targetCode && !s.reverted && s.changed && s.frame != c.frame && read[s.slot] {
			return k, true
		}
	}
	return 0, false
}

// readCallWrite finds an SLOAD before evs[ci] and an SSTORE after it of the
// same slot, both in the call's frame and not rolled back.
func readCallWrite(evs []event, ci int) (read, write int, ok bool) {
	c := evs[ci]
	for w := ci + 1; w < len(evs); w++ {
		s := evs[w]
		if s.kind != evSStore || s.frame != c.frame || s.reverted {
			continue
		}
		for r := ci - 1; r >= 0; r-- {
			l := evs[r]
			if l.kind == evSLoad && l.frame == c.frame && !l.reverted && l.slot == s.slot {
				return r, w, true
			}
		}
	}
	return 0, 0, false
}

// arithmetic: an ADD, SUB, MUL, DIV or MOD whose result left the intended
// integer range (256 bits, a narrower type its cleanup truncated, or a
// division by zero; see tracer.arith and tracer.narrow), in code that went
// on without reverting, and whose result (followed by taint) reached a
// storage write or the value of a call that did not roll back (how this
// project reads the paper's "execution continues": the wrapped value is
// kept).
func (o *oracles) arithmetic(run *seedRun) []hit {
	type site struct {
		tx int
		ev event
	}
	var overflows []site // first event of each overflow site, in order
	var seen label
	var hits []hit
	reported := map[uint64]bool{} // overflow sites already reported (by pc)
	for ti, tx := range run.txs {
		for _, ev := range tx.trace.events {
			if ev.reverted {
				continue
			}
			switch {
			case ev.kind == evOverflow:
				if seen&ev.taint == 0 {
					seen |= ev.taint
					overflows = append(overflows, site{ti, ev})
				}
			case ev.kind == evSStore && ev.targetCode && ev.taint&overflowLabels != 0,
				ev.kind == evCall && ev.success && !ev.word.IsZero() && ev.taint&overflowLabels != 0:
				for _, s := range overflows {
					if ev.taint&s.ev.taint != 0 && !reported[s.ev.pc] {
						reported[s.ev.pc] = true
						sink := "the wrapped result is stored"
						if ev.kind == evCall {
							sink = "the wrapped result is the value sent"
						}
						hits = append(hits, hit{tx: ti, evidence: []Evidence{
							o.evidence(s.tx, s.ev, "result outside the intended integer range; execution continued"),
							o.evidence(ti, ev, sink),
						}})
					}
				}
			}
		}
	}
	return hits
}

// blockState: TIMESTAMP or NUMBER (through stack, memory and storage)
// decides how much Ether a successful call sends; or a branch on it, earlier
// in the same frame, decides whether a successful Ether transfer happens or
// how much it sends: rerun with that branch's outcome inverted (see
// decides), the transfer is gone or sends another amount.
func (o *oracles) blockState(run *seedRun) (hit, bool) {
	for ti, tx := range run.txs {
		evs := tx.trace.events
		for si, s := range evs {
			if !o.payout(s) || s.reverted || !s.targetCode {
				continue
			}
			if s.kind == evCall && s.taint&envLabels != 0 {
				return hit{tx: ti, evidence: []Evidence{o.evidence(ti, s, "value derived from "+envNames(s.taint))}}, true
			}
			for ji := si - 1; ji >= 0; ji-- {
				j := evs[ji]
				if j.kind != evJumpI || j.frame != s.frame || j.reverted {
					continue
				}
				if !isSend(s) && timeLock(evs, ji) {
					continue // send-calls: a zero-wei send counts after a draw, not a deadline
				}
				if how, ok := o.decides(run.seed, ti, j, s); ok {
					return hit{tx: ti, evidence: []Evidence{
						o.evidence(ti, j, "branch on "+envNames(j.taint)),
						o.evidence(ti, s, "Ether sent after the branch; with the branch inverted (counterfactual rerun) "+how),
					}}, true
				}
			}
		}
		// Block-state class, gated payout the block did not unlock (DASP 8:
		// a lottery or roulette paying when now % 15 == 0, a draw on
		// blockhash(block.number − 1)): a branch on block state in a
		// transaction that sent no Ether after it, which, inverted, makes
		// the target send Ether. SAEFUZZ's "controls whether Ether is
		// transferred" read in both directions: without it only the lucky
		// block that paid is evidence, which a fuzzer rarely draws.
		if tx.success {
			for ji, j := range evs {
				if j.kind != evJumpI || j.reverted || o.sentAfter(evs, j) {
					continue
				}
				if si, ok := o.unlocks(run.seed, ti, j); ok && (isSend(si) || !timeLock(evs, ji)) {
					return hit{tx: ti, evidence: []Evidence{
						o.evidence(ti, j, "branch on "+envNames(j.taint)+"; no Ether sent after it"),
						o.evidence(ti, si, "with the branch inverted (counterfactual rerun) the target sends Ether"),
					}}, true
				}
			}
		}
	}
	return hit{}, false
}

// sentAfter reports whether the target's code sent Ether, and kept it sent,
// after the branch j in its transaction.
func (o *oracles) sentAfter(evs []event, j event) bool {
	past := false
	for _, ev := range evs {
		if ev.kind == evJumpI && ev.ord == j.ord && ev.pc == j.pc {
			past = true
			continue
		}
		if past && o.payout(ev) && !ev.reverted && ev.targetCode {
			return true
		}
	}
	return false
}

// unlocks reruns the seed with branch j of transaction tx inverted and
// returns the first transfer of Ether the target's code then makes and
// keeps in that transaction (block-state class: a gated payout). Verdicts
// are cached per branch instruction and share decides' bound of reruns.
func (o *oracles) unlocks(seed *Seed, tx int, j event) (event, bool) {
	key := [2]uint64{j.pc, ^uint64(0)}
	if v, ok := o.unlocked[key]; ok {
		return v, v.kind != 0
	}
	if o.counterfactuals >= maxCounterfactuals {
		return event{}, false
	}
	o.counterfactuals++
	flipped := o.e.replayFlipped(seed, flipPoint{tx: tx, ord: j.ord})
	var found event
	if tx < len(flipped.txs) && flipped.txs[tx].success {
		for _, ev := range flipped.txs[tx].trace.events {
			if o.payout(ev) && !ev.reverted && ev.targetCode {
				found = ev
				break
			}
		}
	}
	o.unlocked[key] = found
	return found, found.kind != 0
}

// maxCounterfactuals bounds the counterfactual reruns of one detector run.
const maxCounterfactuals = 64

// decides reports whether the branch j controls the transfer s of
// transaction tx: the seed is rerun with j's outcome inverted, and the
// transfer (same instruction, same amount) no longer happens in that
// transaction. A branch both outcomes of which lead to the same transfer
// (bookkeeping on the time, say) does not decide it. Verdicts are kept per
// (branch, transfer) instruction pair; past maxCounterfactuals reruns an
// unjudged pair does not count.
func (o *oracles) decides(seed *Seed, tx int, j, s event) (string, bool) {
	key := [2]uint64{j.pc, s.pc}
	if v, ok := o.decided[key]; ok {
		return v, v != ""
	}
	if o.counterfactuals >= maxCounterfactuals {
		return "", false
	}
	o.counterfactuals++
	flipped := o.e.replayFlipped(seed, flipPoint{tx: tx, ord: j.ord})
	how := "the transfer does not happen"
	if tx < len(flipped.txs) {
		for _, ev := range flipped.txs[tx].trace.events {
			if ev.kind != s.kind || ev.pc != s.pc || !o.payout(ev) || ev.reverted || !ev.targetCode {
				continue
			}
			if ev.word == s.word {
				how = ""
				break
			}
			how = fmt.Sprintf("it sends %s instead", ev.word.Dec())
		}
	}
	o.decided[key] = how
	return how, how != ""
}

// payout is what the block-state oracle counts as a transfer out of the
// target: isSend, and under extended (extension send-calls) also a send or
// transfer of zero wei, a successful CALL of no value with at most the
// 2,300-gas stipend (solc's shape for `send` and `transfer`), as
// ContractFuzzer's block-state oracles count a SendCall whatever its value.
// Block-state class, a lottery paying back the stake on a lucky block when
// the stake is 0 (a bet function that takes no Ether): the block still
// decides whether the payout runs.
func (o *oracles) payout(ev event) bool {
	if isSend(ev) {
		return true
	}
	return o.e.cfg.has("send-calls") && ev.kind == evCall && ev.op == vm.CALL && ev.word.IsZero() && ev.success &&
		ev.gas > 0 && ev.gas <= 2300 && ev.to != o.e.target.Address
}

// timeLock reports whether the block-state branch evs[ji] is a deadline: the
// last event of its frame before it is a comparison of the block's time or
// number with a value that is not (`now > last + 12 hours`), not a draw on
// block state (`block.number % 2 == 0`, a hash of `now`). A miner moves a
// deadline by seconds only (DASP's 15-second rule), so send-calls' zero-wei
// sends count only after a draw (block-state class: lotteries, not time
// locks); Ether sent after either counts as before.
func timeLock(evs []event, ji int) bool {
	j := evs[ji]
	for k := ji - 1; k >= 0; k-- {
		if ev := evs[k]; ev.frame == j.frame {
			return ev.kind == evCmp
		}
	}
	return false
}

// isSend reports whether ev moved (or tried to move) Ether out of the target.
func isSend(ev event) bool {
	switch ev.kind {
	case evCall:
		return (ev.op == vm.CALL || ev.op == vm.CALLCODE) && !ev.word.IsZero() && ev.success
	case evSelfDestruct:
		return true
	}
	return false
}

// delegatecall: a DELEGATECALL (or CALLCODE) of the target's code whose
// target address or input comes from transaction input, in a transaction
// that went through (SAEFUZZ §3); under extended (unprivileged-delegate) one
// an account other than the deployer sent.
func (o *oracles) delegatecall(run *seedRun) (hit, bool) {
	for ti, tx := range run.txs {
		if !tx.success || o.e.cfg.has("unprivileged-delegate") && o.e.senderIsPrivileged(tx.sender) {
			continue
		}
		for _, ev := range tx.trace.events {
			if ev.kind != evCall || (ev.op != vm.DELEGATECALL && ev.op != vm.CALLCODE) || !ev.targetCode || ev.reverted {
				continue
			}
			var what string
			switch {
			case ev.addrTaint&srcCalldata != 0:
				what = "target address taken from transaction input"
			case ev.dataTaint&srcCalldata != 0:
				what = "call data taken from transaction input"
			default:
				continue
			}
			note := fmt.Sprintf("%s; sent by %s", what, o.e.actors[tx.sender].name)
			return hit{tx: ti, evidence: []Evidence{o.evidence(ti, ev, note)}}, true
		}
	}
	return hit{}, false
}

// valueIn finds a successful transaction that paid Ether into the target's
// code (the first half of frozen Ether).
func (o *oracles) valueIn(run *seedRun) (hit, bool) {
	for ti, tx := range run.txs {
		if !tx.success {
			continue
		}
		for _, ev := range tx.trace.events {
			if ev.kind == evValueIn && !ev.reverted {
				e := o.evidence(ti, ev, "positive-value transaction succeeded")
				e.Op = "CALLVALUE"
				none := Evidence{Tx: ti, Op: "-", Note: fmt.Sprintf("no generated sequence reached an instruction sending Ether out of the contract (CALL or CALLCODE with value, SELFDESTRUCT), and the code holds none that could (no CALL with a value not known to be 0, CALLCODE, DELEGATECALL or SELFDESTRUCT; %d CALL-family or SELFDESTRUCT instructions in all)", o.e.sendSites)}
				return hit{tx: ti, evidence: []Evidence{e, none}}, true
			}
		}
	}
	return hit{}, false
}

// sendsEther reports whether a seed reached an instruction that sends
// Ether out of the target, whatever became of it.
func sendsEther(run *seedRun) bool {
	for _, tx := range run.txs {
		for _, ev := range tx.trace.events {
			if ev.kind == evSelfDestruct || ev.kind == evCall && (ev.op == vm.CALL || ev.op == vm.CALLCODE) && !ev.word.IsZero() {
				return true
			}
		}
	}
	return false
}

// opcodeOracle is the ablation's oracle: the class fires as soon as the
// target's code executes one of its opcodes.
func opcodeOracle(ops ...vm.OpCode) func(*seedRun) (hit, bool) {
	return func(run *seedRun) (hit, bool) {
		for ti, tx := range run.txs {
			if tx.trace.ops.hasAny(ops...) {
				return hit{tx: ti, evidence: []Evidence{{Tx: ti, Op: ops[0].String(), Note: "opcode executed (opcode-presence ablation)"}}}, true
			}
		}
		return hit{}, false
	}
}

func (o *oracles) evidence(tx int, ev event, note string) Evidence {
	x := Evidence{Tx: tx, Op: ev.op.String(), PC: ev.pc, Depth: ev.depth, Note: note}
	switch ev.kind {
	case evSLoad:
		x.Slot = ev.slot.Hex()
	case evSStore:
		x.Slot, x.Value = ev.slot.Hex(), ev.word.Dec()
	case evCall, evValueIn:
		x.Value, x.Gas = ev.word.Dec(), ev.gas
		if ev.kind == evCall {
			x.To = ev.to.Hex()
		}
	case evOverflow:
		x.Operands = []string{ev.a.Dec(), ev.b.Dec()}
	case evJumpI:
		taken := ev.taken
		x.Taken = &taken
	}
	return x
}

func envNames(l label) string {
	if l&liveEnv == 0 && l&srcDeployBlock != 0 {
		return "a value the constructor derived from its block"
	}
	switch {
	case l&srcTimestamp != 0 && l&srcNumber != 0:
		return "TIMESTAMP and NUMBER"
	case l&srcNumber != 0:
		return "NUMBER"
	}
	return "TIMESTAMP"
}
