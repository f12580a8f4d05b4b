package chain

import "github.com/ethereum/go-ethereum/core/tracing"

// combineHooks merges the caller's hooks with the coverage recorder into the
// tracer the EVM runs with. It returns nil when nothing observes execution:
// any tracer at all sends the EVM down its slower traced loop.
func combineHooks(user *tracing.Hooks, cov *coverageRecorder) *tracing.Hooks {
	if cov == nil {
		return user
	}
	if user == nil {
		return &tracing.Hooks{OnOpcode: cov.onOpcode}
	}
	combined := *user
	switch {
	case user.OnOpcodeV2 != nil: // the EVM calls only V2 when both are set
		theirs := user.OnOpcodeV2
		combined.OnOpcodeV2 = func(pc uint64, op byte, gas, cost tracing.Gas, scope tracing.OpContext, rData []byte, depth int, err error) {
			cov.onOpcode(pc, op, gas.Execution, cost.Execution, scope, rData, depth, err)
			theirs(pc, op, gas, cost, scope, rData, depth, err)
		}
	case user.OnOpcode != nil:
		theirs := user.OnOpcode
		combined.OnOpcode = func(pc uint64, op byte, gas, cost uint64, scope tracing.OpContext, rData []byte, depth int, err error) {
			cov.onOpcode(pc, op, gas, cost, scope, rData, depth, err)
			theirs(pc, op, gas, cost, scope, rData, depth, err)
		}
	default:
		combined.OnOpcode = cov.onOpcode
	}
	return &combined
}
