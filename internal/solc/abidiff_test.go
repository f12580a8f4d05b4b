package solc

import (
	"encoding/json"
	"testing"
)

// ABIChange tells an interface change from a reordering: a dropped
// function, a narrowed parameter, another return type, a lost payable, an
// added event, a changed tuple component; the same entries in another order
// (and other parameter names) are no change.
func TestABIChange(t *testing.T) {
	original := `[
	 {"type":"function","name":"withdraw","inputs":[{"name":"amount","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"},
	 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
	 {"type":"function","name":"get","inputs":[{"name":"p","type":"tuple","components":[{"name":"a","type":"address"},{"name":"b","type":"uint8"}]}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"}]`
	cases := map[string]struct {
		sample, want string
	}{
		"reordered, renamed parameters": {`[
		 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
		 {"type":"function","name":"get","inputs":[{"name":"q","type":"tuple","components":[{"name":"x","type":"address"},{"name":"y","type":"uint8"}]}],"outputs":[{"name":"r","type":"uint256"}],"stateMutability":"view"},
		 {"type":"function","name":"withdraw","inputs":[{"name":"value","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"}]`, ""},
		"withdraw dropped": {`[
		 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
		 {"type":"function","name":"get","inputs":[{"name":"p","type":"tuple","components":[{"name":"a","type":"address"},{"name":"b","type":"uint8"}]}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"}]`,
			"lacks function withdraw(uint256) nonpayable"},
		"withdraw narrowed": {`[
		 {"type":"function","name":"withdraw","inputs":[{"name":"amount","type":"uint128"}],"outputs":[],"stateMutability":"nonpayable"},
		 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
		 {"type":"function","name":"get","inputs":[{"name":"p","type":"tuple","components":[{"name":"a","type":"address"},{"name":"b","type":"uint8"}]}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"}]`,
			"lacks function withdraw(uint256) nonpayable"},
		"deposit no longer payable, an event added": {`[
		 {"type":"function","name":"withdraw","inputs":[{"name":"amount","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"},
		 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"nonpayable"},
		 {"type":"event","name":"Deposited","inputs":[{"name":"v","type":"uint256","indexed":true}],"anonymous":false},
		 {"type":"function","name":"get","inputs":[{"name":"p","type":"tuple","components":[{"name":"a","type":"address"},{"name":"b","type":"uint8"}]}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"}]`,
			"lacks function deposit() payable"},
		"tuple component changed": {`[
		 {"type":"function","name":"withdraw","inputs":[{"name":"amount","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"},
		 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
		 {"type":"function","name":"get","inputs":[{"name":"p","type":"tuple","components":[{"name":"a","type":"address"},{"name":"b","type":"uint16"}]}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"}]`,
			"lacks function get((address,uint8)) returns (uint256) view"},
	}
	for name, c := range cases {
		got, err := ABIChange(json.RawMessage(original), json.RawMessage(c.sample))
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, c.want)
		}
	}
	if got, _ := ABIChange(json.RawMessage(original), json.RawMessage(`[
		 {"type":"function","name":"withdraw","inputs":[{"name":"amount","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"},
		 {"type":"function","name":"deposit","inputs":[],"outputs":[],"stateMutability":"payable"},
		 {"type":"function","name":"get","inputs":[{"name":"p","type":"tuple","components":[{"name":"a","type":"address"},{"name":"b","type":"uint8"}]}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"},
		 {"type":"function","name":"helper","inputs":[],"outputs":[],"stateMutability":"nonpayable"}]`)); got != "adds function helper() nonpayable" {
		t.Errorf("an added public function: %q", got)
	}
}
