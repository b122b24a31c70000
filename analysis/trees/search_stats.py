"""Counters reported by every tree search."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SearchStats:
    """How much of the tree a search touched.

    Attributes
    ----------
    nodes
        Nodes in the tree as posted.
    leaves
        Nodes the search would score statically: leaves within the depth
        cutoff and internal nodes at the cutoff.
    visited
        Nodes the search entered (static ones included).
    evaluated
        Static evaluations made.
    cutoffs
        Times a node stopped early with children left unsearched.
    """

    nodes: int
    leaves: int
    visited: int
    evaluated: int
    cutoffs: int
