package vuln

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// family is one shape of the reentrancy families of issue #21, written for
// these tests (the SmartBugs files are the evaluation, never fixtures):
// a vulnerable contract and its twin that differs only by the fix.
type family struct {
	name                 string
	vulnFile, vulnName   string
	fixedFile, fixedName string
	also                 []Class // other classes the vulnerable contract must earn as well
}

var families = []family{
	{"time-locked", "timelock_vault.sol", "TimeLockedVault", "timelock_vault_fixed.sol", "TimeLockedVaultFixed", []Class{BlockState}},
	{"time-locked", "blocklock_savings.sol", "BlockLockedSavings", "blocklock_savings_fixed.sol", "BlockLockedSavingsFixed", []Class{BlockState}},
	{"helper", "holder_bank.sol", "HolderBank", "holder_bank_fixed.sol", "HolderBankFixed", nil},
	{"cross-function", "mutex_wallet.sol", "MutexWallet", "mutex_wallet_fixed.sol", "MutexWalletFixed", nil},
	{"funding", "member_club.sol", "MemberClub", "member_club_fixed.sol", "MemberClubFixed", nil},
	{"funding", "bonus_pool.sol", "BonusPool", "bonus_pool_fixed.sol", "BonusPoolFixed", nil},
	{"modifier", "welcome_gift.sol", "WelcomeGift", "welcome_gift_fixed.sol", "WelcomeGiftFixed", nil},
	{"modifier", "token_grant.sol", "TokenGrant", "token_grant_fixed.sol", "TokenGrantFixed", nil},
}

// familySeeds and familyConfig keep the test to a few minutes: ten seeds
// per contract under the stage's default budget, run side by side.
const familySeeds = 10

func familyConfig(seed int64) Config {
	c := DefaultConfig()
	c.Seed, c.Profile = seed, ProfileExtended
	return c
}

// TestFamiliesFoundNotTwins: every vulnerable contract earns reentrancy
// (and its other classes) in at least 9 of 10 seeds; no fixed twin earns
// reentrancy in any.
func TestFamiliesFoundNotTwins(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 160 detector runs")
	}
	for _, f := range families {
		t.Run(f.vulnName, func(t *testing.T) {
			t.Parallel()
			vuln := familyHits(t, f.vulnFile, f.vulnName)
			t.Logf("%s (%s): seeds finding each class of %d: %v", f.vulnName, f.name, familySeeds, vuln)
			for _, class := range append([]Class{Reentrancy}, f.also...) {
				if n := vuln[class]; n < familySeeds-1 {
					t.Errorf("%s (%s): %s in %d of %d seeds, want at least %d", f.vulnName, f.name, class, n, familySeeds, familySeeds-1)
				}
			}
			if n := familyHits(t, f.fixedFile, f.fixedName)[Reentrancy]; n > 0 {
				t.Errorf("%s: reentrancy on the fixed twin in %d of %d seeds", f.fixedName, n, familySeeds)
			}
		})
	}
}

// familyHits runs the detector with seeds 1..familySeeds on a fixture and
// counts, per class, the seeds that found it.
func familyHits(t *testing.T, file, name string) map[Class]int {
	t.Helper()
	out, c := compileFixture(t, filepath.Join("families", file), name)
	var mu sync.Mutex
	hits := map[Class]int{}
	var wg sync.WaitGroup
	errs := make(chan error, familySeeds)
	for seed := int64(1); seed <= familySeeds; seed++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target, err := DeployStandalone(out, c, BlockFor(out.Release.Version))
			if err != nil {
				errs <- err
				return
			}
			r, err := Run(context.Background(), target, familyConfig(seed))
			if err != nil {
				errs <- fmt.Errorf("seed %d: %w", seed, err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, f := range r.Findings {
				hits[f.Class]++
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return hits
}
