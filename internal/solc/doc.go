// Package solc compiles Solidity with the exact compiler a contract was
// verified with, taken from npm and run on Node.js.
//
// # Versions
//
// ResolveRelease maps what Etherscan records (`v0.4.18+commit.9cf6e91f`,
// nightlies such as `v0.4.20-nightly.2018.1.29+commit.a668b9de`), a bare
// `0.8.19`, or a release chosen by PragmaRelease, to one npm package
// `solc@X.Y.Z`. The known releases are a static list (0.4.9 .. 0.8.30).
// Rules, each recorded in Release.Substituted when it changes the release:
//
//   - Nightlies are not on npm. A nightly of X.Y.Z is a development build
//     towards X.Y.Z: it already has (most of) X.Y.Z's features, and sources
//     verified with it often pin `^X.Y.Z`, which only X.Y.Z and later accept.
//     So it runs as release X.Y.Z. A nightly of a version never released
//     (built after the last release of a series, e.g. 0.4.27-nightly) runs
//     as the release before it (0.4.26).
//   - Releases before 0.4.9 crash inside the modern solc-js wrapper; they run
//     as the newest 0.4.x release: 0.4.26 for ResolveRelease, and in Compile
//     the newest 0.4.x the sources' pragmas admit (0.4.26 for `^0.4.x`).
//   - npm has no solc@0.4.12; 0.4.13 (its bug-fix release) is used.
//   - npm's solc@0.8.7 carries a 0.7.5 soljson: 0.8.7 installs
//     solc@0.8.7-fixed (likewise -fixed for 0.8.14 and 0.8.23). Whatever the
//     package, the loaded compiler's version() must match the release or the
//     compile fails with ErrVersionMismatch; Output.CompilerUsed is what
//     version() reported.
//
// # Installing
//
// Compilers live in <cache>/solc (cache: Options.CacheDir, else
// $SOLBEHAVE_CACHE, else ~/.cache/solbehave). For each version only the
// soljson.js is needed: `npm pack solc@X.Y.Z` fetches the tarball, and
// soljson.js and package.json are unpacked into <cache>/solc/<npm version>/.
// Every soljson runs through one modern wrapper, WrapperPackage, installed
// once with `npm install --prefix <cache>/solc/wrapper-0.8.26`. Installs go
// to a temporary folder renamed into place when whole, so concurrent
// processes never see half an install (the loser of a race uses the
// winner's copy); within a process one mutex per package avoids duplicate
// downloads. Nothing is fetched from anywhere but the npm registry.
//
// # Running
//
// A worker is a Node process running the embedded worker/worker.js: it loads
// the wrapper around one soljson.js, reports version(), then answers
// standard-JSON requests as JSON lines on stdin/stdout. Before loading, it
// memoises WebAssembly.Table.prototype.get, which 0.8.2+ soljson calls on
// every call that may throw (Options.PlainTable leaves it). Workers persist in a
// bounded pool (Options.MaxWorkers, default 2): a request takes an idle
// worker of its version, else starts one if there is room, else evicts the
// least recently used idle worker, else waits. A worker that dies fails the
// request in flight with ErrWorkerCrashed and is dropped; the next request
// starts a new one. A cancelled context kills the worker running the
// request (soljson cannot be interrupted). Options.Spawn is the baseline:
// one Node process per compile (BenchmarkCompile compares the two).
//
// # Compiling
//
// Input is compiled through standard JSON with the recorded optimizer
// settings, evmVersion (from 0.4.21) and libraries. Requested: abi,
// bytecode and deployed bytecode (object, sourceMap, linkReferences), the
// AST (legacyAST before 0.4.12) and storageLayout from 0.5.13. Compilers
// without native standard JSON (0.4.9, 0.4.10) go through the wrapper's
// translation, which honours only optimizer.enabled (runs stay 200) and
// yields only the legacy AST; Source.LegacyAST says which form came back.
// Solc errors are returned as *CompileError; warnings land in
// Output.Warnings.
//
// Bytecode may hold library placeholders: old `__file.sol:Name____` or, from
// 0.5.0, `__$<hash>$__`. Contract.CreationCode and RuntimeCode replace both
// forms by library name and fail listing the libraries left unlinked.
package solc
