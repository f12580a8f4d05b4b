package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/schemas"
)

// Outcome is what one call did on one deployment, reduced to the comparison axes.
type Outcome struct {
	Status  schemas.CallStatus // success, revert, error or undeployed
	GasUsed uint64
	NEvents int
	// Digests (sha256 hex) of the logs' topics, the return data and the
	// storage writes; "" when the call did not succeed.
	Topics, Return, Storage string
	Reason                  string // why the call failed; "" on success
	// GasLimited: on a sample, the call failed where the original succeeded
	// and succeeds when re-run with a generous gas limit (see gasLimited).
	GasLimited bool
}

// undeployed is the outcome of every call on a sample that could not be deployed.
func undeployed(reason string) Outcome {
	return Outcome{Status: schemas.StatusUndeployed, Reason: reason}
}

// observe reduces a harness result (or a harness fault) to an Outcome.
func observe(res *chain.Result, err error) Outcome {
	if err != nil {
		return Outcome{Status: schemas.StatusError, Reason: err.Error()}
	}
	o := Outcome{Status: schemas.StatusRevert, GasUsed: res.GasUsed}
	if !res.Success {
		o.Reason = failureText(res)
		return o
	}
	o.Status = schemas.StatusSuccess
	o.NEvents = len(res.Logs)
	o.Topics = topicsDigest(res.Logs)
	o.Return = digest(res.ReturnData)
	o.Storage = storageDigest(res.StorageWrites)
	return o
}

// failureText is the decoded revert reason, else the EVM error, of a failed call.
func failureText(res *chain.Result) string {
	switch {
	case res.RevertReason != "":
		return res.RevertReason
	case res.Err != nil:
		return res.Err.Error()
	default:
		return "reverted"
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// topicsDigest covers each log's address and topics, in emission order: the
// same events with the same indexed values give the same digest. Non-indexed
// data is left out, as the paper compares topics.
func topicsDigest(logs []chain.Log) string {
	h := sha256.New()
	for _, l := range logs {
		h.Write(l.Address[:])
		h.Write([]byte{byte(len(l.Topics))})
		for _, t := range l.Topics {
			h.Write(t[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// storageDigest covers the slots a call changed with the values it left,
// sorted, so two implementations writing the same slots in another order agree.
func storageDigest(writes []chain.StorageWrite) string {
	sorted := make([]chain.StorageWrite, len(writes))
	copy(sorted, writes)
	sort.Slice(sorted, func(i, j int) bool {
		if c := bytes.Compare(sorted[i].Address[:], sorted[j].Address[:]); c != 0 {
			return c < 0
		}
		return bytes.Compare(sorted[i].Slot[:], sorted[j].Slot[:]) < 0
	})
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(sorted)))
	h.Write(n[:])
	for _, w := range sorted {
		h.Write(w.Address[:])
		h.Write(w.Slot[:])
		h.Write(w.Value[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}
