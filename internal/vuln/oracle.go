package vuln

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/ethereum/go-ethereum/core/vm"
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
}

func newOracles(e *engine) *oracles { return &oracles{e: e, found: map[Class]*Finding{}} }

// observe applies every oracle to one executed seed.
func (e *engine) observe(run *seedRun, gen int) {
	o := e.oracles
	for class, h := range o.check(run) {
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

func (o *oracles) finding(class Class, run *seedRun, h hit, gen int) *Finding {
	ev, _ := json.Marshal(h.evidence)
	return &Finding{Class: class, Seed: seedJSON(run.seed, o.e.actors), TxIndex: h.tx, Evidence: string(ev),
		Generation: gen, Triggers: 1, seed: run.seed.clone()}
}

// check runs the per-seed oracles (all but frozen Ether).
func (o *oracles) check(run *seedRun) map[Class]hit {
	out := map[Class]hit{}
	type oracle func(*seedRun) (hit, bool)
	full := map[Class]oracle{Reentrancy: o.reentrancy, Arithmetic: o.arithmetic, BlockState: o.blockState, Delegatecall: o.delegatecall}
	if o.e.cfg.Ablation == AblationOpcode {
		full = map[Class]oracle{Reentrancy: opcodeOracle(vm.CALL), Arithmetic: opcodeOracle(vm.ADD, vm.SUB, vm.MUL),
			BlockState: opcodeOracle(vm.TIMESTAMP, vm.NUMBER), Delegatecall: opcodeOracle(vm.DELEGATECALL, vm.CALLCODE)}
	}
	for class, f := range full {
		if h, ok := f(run); ok {
			out[class] = h
		}
	}
	return out
}

// finish decides frozen Ether, reruns every finding's seed and fills the
// report's findings in class order.
func (e *engine) finish() {
	e.report.InstructionsCovered, e.report.BranchesCovered = e.total.instructions(), e.total.branches()
	o := e.oracles
	if o.frozenHit != nil && (!o.sent || e.cfg.Ablation == AblationOpcode) {
		o.found[FrozenEther] = o.frozenHit
	}
	for class, f := range o.found {
		run := e.replay(f.seed)
		if class == FrozenEther {
			_, in := o.valueIn(run)
			f.Reproduces = in && (e.cfg.Ablation == AblationOpcode || !sendsEther(run))
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

// reentrancy: a successful CALL of the target's code forwarding more than
// the gas threshold with positive value, a read of a slot before it and a
// write of the same slot after it in the same frame (read–call–write), and
// the confirmation: the call went to the attacker, which re-entered, and the
// target sent Ether again before the call returned.
func (o *oracles) reentrancy(run *seedRun) (hit, bool) {
	for ti, tx := range run.txs {
		evs := tx.trace.events
		for ci, c := range evs {
			if c.kind != evCall || c.op != vm.CALL || !c.targetCode || c.reverted || !c.success ||
				c.word.IsZero() || c.gas <= o.e.cfg.GasThreshold {
				continue
			}
			if c.to != AttackerAddress || !c.reentered || c.nestedSends == 0 {
				continue
			}
			read, write, ok := readCallWrite(evs, ci)
			if !ok {
				continue
			}
			ev := []Evidence{
				o.evidence(ti, evs[read], "read before the call"),
				o.evidence(ti, c, fmt.Sprintf("value call with gas > %d; the attacker re-entered and received Ether %d more time(s)", o.e.cfg.GasThreshold, c.nestedSends)),
				o.evidence(ti, evs[write], "write of the same slot after the call"),
			}
			return hit{tx: ti, evidence: ev}, true
		}
	}
	return hit{}, false
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

// arithmetic: an ADD, SUB or MUL whose true result left 256 bits, in code
// that went on without reverting, and whose result (followed by taint)
// reached a storage write or the value of a call that did not roll back.
func (o *oracles) arithmetic(run *seedRun) (hit, bool) {
	type site struct {
		tx int
		ev event
	}
	var overflows []site // first event of each overflow site, in order
	var seen label
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
					if ev.taint&s.ev.taint != 0 {
						sink := "the wrapped result is stored"
						if ev.kind == evCall {
							sink = "the wrapped result is the value sent"
						}
						return hit{tx: ti, evidence: []Evidence{
							o.evidence(s.tx, s.ev, "true result outside 256 bits; execution continued"),
							o.evidence(ti, ev, sink),
						}}, true
					}
				}
			}
		}
	}
	return hit{}, false
}

// blockState: TIMESTAMP or NUMBER (through stack, memory and storage)
// decides how much Ether a successful call sends, or a branch on it is
// followed, in the same frame, by a successful Ether transfer.
func (o *oracles) blockState(run *seedRun) (hit, bool) {
	for ti, tx := range run.txs {
		evs := tx.trace.events
		for si, s := range evs {
			if !isSend(s) || s.reverted || !s.targetCode {
				continue
			}
			if s.kind == evCall && s.taint&envLabels != 0 {
				return hit{tx: ti, evidence: []Evidence{o.evidence(ti, s, "value derived from "+envNames(s.taint))}}, true
			}
			for ji := si - 1; ji >= 0; ji-- {
				j := evs[ji]
				if j.kind == evJumpI && j.frame == s.frame && !j.reverted {
					return hit{tx: ti, evidence: []Evidence{
						o.evidence(ti, j, "branch on "+envNames(j.taint)),
						o.evidence(ti, s, "Ether sent after the branch"),
					}}, true
				}
			}
		}
	}
	return hit{}, false
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
// target address or input comes from transaction input, in a transaction an
// unprivileged account sent and that went through.
func (o *oracles) delegatecall(run *seedRun) (hit, bool) {
	for ti, tx := range run.txs {
		if !tx.success || o.e.senderIsPrivileged(tx.sender) {
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
				none := Evidence{Tx: ti, Op: "-", Note: fmt.Sprintf("no instruction sending Ether out of the contract (CALL or CALLCODE with value, SELFDESTRUCT) was reached by any generated sequence; the code holds %d CALL, CALLCODE, DELEGATECALL or SELFDESTRUCT instructions", o.e.sendSites)}
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
	switch {
	case l&srcTimestamp != 0 && l&srcNumber != 0:
		return "TIMESTAMP and NUMBER"
	case l&srcNumber != 0:
		return "NUMBER"
	}
	return "TIMESTAMP"
}

func sortedMethodNames[M any](methods map[string]M) []string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
