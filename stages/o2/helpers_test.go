package o2

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
)

func TestMain(m *testing.M) { stagetest.Main(m) }
