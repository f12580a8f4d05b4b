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

// fixedBytes reads a decoded bytesN ([N]byte of any N).
func fixedBytes(x any) ([]byte, bool) {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Array || v.Type().Elem().Kind() != reflect.Uint8 {
		return nil, false
	}
	b := make([]byte, v.Len())
	reflect.Copy(reflect.ValueOf(b), v)
	return b, true
}
