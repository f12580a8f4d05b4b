// solbehave bench: replays one contract's recorded history on Hardhat's
// in-process network (EDR), the baseline a user would otherwise pick.
// Usage: node hardhat.js <job.json>; the working directory holds
// hardhat.config.js, which reads the network settings from SOLBENCH_* env.
// Prints one JSON object on stdout: per run, the replay time and the
// status and gas of every transaction.
"use strict";

const fs = require("fs");

const hex = (n) => "0x" + BigInt(n).toString(16);
const RICH = hex(10n ** 30n); // every sender can pay any recorded value

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const t0 = process.hrtime.bigint();
  const hre = require("hardhat");
  const provider = hre.network.provider;
  await provider.request({ method: "eth_blockNumber", params: [] }); // start EDR
  const startupNs = process.hrtime.bigint() - t0;
  const runs = [];
  for (let r = 0; r < job.runs; r++) {
    if (r > 0) await provider.request({ method: "hardhat_reset", params: [] });
    runs.push(await replay(provider, job));
  }
  const out = { hardhat: require("hardhat/package.json").version, startup_ns: Number(startupNs), runs };
  process.stdout.write(JSON.stringify(out) + "\n");
}

// replay deploys the contract as the recorded creation did and sends every
// recorded transaction from its sender, one per block, at its block number
// and time.
async function replay(provider, job) {
  const rpc = (method, ...params) => provider.request({ method, params });
  const chain = { block: 0, senders: new Set() };
  const t0 = process.hrtime.bigint();
  await rpc("hardhat_setNonce", job.deployer, hex(job.nonce));
  await impersonate(rpc, chain, job.deployer);
  for (const lib of job.libraries || []) await rpc("hardhat_setCode", lib.address, lib.code);
  const created = await send(rpc, chain, { from: job.deployer, data: job.creation, value: job.value, gas: job.gas, number: job.block, time: job.time });
  const deployNs = process.hrtime.bigint() - t0;
  if (created.status !== "success" || (created.address || "").toLowerCase() !== job.address.toLowerCase()) {
    return { deploy_ns: Number(deployNs), deploy: created, error: "deployment failed or landed elsewhere: " + JSON.stringify(created) };
  }
  const statuses = [], gas = [], reasons = [];
  const cpu = process.cpuUsage();
  const t1 = process.hrtime.bigint();
  for (const tx of job.txs) {
    await impersonate(rpc, chain, tx.from);
    const res = await send(rpc, chain, { ...tx, to: job.address });
    statuses.push(res.status);
    gas.push(res.gas);
    reasons.push(res.reason || "");
  }
  const replayNs = process.hrtime.bigint() - t1;
  const used = process.cpuUsage(cpu);
  return { deploy_ns: Number(deployNs), replay_ns: Number(replayNs), replay_cpu_us: used.user + used.system, statuses, gas, reasons };
}

async function impersonate(rpc, chain, addr) {
  const a = addr.toLowerCase();
  if (chain.senders.has(a)) return;
  chain.senders.add(a);
  await rpc("hardhat_impersonateAccount", a);
  await rpc("hardhat_setBalance", a, RICH);
}

// send mines one transaction in its own block with the recorded block number
// (blocks in between are mined empty) and timestamp.
async function send(rpc, chain, tx) {
  if (tx.number > chain.block + 1) {
    await rpc("hardhat_mine", hex(tx.number - chain.block - 1), "0x0");
  }
  await rpc("evm_setNextBlockTimestamp", hex(tx.time));
  const req = { from: tx.from, data: tx.data, value: hex(tx.value || 0), gas: hex(tx.gas), gasPrice: "0x0" };
  if (tx.to) req.to = tx.to;
  let hash;
  try {
    hash = await rpc("eth_sendTransaction", req);
  } catch (e) {
    // Executions that fail come back as receipts (throwOnTransactionFailures
    // is off); what throws was never mined: gas below the intrinsic cost,
    // above the block limit, and the like.
    return { status: "rejected", gas: 0, reason: String(e.message).slice(0, 200) };
  }
  const receipt = await rpc("eth_getTransactionReceipt", hash);
  chain.block = Number(receipt.blockNumber);
  return { status: receipt.status === "0x1" ? "success" : "failed", gas: Number(receipt.gasUsed), address: receipt.contractAddress };
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String(e && e.stack || e) }) + "\n");
  process.exit(1);
});
