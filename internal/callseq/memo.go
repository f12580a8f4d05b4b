package callseq

import (
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/guardstate"
)

// stepMemo remembers the state reads of one step: Enabled and Awaited for
// the owner's and a user's view evaluate the same guards, and the state
// does not change until the step's call is sent.
type stepMemo struct {
	reads   map[string]memoRead
	balance *memoRead
}

type memoRead struct {
	v   dcrgraph.Value
	err error
}

func newStepMemo() *stepMemo { return &stepMemo{reads: map[string]memoRead{}} }

// memoView is a guard view whose state reads go through a step's memo;
// what depends on the sender or the block is asked of the view itself.
type memoView struct {
	*guardstate.State
	memo *stepMemo
}

var (
	_ dcrgraph.State = memoView{}
	_ dcrgraph.Chain = memoView{}
	_ dcrgraph.Self  = memoView{}
)

func (v memoView) Var(name string) (dcrgraph.Value, error) {
	return v.memo.read("v\x00"+name, func() (dcrgraph.Value, error) { return v.State.Var(name) })
}

func (v memoView) Mapping(name string, key dcrgraph.Value) (dcrgraph.Value, error) {
	k := "m\x00" + name + "\x00" + key.Kind().String() + "\x00" + key.String()
	return v.memo.read(k, func() (dcrgraph.Value, error) { return v.State.Mapping(name, key) })
}

func (v memoView) Balance() (dcrgraph.Value, error) {
	if v.memo.balance == nil {
		b, err := v.State.Balance()
		v.memo.balance = &memoRead{b, err}
	}
	return v.memo.balance.v, v.memo.balance.err
}

func (m *stepMemo) read(key string, f func() (dcrgraph.Value, error)) (dcrgraph.Value, error) {
	if r, ok := m.reads[key]; ok {
		return r.v, r.err
	}
	val, err := f()
	m.reads[key] = memoRead{val, err}
	return val, err
}
