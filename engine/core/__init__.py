"""Scenario-agnostic machinery: the contract, the RNG, the registry, simulation."""
