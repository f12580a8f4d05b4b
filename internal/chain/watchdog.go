package chain

import (
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/core/vm"
)

// watchdog cancels the EVM of a call that runs past its time limit. One timer
// serves every call of a harness, so a call allocates nothing for it.
type watchdog struct {
	timer  *time.Timer
	target atomic.Pointer[vm.EVM]
	fired  chan struct{} // the timer callback reports here that it has run
}

func (w *watchdog) arm(evm *vm.EVM, d time.Duration) {
	w.target.Store(evm)
	if w.timer == nil {
		w.fired = make(chan struct{}, 1)
		w.timer = time.AfterFunc(d, w.fire)
		return
	}
	w.timer.Reset(d)
}

func (w *watchdog) fire() {
	if evm := w.target.Load(); evm != nil {
		evm.Cancel()
	}
	w.fired <- struct{}{}
}

// disarm stops the timer and reports whether it fired. When it did, it waits
// for the callback to finish, so a late callback can never cancel the next
// call.
func (w *watchdog) disarm() (fired bool) {
	if w.timer.Stop() {
		w.target.Store(nil)
		return false
	}
	<-w.fired
	w.target.Store(nil)
	return true
}
