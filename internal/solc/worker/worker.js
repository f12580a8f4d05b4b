// solbehave solc worker: loads one soljson.js through a modern solc wrapper
// and answers standard-JSON compile requests, one JSON object per line.
//
//   node worker.js <path/to/solc/wrapper.js> <path/to/soljson.js> [--once] [--plain-table]
//
// First line out: {"ready":true,"version":"<version()>"} (or ready:false + error).
// Then for each request line {"id":N,"input":"<standard JSON>"} it writes
// {"id":N,"output":"<standard JSON output>"} or {"id":N,"error":"..."}.
// With --once it exits after the first answer (the spawn-per-compile baseline).
// Required as a module (tests), it only exports memoizeTableGet.
'use strict';

const readline = require('readline');

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// sendThenExit exits only once the line has reached the pipe: stdout to a
// pipe is asynchronous, and process.exit() would cut an answer longer than
// the pipe's buffer (64 KiB) short.
let exiting = false;
function sendThenExit(obj, code) {
  exiting = true;
  process.stdout.write(JSON.stringify(obj) + '\n', () => process.exit(code));
}

function fail(message) {
  sendThenExit({ ready: false, error: message }, 2);
}

// memoizeTableGet makes WebAssembly.Table.prototype.get answer from a
// per-table array, kept true by set. From 0.8.2 on, soljson's exception
// trampolines (invoke_*) look a function up with wasmTable.get on every call
// that may throw, and V8's get is a runtime call: a fifth of a compile.
// JavaScript changes a table only through set (emscripten's addFunction, for
// the wrapper's import callback), which forgets the slot, and grow, which
// only adds slots no get could have read. Wasm code could change it only with
// reference-types instructions; as measured, these builds do not (the
// outputs of 41 mainnet originals are byte-equal with and without: README).
function memoizeTableGet(Table) {
  const get = Table.prototype.get;
  const set = Table.prototype.set;
  const memo = new WeakMap();
  let lastTable = null; // soljson has one table: skip the WeakMap for it
  let lastEntries = null;
  const entriesOf = (table) => {
    if (table === lastTable) return lastEntries;
    let entries = memo.get(table);
    // Sized up front: written sparsely, an array falls back to a hash table.
    if (entries === undefined) memo.set(table, (entries = new Array(table.length)));
    lastTable = table;
    lastEntries = entries;
    return entries;
  };
  Table.prototype.get = function (index) {
    const entries = entriesOf(this);
    let fn = entries[index];
    if (fn === undefined) entries[index] = fn = get.call(this, index);
    return fn;
  };
  Table.prototype.set = function (index, ...rest) {
    const entries = memo.get(this);
    if (entries !== undefined) entries[index] = undefined;
    return set.call(this, index, ...rest);
  };
}

function main() {
  // Emscripten binds its print functions when soljson loads; send them to
  // stderr so nothing but protocol lines ever reaches stdout.
  const toStderr = (...args) => process.stderr.write(args.join(' ') + '\n');
  console.log = toStderr;
  console.info = toStderr;
  console.warn = toStderr;
  const [wrapperPath, soljsonPath] = process.argv.slice(2, 4);
  // --plain-table: V8's own get on every lookup (the benchmarks' baseline).
  if (!process.argv.includes('--plain-table')) memoizeTableGet(WebAssembly.Table);
  const solc = load(wrapperPath, soljsonPath);
  if (solc) serve(solc, process.argv.includes('--once'));
}

// load returns the compiler, or null after reporting why it could not load.
function load(wrapperPath, soljsonPath) {
  if (!wrapperPath || !soljsonPath) {
    fail('usage: worker.js <wrapper.js> <soljson.js> [--once] [--plain-table]');
    return null;
  }
  let compiler;
  try {
    const wrapper = require(wrapperPath);
    compiler = wrapper(require(soljsonPath));
  } catch (e) {
    fail('loading ' + soljsonPath + ': ' + (e && e.stack ? e.stack : String(e)));
    return null;
  }
  try {
    send({ ready: true, version: compiler.version() });
  } catch (e) {
    fail('version(): ' + String(e));
    return null;
  }
  return compiler;
}

// Sources must be self-contained (flattened or complete standard JSON).
function noImports(path) {
  return { error: 'import not found (sources must be self-contained): ' + path };
}

function serve(solc, once) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => answer(solc, once, line));
  rl.on('close', () => {
    if (!exiting) process.exit(0); // else the pending answer exits once written
  });
}

function answer(solc, once, line) {
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
    sendThenExit({ id: req.id, error: 'compiler crashed: ' + (e && e.message ? e.message : String(e)) }, 3);
    return;
  }
  if (once) {
    sendThenExit({ id: req.id, output: output }, 0);
    return;
  }
  send({ id: req.id, output: output });
}

module.exports = { memoizeTableGet };
if (require.main === module) main();
