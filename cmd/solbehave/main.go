// Command solbehave runs the SolBehave pipeline: crawl and verify real
// contracts, regenerate them, and compare the regenerated ones with the
// originals under behavioural oracles, writing every outcome as Parquet and
// the paper's tables as DuckDB views.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/solbehave/solbehave/internal/redact"
)

func main() {
	tuneGC() // gc.go
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal cancels the run (units in flight stop, nothing half
	// written is kept); a second one kills the process as the default would:
	// a resumed run loses nothing either way.
	go func() {
		<-ctx.Done()
		stop()
	}()
	stopProfile := profileCPU() // gc.go
	err := newRoot().ExecuteContext(ctx)
	stopProfile()
	var fe *failedUnitsError
	switch {
	case errors.As(err, &fe):
		fmt.Fprintln(os.Stderr, "solbehave:", redact.String(err.Error()))
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "solbehave:", redact.String(err.Error()))
		os.Exit(1)
	}
}
