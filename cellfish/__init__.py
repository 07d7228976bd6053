"""The `cellfish` command: the engine loop (protocol/), and the `match` and `bench` subcommands.

This package is only the command line; the rules core is `engine/`, the games `variants/`,
the UCI/USI session `protocol/`, the tournament runner `match/` and the benchmarks `bench/`.
"""
