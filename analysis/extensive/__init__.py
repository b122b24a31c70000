"""Solvers for extensive-form games with information sets (:mod:`games.extensive`)."""
