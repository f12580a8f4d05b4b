// Package temporal runs the pipeline on Temporal (go.temporal.io/sdk): the
// same stages and the same unit function as the local Runner, with the
// durable execution, retries, timeouts and horizontal workers of an existing
// engine instead of a home-made one.
//
// One workflow per `solbehave run` walks the stages in order; per stage a
// child workflow plans the stage (an activity: plan, remove orphans, skip the
// units whose fingerprint is current) and runs one activity per remaining
// unit, at most Fanout at a time. A unit activity re-plans the stage on its
// worker (once per stage and worker) to get the unit's private payload,
// checks that the fingerprint is the one scheduled, and calls
// pipeline.Runner.RunUnit, so outputs, manifests and error rows are written
// exactly as a local run writes them: atomically, and harmlessly twice.
//
// Retries follow the error classes: a retriable unit failure is returned to
// Temporal and retried with backoff; on the last attempt, and for any
// non-retriable failure, the unit's error row is stored and the activity
// completes, so each failure is recorded once. Every unit heartbeats, so a
// worker that dies is noticed within Config.Heartbeat and its units run again
// elsewhere.
//
// Stages never import this package; cmd/solbehave wires it to the CLI.
package temporal
