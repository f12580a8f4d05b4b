// Package etherscan reads verified contracts and their transaction history
// through the nanmu42/etherscan-api client, from either of two sources:
//
//   - live: Etherscan's V2 API, rate limited, retried with backoff and cached
//     on disk keyed by request (the API key never reaches the cache key, a log
//     line or an error message);
//   - recorded: a corpus folder in the layout of ../shared/corpus/mainnet,
//     served to the very same client by an http.RoundTripper, so tests and the
//     default pipeline exercise the real request and parsing path.
package etherscan
