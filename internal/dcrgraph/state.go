package dcrgraph

// State is the view of the deployed contract that guards read. The engine
// calls it while deciding a step, before the step's transaction runs, so an
// implementation over the EVM harness reads the current (pre-step) state.
type State interface {
	Var(name string) (Value, error)                // public or private state variable by name
	Mapping(name string, key Value) (Value, error) // single-key mapping lookup
	Balance() (Value, error)                       // address(this).balance
	Sender() Value                                 // msg.sender of the step about to run
}

// Chain is an optional extension of State for guards that name the block:
// `now` and `block.timestamp` call Timestamp, `block.number` calls
// BlockNumber. A guard naming them on a State without Chain fails with a
// GuardError (the relation then counts as absent), like any unreadable value.
type Chain interface {
	Timestamp() (Value, error)
	BlockNumber() (Value, error)
}

// Self is an optional extension of State for guards that use address(this)
// as a value (e.g. `balances[address(this)]`). `address(this).balance` and
// `this.balance` need only State.Balance.
type Self interface {
	This() Value
}
