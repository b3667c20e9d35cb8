package target

// Environ renders a Config as the MPH_* environment SettingsFromEnv reads,
// to configure a child run against the same target with the same options.
func Environ(cfg *Config) []string {
	env := []string{
		EnvBaseURL + "=" + cfg.BaseURL,
		EnvMerchantID + "=" + cfg.Primary.MerchantID,
		EnvSecretKey + "=" + cfg.Primary.SecretKey,
		EnvControlsURL + "=" + cfg.ControlsURL,
		EnvAdminKey + "=" + cfg.AdminKey,
	}
	add := func(idName, keyName string, c *Credentials) {
		if c.Set() {
			env = append(env, idName+"="+c.MerchantID, keyName+"="+c.SecretKey)
		}
	}
	if cfg.ProfilePath != "" {
		env = append(env, EnvProfile+"="+cfg.ProfilePath)
	}
	add(EnvMerchant2ID, EnvSecretKey2, cfg.Secondary)
	add(EnvLiveMerchantID, EnvLiveSecretKey, cfg.LiveTier2)
	add(EnvLowKYBMerchantID, EnvLowKYBSecretKey, cfg.LiveLowKYB)
	add(EnvBlockedMerchantID, EnvBlockedSecretKey, cfg.NotWhitelisted)
	// The child reaches an embedded sandbox by URL, so it cannot tell that
	// this process runs it and holds no money there: LIVE writes are allowed
	// explicitly.
	if cfg.AllowLive || cfg.Embedded {
		env = append(env, EnvAllowLive+"=1")
	}
	return append(env, cfg.Suite.Environ()...)
}
