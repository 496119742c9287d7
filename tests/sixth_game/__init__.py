"""A sixth game kept outside the package, added the way docs/architecture.md says: a tally
of points per hand, won by the first to reach a target."""
