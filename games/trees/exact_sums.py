"""Exact sums of probabilities and weights, and how to show a long exact number in a message.

A sum is added in integers over a common denominator that grows one term at a time, so a
sum too large to keep exactly is refused as soon as it grows past
``Limits.max_exact_digits``, not after one huge ``lcm``. Messages never print an unbounded
number: :func:`short_text` and :func:`sum_text` shorten it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from math import gcd, lcm

from games.limits import Deadline, active_limits, check_exact_size, current_deadline
from games.numbers import Exact, exact_text, normalize


def exact_sum(
    values: Iterable[Exact],
    *,
    deadline: Deadline | None = None,
    refuse: Callable[[Exact], None] | None = None,
) -> Exact:
    """Exact sum of ``values``: :func:`sum_of_ratios` of their numerators and denominators."""
    return sum_of_ratios(
        ((value.numerator, value.denominator) for value in values),
        deadline=deadline,
        refuse=refuse,
    )


def sum_of_ratios(
    terms: Iterable[tuple[int, int]],
    *,
    deadline: Deadline | None = None,
    refuse: Callable[[Exact], None] | None = None,
) -> Exact:
    """Exact sum of the ratios ``n / d`` in ``terms``, added in integers over a common
    denominator.

    The denominator grows one term at a time (one gcd where it changes, none while the
    terms share it, the usual case), so a sum that grows too large is refused as soon
    as it does, rather than after one huge ``lcm``; intermediate numbers may reach
    twice ``Limits.max_exact_digits``, the sum itself that many. Each term is charged
    to ``deadline`` (by default the one of the computation in progress) by its size.

    :raises ExactSizeError: the sum, or its running denominator, grows past the limit;
        ``refuse`` is called with the number (and only then, so working out its
        pointer costs nothing otherwise) and raises the error naming the field.
    :raises TimeLimitError: the deadline passes.
    """
    clock = deadline if deadline is not None else current_deadline()
    refused = refuse if refuse is not None else _refuse_sum
    bits = active_limits().max_exact_bits
    ceiling = 2 * bits
    numerator = 0
    common = 1
    cost = 1
    for term, denominator in terms:
        if denominator == common:
            numerator += term
        elif not common % denominator:
            numerator += term * (common // denominator)
        else:
            shared = gcd(common, denominator)
            scale = denominator // shared
            numerator = numerator * scale + term * (common // shared)
            common *= scale
            size = common.bit_length()
            if size > ceiling:
                refused(common)
            cost = 1 + size // 512
        clock.spend(cost)
    total = normalize(Fraction(numerator, common))
    if total.numerator.bit_length() > bits or total.denominator.bit_length() > bits:
        refused(total)
    return total


def bounded_lcm(numbers: Iterable[int], bits: int) -> int | None:
    """Least common multiple of ``numbers``, or None as soon as it passes ``bits`` binary
    digits (so thousands of long, unrelated denominators stop early, never building a
    number of millions of digits). Each number is spent on the deadline of the
    computation in progress by its size."""
    spend = current_deadline().spend
    common = 1
    for number in numbers:
        if common % number:
            common = lcm(common, number)
            if common.bit_length() > bits:
                return None
            spend(1 + common.bit_length() // 512)
    return common


def _refuse_sum(total: Exact) -> None:
    check_exact_size(total, "", "sum")


def short_text(value: Exact) -> str:
    """``value`` for an error message: exact when short, else to six significant digits.

    Messages never convert an unbounded number to a string (Python refuses integers
    past 4,300 digits, and a message that long helps nobody).
    """
    text = _short_exact(value)
    if text is not None:
        return text
    return f"{_approximate(value)} (exact form too long to show)"


def sum_text(total: Exact, target: int = 1) -> str:
    """A sum that should have been ``target``, for an error message: as
    :func:`short_text`, but ``target`` plus or minus the difference when the sum rounds
    to ``target`` (so a sum that misses 1 by 1e-400 does not read "sums to 1, not 1")."""
    text = _short_exact(total)
    if text is not None:
        return text
    if _approximate(total) != _approximate(target):
        return short_text(total)
    difference = total - target
    sign = "+" if difference > 0 else "-"
    return f"{target} {sign} {short_text(-difference if difference < 0 else difference)}"


def _approximate(value: Exact) -> str:
    """Six significant digits of ``value``, worked out in integers (no float overflow or
    underflow, whatever the exponent)."""
    if value == 0:
        return "0"
    numerator, denominator = abs(value.numerator), value.denominator
    # log10(n / d) from the binary lengths, then corrected by at most a step or two
    exponent = int((numerator.bit_length() - denominator.bit_length()) * 0.30103)
    if exponent >= 0:
        mantissa = Fraction(numerator, denominator * 10**exponent)
    else:
        mantissa = Fraction(numerator * 10**-exponent, denominator)
    while mantissa >= 10:
        mantissa /= 10
        exponent += 1
    while mantissa < 1:
        mantissa *= 10
        exponent -= 1
    digits = f"{float(mantissa):.6g}"
    if digits == "10":  # rounding carried into the next power of ten
        digits, exponent = "1", exponent + 1
    sign = "-" if value < 0 else ""
    if -4 <= exponent < 6:
        return f"{sign}{float(Fraction(digits) * Fraction(10) ** exponent):.6g}"
    return f"{sign}{digits}e{exponent:+03d}"


def _short_exact(value: Exact, longest: int = 80) -> str | None:
    """The exact text of ``value`` if at most ``longest`` characters, else None (without
    converting a long number: 3 bits per digit bounds the digits from above)."""
    bits = 3 * longest
    if value.numerator.bit_length() > bits or value.denominator.bit_length() > bits:
        return None
    text = exact_text(value)
    return text if text is not None and len(text) <= longest else None
