"""Benchmarks: `cellfish bench <subcommand>` (see bench/run.py)."""
