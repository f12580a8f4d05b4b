package compile

import (
	"context"
	"errors"
	"fmt"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// A sample that compiles but changed the contract's interface does not
// count as compiling (solbehave paper §IV-B: only the bodies are
// regenerated, and the repair fixes compile errors): otherwise a model
// could make a sample compile by deleting the failing function, or by
// rewriting a library, and move its failure to the oracles or hide it.
// Its row's error starts with one of these reasons.
const (
	// ReasonChangedInterface: the sample as generated (or imported).
	ReasonChangedInterface = "changed_interface"
	// ReasonRepairChangedInterface: the repaired sample.
	ReasonRepairChangedInterface = "repair_changed_interface"
)

// reference is what a sample's interface is checked against, read once
// per unit.
type reference struct {
	abi         []byte                    // the original target's ABI, from the same compiler settings
	regenerated map[regen.Definition]bool // the definitions the skeleton asked to regenerate
}

// interfaceChange says how a compiled sample changed the interface
// ("" when it kept it): a definition the skeleton did not ask to
// regenerate, else the target's ABI.
func (c *compiler) interfaceChange(ctx context.Context, contractID string, files map[string]string, o outcome) (string, error) {
	ref, err := c.reference(ctx, contractID)
	if err != nil {
		return "", err
	}
	if d := regen.ChangedDefinition(c.rec.Files.Files, files, ref.regenerated); d != "" {
		return "changes " + d + ", which the skeleton did not ask to regenerate", nil
	}
	got, err := c.targetABI(o.Artifact)
	if err != nil {
		return "", err
	}
	return solc.ABIChange(ref.abi, got)
}

// refuse records a compiled sample that changed the interface as not
// compiling, reason first.
func refuse(o outcome, reason, why string) outcome {
	msg := reason + ": " + why
	return outcome{Error: msg, Formatted: "The sample changed the contract's interface: it " + why +
		". Keep every definition's signature and every function of the contract.", CompilerUsed: o.CompilerUsed}
}

func (c *compiler) reference(ctx context.Context, contractID string) (*reference, error) {
	if c.ref != nil {
		return c.ref, nil
	}
	orig, err := c.compile(ctx, c.rec.Files.Files)
	if err != nil {
		return nil, err
	}
	if !orig.OK {
		return nil, failure.New(failure.Compile, false, fmt.Errorf("the original does not compile: %s", orig.Error))
	}
	abi, err := c.targetABI(orig.Artifact)
	if err != nil {
		return nil, err
	}
	regenerated, err := c.regeneratedDefinitions(contractID)
	if err != nil {
		return nil, err
	}
	c.ref = &reference{abi: abi, regenerated: regenerated}
	return c.ref, nil
}

func (c *compiler) targetABI(artifactID string) ([]byte, error) {
	out, err := artifact.New(c.env.Data).Get(artifactID)
	if err != nil {
		return nil, failure.New(failure.Artifact, true, err)
	}
	target, err := out.Contract(c.target)
	if err != nil {
		return nil, err
	}
	return target.ABI, nil
}

// regeneratedDefinitions are the contracts whose bodies the contract's
// skeleton left to the generator (its `skeletons` rows with a body); with
// no rows, the contracts of the target's chain (the default
// --regenerate chain).
func (c *compiler) regeneratedDefinitions(contractID string) (map[regen.Definition]bool, error) {
	rows, err := contractRows(c.env.Warehouse, schemas.Skeletons, contractID)
	if err != nil {
		return nil, failure.New(failure.Skeleton, false, err)
	}
	out := map[regen.Definition]bool{}
	for _, r := range rows {
		if r.HasBody {
			out[regen.Definition{File: r.DeclaredFile, Name: r.DeclaredIn}] = true
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	chain, err := soltext.Chain(c.rec.Files.Files, "", c.target)
	if err != nil {
		return nil, failure.New(failure.Skeleton, false, errors.Join(errors.New("no skeleton rows, and no chain"), err))
	}
	for _, l := range chain {
		if l.Kind == "contract" {
			out[regen.Definition{File: l.File, Name: l.Name}] = true
		}
	}
	return out, nil
}

// contractRows reads the rows of one contract's parts of a dataset.
func contractRows[T any](w *warehouse.Warehouse, dataset schemas.Table[T], contractID string) ([]T, error) {
	files, err := w.PartitionFiles(dataset.Name(), warehouse.ByContract(contractID))
	if err != nil {
		return nil, err
	}
	var out []T
	for _, f := range files {
		rows, err := warehouse.Read[T](f)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}
