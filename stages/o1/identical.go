package o1

import (
	"bytes"
	"reflect"

	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/deploy"
)

// sameBehaviour reports whether a deployed sample certainly answers every
// call exactly as the original does, so that fuzzing could only find them
// equivalent: both were created the same way (deployer, block, arguments,
// creation code) and left the same state (the contract's runtime code and
// balance, every storage write and log of the creation, the libraries'
// code), every code compared once its metadata tail is set aside. The tail
// (a hash of the source, comments included) is then the only difference,
// and a contract can observe it only by reading code as data, so any
// CODECOPY, EXTCODECOPY or EXTCODEHASH in the compared code, or tails of
// different lengths (CODESIZE), leave the verdict to fuzzing.
func sameBehaviour(orig, smp *deploy.Deployment) bool {
	if orig.Address != smp.Address || orig.Deployer != smp.Deployer || orig.Block != smp.Block ||
		!bytes.Equal(orig.Args, smp.Args) || !sameCreation(orig, smp) {
		return false
	}
	if orig.Chain.Balance(orig.Address).Cmp(smp.Chain.Balance(smp.Address)) != 0 ||
		!sameRuntime(orig.Chain.Code(orig.Address), smp.Chain.Code(smp.Address)) {
		return false
	}
	if len(orig.Libraries) != len(smp.Libraries) {
		return false
	}
	for name, addr := range orig.Libraries {
		if smp.Libraries[name] != addr || !sameRuntime(orig.Chain.Code(addr), smp.Chain.Code(addr)) {
			return false
		}
	}
	return true
}

// sameCreation: equal creation code (metadata aside) that wrote the same
// storage and logs.
func sameCreation(orig, smp *deploy.Deployment) bool {
	a, errA := orig.Contract.CreationCode(orig.Libraries)
	b, errB := smp.Contract.CreationCode(smp.Libraries)
	if errA != nil || errB != nil || !sameModuloTail(a, b) {
		return false
	}
	ra, rb := orig.Result, smp.Result
	return ra != nil && rb != nil && ra.Success && rb.Success &&
		reflect.DeepEqual(ra.StorageWrites, rb.StorageWrites) && reflect.DeepEqual(ra.Logs, rb.Logs)
}

// sameRuntime: runtime codes equal but for their metadata tails, with no
// instruction that could read the tails.
func sameRuntime(a, b []byte) bool {
	if !sameModuloTail(a, b) {
		return false
	}
	body, _ := bytecode.SplitMetadata(a)
	for _, in := range bytecode.Disassemble(body) {
		switch in.Op {
		case vm.CODECOPY, vm.EXTCODECOPY, vm.EXTCODEHASH:
			return false
		}
	}
	return true
}

// sameModuloTail: equal code before the metadata tails, and tails of the
// same length (or no tail at all and equal code).
func sameModuloTail(a, b []byte) bool {
	bodyA, tailA := bytecode.SplitMetadata(a)
	bodyB, tailB := bytecode.SplitMetadata(b)
	return len(a) > 0 && len(tailA) == len(tailB) && bytes.Equal(bodyA, bodyB)
}
