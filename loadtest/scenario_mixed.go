package loadtest

func init() {
	Register(ScenarioDef{
		Name:    "mixed",
		Summary: "the token, list and secure scenarios interleaved exactly by smooth weighted round robin",
		Setup:   "each weighted part's setup",
		Parts:   []string{"token", "list", "secure"},
		Mix:     map[string]int{"list": 6, "secure": 3, "token": 1},
	})
}
