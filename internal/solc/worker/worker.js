// solbehave solc worker: loads one soljson.js through a modern solc wrapper
// and answers standard-JSON compile requests, one JSON object per line.
//
//   node worker.js <path/to/solc/wrapper.js> <path/to/soljson.js> [--once]
//
// First line out: {"ready":true,"version":"<version()>"} (or ready:false + error).
// Then for each request line {"id":N,"input":"<standard JSON>"} it writes
// {"id":N,"output":"<standard JSON output>"} or {"id":N,"error":"..."}.
// With --once it exits after the first answer (the spawn-per-compile baseline).
'use strict';

// Emscripten binds its print functions when soljson loads; send them to
// stderr so nothing but protocol lines ever reaches stdout.
const toStderr = (...args) => process.stderr.write(args.join(' ') + '\n');
console.log = toStderr;
console.info = toStderr;
console.warn = toStderr;

const readline = require('readline');

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function fail(message) {
  send({ ready: false, error: message });
  process.exit(2);
}

const [wrapperPath, soljsonPath] = process.argv.slice(2, 4);
const once = process.argv.includes('--once');
if (!wrapperPath || !soljsonPath) {
  fail('usage: worker.js <wrapper.js> <soljson.js> [--once]');
}

let solc;
try {
  const wrapper = require(wrapperPath);
  solc = wrapper(require(soljsonPath));
} catch (e) {
  fail('loading ' + soljsonPath + ': ' + (e && e.stack ? e.stack : String(e)));
}

let version;
try {
  version = solc.version();
} catch (e) {
  fail('version(): ' + String(e));
}
send({ ready: true, version: version });

// Sources must be self-contained (flattened or complete standard JSON).
function noImports(path) {
  return { error: 'import not found (sources must be self-contained): ' + path };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    send({ id: -1, error: 'bad request line: ' + String(e) });
    return;
  }
  let output;
  try {
    output = solc.compile(req.input, { import: noImports });
  } catch (e) {
    // An exception out of soljson leaves its heap in an unknown state:
    // answer, then exit so the manager starts a fresh worker.
    send({ id: req.id, error: 'compiler crashed: ' + (e && e.message ? e.message : String(e)) });
    process.exit(3);
  }
  send({ id: req.id, output: output });
  if (once) process.exit(0);
});
rl.on('close', () => process.exit(0));
