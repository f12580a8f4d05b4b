package guardstate

import (
	"math/big"
	"reflect"
)

// reflectFixedBytes builds the [size]byte value abi.Pack wants for bytesN,
// holding n left-aligned as Solidity stores bytesN.
func reflectFixedBytes(size int, n *big.Int) any {
	arr := reflect.New(reflect.ArrayOf(size, reflect.TypeOf(byte(0)))).Elem()
	b := make([]byte, size)
	n.FillBytes(b)
	reflect.Copy(arr, reflect.ValueOf(b))
	return arr.Interface()
}
