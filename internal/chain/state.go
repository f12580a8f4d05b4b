package chain

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// recordingState is the StateDB the EVM runs on. It records the call's logs
// and storage changes itself, dropping those of reverted frames by following
// the EVM's snapshots, so neither needs a tracer. Logs are kept here instead
// of in the StateDB, which would accumulate them for ever (and deep-copy them
// on every Fork).
type recordingState struct {
	vm.StateDB
	onLog  tracing.LogHook // a caller hook; the inner StateDB never sees logs
	logs   []*types.Log
	writes []StorageWrite // every changing SSTORE of the call, in order
	marks  []snapshotMark
	// changes counts the call's other changes to accounts: balances, nonces
	// (but the sender's, which no code can read), code, creations,
	// self-destructs, and touches that delete an empty account.
	changes int
	sender  common.Address
}

// snapshotMark remembers how many logs, writes and changes existed at a
// snapshot.
type snapshotMark struct{ id, logs, writes, changes int }

// slotKey identifies a storage slot.
type slotKey struct {
	addr common.Address
	slot common.Hash
}

// newRecordingState wraps inner; caller hooks that watch state changes get a
// hooked StateDB underneath.
func newRecordingState(inner *state.StateDB, hooks *tracing.Hooks) *recordingState {
	s := &recordingState{StateDB: inner}
	if hooks != nil {
		s.onLog = hooks.OnLog
		if watchesState(hooks) {
			s.StateDB = state.NewHookedState(inner, hooks)
		}
	}
	return s
}

func watchesState(h *tracing.Hooks) bool {
	return h.OnBalanceChange != nil || h.OnNonceChange != nil || h.OnNonceChangeV2 != nil ||
		h.OnCodeChange != nil || h.OnCodeChangeV2 != nil || h.OnStorageChange != nil
}

// begin clears what the previous call recorded.
func (s *recordingState) begin(sender common.Address) {
	clear(s.logs) // let the old logs be collected
	s.logs = s.logs[:0]
	s.writes = s.writes[:0]
	s.marks = s.marks[:0]
	s.changes, s.sender = 0, sender
}

// kept tells whether the call left every account as it found it (the
// sender's nonce aside): no storage write, no other change survived.
func (s *recordingState) kept() bool { return len(s.writes) == 0 && s.changes == 0 }

func (s *recordingState) Snapshot() int {
	id := s.StateDB.Snapshot()
	s.marks = append(s.marks, snapshotMark{id: id, logs: len(s.logs), writes: len(s.writes), changes: s.changes})
	return id
}

func (s *recordingState) RevertToSnapshot(id int) {
	s.StateDB.RevertToSnapshot(id)
	for i := len(s.marks) - 1; i >= 0; i-- {
		if m := s.marks[i]; m.id == id {
			s.logs = s.logs[:m.logs]
			s.writes = s.writes[:m.writes]
			s.changes = m.changes
			s.marks = s.marks[:i]
			return
		}
	}
}

func (s *recordingState) AddLog(l *types.Log) {
	l.Index = uint(len(s.logs))
	s.logs = append(s.logs, l)
	if s.onLog != nil {
		s.onLog(l)
	}
}

func (s *recordingState) SetState(addr common.Address, slot, value common.Hash) common.Hash {
	prev := s.StateDB.SetState(addr, slot, value)
	if prev != value {
		s.writes = append(s.writes, StorageWrite{Address: addr, Slot: slot, Value: value})
	}
	return prev
}

func (s *recordingState) AddBalance(a common.Address, v *uint256.Int, r tracing.BalanceChangeReason) uint256.Int {
	s.noteBalance(a, v)
	return s.StateDB.AddBalance(a, v, r)
}

func (s *recordingState) SubBalance(a common.Address, v *uint256.Int, r tracing.BalanceChangeReason) uint256.Int {
	s.noteBalance(a, v)
	return s.StateDB.SubBalance(a, v, r)
}

// noteBalance counts a balance change, or a zero one that touches an
// existing empty account (the block's end deletes it, EIP-161).
func (s *recordingState) noteBalance(a common.Address, v *uint256.Int) {
	if !v.IsZero() || s.emptyAccount(a) {
		s.changes++
	}
}

func (s *recordingState) emptyAccount(a common.Address) bool {
	return s.StateDB.Exist(a) && s.StateDB.Empty(a)
}

func (s *recordingState) Touch(a common.Address) {
	if s.emptyAccount(a) {
		s.changes++
	}
	s.StateDB.Touch(a)
}

func (s *recordingState) SetNonce(a common.Address, n uint64, r tracing.NonceChangeReason) {
	if a != s.sender {
		s.changes++
	}
	s.StateDB.SetNonce(a, n, r)
}

func (s *recordingState) SetCode(a common.Address, code []byte, r tracing.CodeChangeReason) []byte {
	s.changes++
	return s.StateDB.SetCode(a, code, r)
}

func (s *recordingState) CreateAccount(a common.Address) {
	s.changes++
	s.StateDB.CreateAccount(a)
}

func (s *recordingState) CreateContract(a common.Address) {
	s.changes++
	s.StateDB.CreateContract(a)
}

func (s *recordingState) SelfDestruct(a common.Address) {
	s.changes++
	s.StateDB.SelfDestruct(a)
}

// resultLogs copies the surviving logs out.
func (s *recordingState) resultLogs() []Log {
	if len(s.logs) == 0 {
		return nil
	}
	out := make([]Log, len(s.logs))
	for i, l := range s.logs {
		out[i] = Log{Address: l.Address, Topics: l.Topics, Data: l.Data}
	}
	return out
}

// resultWrites folds the surviving writes into one final value per slot, in
// first-write order.
func (s *recordingState) resultWrites() []StorageWrite {
	if len(s.writes) == 0 {
		return nil
	}
	out := make([]StorageWrite, 0, len(s.writes))
	if len(s.writes) <= 16 { // a scan beats a map for the usual handful
		for _, w := range s.writes {
			out = foldWrite(out, w)
		}
		return out
	}
	index := make(map[slotKey]int, len(s.writes))
	for _, w := range s.writes {
		k := slotKey{w.Address, w.Slot}
		if i, ok := index[k]; ok {
			out[i].Value = w.Value
			continue
		}
		index[k] = len(out)
		out = append(out, w)
	}
	return out
}

func foldWrite(out []StorageWrite, w StorageWrite) []StorageWrite {
	for i := range out {
		if out[i].Address == w.Address && out[i].Slot == w.Slot {
			out[i].Value = w.Value
			return out
		}
	}
	return append(out, w)
}
