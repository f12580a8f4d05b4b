// Written by solbehave bench: Hardhat's in-process network set up like the
// harness (chain id 1, free gas, 30M block gas limit, the harness's
// coinbase, an early genesis so historical timestamps are accepted).
const env = process.env;
const hardfork = env.SOLBENCH_HARDFORK || "shanghai";
const eip1559 = !["chainstart", "homestead", "dao", "tangerineWhistle", "spuriousDragon", "byzantium",
  "constantinople", "petersburg", "istanbul", "muirGlacier", "berlin"].includes(hardfork);
const hardhat = {
  chainId: 1,
  hardfork,
  initialDate: "2015-08-01T00:00:00Z",
  allowBlocksWithSameTimestamp: true,
  blockGasLimit: 30000000,
  gas: 30000000,
  coinbase: env.SOLBENCH_COINBASE || "0x000000000000000000000000000000000000c0de",
  throwOnTransactionFailures: false,
  throwOnCallFailures: false,
  loggingEnabled: false,
  accounts: { count: 1 },
  mining: { auto: true, interval: 0 },
};
if (eip1559) hardhat.initialBaseFeePerGas = 0;
module.exports = { networks: { hardhat } };
