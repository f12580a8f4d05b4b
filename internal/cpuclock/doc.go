// Package cpuclock measures CPU time the way a unit of work spends it: this
// process's user and system time plus its children's (the Node solc workers),
// and, when units run side by side, each unit's share of it.
package cpuclock
