package walltime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCheckFailsPastTheLimitOnly(t *testing.T) {
	ctx := context.Background()
	describe := func(ran time.Duration) string { return "work done in " + ran.String() }
	if err := Check(ctx, time.Now(), time.Hour, describe); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
	long := time.Now().Add(-2 * time.Second)
	if err := Check(ctx, long, 0, describe); err != nil {
		t.Fatalf("no limit: %v", err)
	}
	err := Check(ctx, long, time.Second, describe)
	if !Is(err) || !strings.Contains(err.Error(), "work done in 2") || !strings.Contains(err.Error(), "limit of 1s") {
		t.Fatalf("past the limit: %v", err)
	}
}

func TestCheckReportsTheContextFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Check(ctx, time.Now().Add(-time.Hour), time.Second, func(time.Duration) string { return "" })
	if !errors.Is(err, context.Canceled) || Is(err) {
		t.Fatalf("got %v, want the context's error", err)
	}
}
