"""Expected utility: lotteries, utility functions, risk attitude, the vNM axioms and Allais.

One concept per module: ``lottery`` (model, parsing, reduction), ``formula`` (the
allow-list parser), ``families`` and ``function`` (utilities), ``evaluate``
(EMV, EU, CE, premium), ``compare`` and ``dominance``, ``analysis`` (curvature and
Arrow-Pratt), ``eu_consistency`` (the LP behind Allais), ``preferences`` and
``axioms``, ``elicitation`` and ``plot``. Nothing here imports the web layer.
"""
