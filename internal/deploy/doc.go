// Package deploy puts a corpus contract on a fresh embedded chain the way it
// was deployed on mainnet: compiled from its verified source with its recorded
// settings, from its original deployer (nonce set so CREATE lands at the
// recorded address), with its constructor arguments, libraries linked, at its
// creation block. Every oracle deploys originals and samples through here, so
// privileged calls line up across them.
package deploy
