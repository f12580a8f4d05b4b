package democorpus

// vaultScenario: users deposit into the Figure 1 Vault and now and then try to
// withdraw, which always reverts because nobody ever calls initialize.
func vaultScenario(s *session) {
	s.maxGap = 500
	target := s.between(330, 370)
	s.mixCount(target,
		step{84, func() { s.call(s.user(), nil, "deposit", s.amountEther(10, 8000)) }},
		step{4, func() { s.call(s.deployer, nil, "deposit", s.amountEther(100, 2000)) }},
		step{12, func() { s.call(s.user(), nil, "withdraw", s.amountEther(10, 3000)) }},
	)
}
