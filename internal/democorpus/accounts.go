package democorpus

import (
	"crypto/ecdsa"
	"encoding/binary"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// account is an externally owned account whose key the generator holds, so
// it can sign payment-channel vouchers as well as send transactions.
type account struct {
	Key  *ecdsa.PrivateKey
	Addr common.Address
}

// deriveAccount turns a label into a key: keccak256 of the label, re-hashed in
// the (astronomically rare) case that the hash is not a valid secp256k1 key.
func deriveAccount(label string) (account, error) {
	seed := crypto.Keccak256([]byte(label))
	for range 8 {
		key, err := crypto.ToECDSA(seed)
		if err == nil {
			return account{Key: key, Addr: crypto.PubkeyToAddress(key.PublicKey)}, nil
		}
		seed = crypto.Keccak256(seed)
	}
	return account{}, fmt.Errorf("democorpus: no valid key for %q", label)
}

// deployerOf is the fixed account that deploys a contract. It does not depend
// on the seed, so contract addresses stay the same whatever the seed.
func deployerOf(contract string) (account, error) {
	return deriveAccount("solbehave/democorpus/deployer/" + contract)
}

// population is the seed's user accounts, shared by every contract's history
// (each history draws its own subset).
func population(seed uint64, n int) ([]account, error) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	users := make([]account, 0, n)
	for i := range n {
		a, err := deriveAccount(fmt.Sprintf("solbehave/democorpus/user/%x/%d", b, i))
		if err != nil {
			return nil, err
		}
		users = append(users, a)
	}
	return users, nil
}
