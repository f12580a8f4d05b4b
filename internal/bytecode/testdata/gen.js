// Regenerates the fixtures: node gen.js <solc-package> <source.sol> <out-prefix>
// with <solc-package> an npm alias of solc (e.g. solc424@npm:solc@0.4.24).
const fs = require('fs');
const path = require('path');
const [pkg, src, out] = process.argv.slice(2);
const solc = require(pkg);
const input = {
  language: 'Solidity',
  sources: { 'A.sol': { content: fs.readFileSync(src, 'utf8') } },
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
