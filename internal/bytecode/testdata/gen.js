// Regenerates the fixtures: node gen.js <solc-package> <fixture>
// with <solc-package> an npm alias of solc (e.g. solc424@npm:solc@0.4.24) and
// <fixture> token04, token05 or token08: token.sol with the fixture's edits
// (token_edits.json, read by the Go tests too).
const fs = require('fs');
const path = require('path');
const [pkg, out] = process.argv.slice(2);
let source = fs.readFileSync(path.join(__dirname, 'token.sol'), 'utf8');
for (const [from, to] of JSON.parse(fs.readFileSync(path.join(__dirname, 'token_edits.json'), 'utf8'))[out]) {
  if (!source.includes(from)) { console.error(`token.sol lacks ${from}`); process.exit(1); }
  source = source.replace(from, to);
}
const solc = require(pkg);
const input = {
  language: 'Solidity',
  sources: { 'A.sol': { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
  },
};
const compile = solc.compileStandardWrapper || solc.compile;
const res = JSON.parse(compile(JSON.stringify(input)));
for (const e of res.errors || []) if (e.severity === 'error') { console.error(e.formattedMessage); process.exit(1); }
const c = res.contracts['A.sol'].Token;
fs.writeFileSync(out + '.hex', c.evm.deployedBytecode.object + '\n');
fs.writeFileSync(out + '.abi.json', JSON.stringify(c.abi, null, 1) + '\n');
console.log(solc.version(), out, c.evm.deployedBytecode.object.length / 2, 'bytes');
