"""Benchmarks: `make bench` prints one table of medians and same-run ratios."""
