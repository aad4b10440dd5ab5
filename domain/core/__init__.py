"""What every game shares: the Game protocol, rule violations, chance, options and codecs."""
