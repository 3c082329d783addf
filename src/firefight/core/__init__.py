"""What every ruleset shares: transcript events, the ruleset protocol and registry, odds reports,
house rules and validated loading from TOML."""
