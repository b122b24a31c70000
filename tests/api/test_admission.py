"""Admission control (api/admission.py): slots, a bounded queue with a bounded wait, and a
share per client that one client cannot pass and that never blocks another client."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from api.admission import Admission, Refusal


def _hold(admission: Admission, client: str, release: threading.Event) -> threading.Thread:
    """A request of ``client`` that holds its slot until ``release`` is set."""
    entered = threading.Event()

    def run() -> None:
        with admission.admitted(client):
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert entered.wait(5)
    return thread


def _eventually(condition: Callable[[], bool]) -> None:
    until = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < until
        time.sleep(0.005)


def _refusal(admission: Admission, client: str) -> tuple[Refusal, float]:
    """The refusal of a request of ``client``, and the seconds it took to come."""
    started = time.monotonic()
    with pytest.raises(Refusal) as refused:
        with admission.admitted(client):
            pass
    return refused.value, time.monotonic() - started


def test_a_client_past_its_share_waits_then_is_refused_429() -> None:
    admission = Admission(slots=4, share=1, queue=10, wait=5)
    release = threading.Event()
    holder = _hold(admission, "alice", release)
    # alice's second request waits (her share is one running), her third is refused
    waiter_done = threading.Event()

    def second() -> None:
        with admission.admitted("alice"):
            waiter_done.set()

    waiter = threading.Thread(target=second, daemon=True)
    waiter.start()
    _eventually(lambda: admission.waiting == 1)
    refusal, _ = _refusal(admission, "alice")
    assert refusal.status == 429
    assert refusal.retry_after > 0
    # bob is not held up by alice's waiting request: he runs at once
    with admission.admitted("bob"):
        assert admission.running == 2
    release.set()
    holder.join(5)
    assert waiter_done.wait(5)
    waiter.join(5)
    assert admission.running == 0 and admission.waiting == 0


def test_a_full_server_queues_and_refuses_503_past_the_wait() -> None:
    admission = Admission(slots=1, share=5, queue=5, wait=0.2)
    release = threading.Event()
    holder = _hold(admission, "alice", release)
    refusal, waited = _refusal(admission, "bob")
    assert refusal.status == 503
    assert refusal.slug == "overloaded"
    assert 0.15 <= waited < 2
    release.set()
    holder.join(5)


def test_a_full_queue_refuses_at_once() -> None:
    admission = Admission(slots=1, share=5, queue=0, wait=30)
    release = threading.Event()
    holder = _hold(admission, "alice", release)
    refusal, waited = _refusal(admission, "bob")
    assert refusal.status == 503
    assert waited < 1
    release.set()
    holder.join(5)


def test_waiting_requests_are_served_first_come_first_served() -> None:
    admission = Admission(slots=1, share=10, queue=10, wait=5)
    release = threading.Event()
    holder = _hold(admission, "first", release)
    order: list[str] = []

    def request(client: str) -> None:
        with admission.admitted(client):
            order.append(client)

    waiters = []
    for client in ("a", "b", "c"):
        thread = threading.Thread(target=request, args=(client,), daemon=True)
        thread.start()
        waiters.append(thread)
        queued = len(waiters)
        _eventually(lambda queued=queued: admission.waiting == queued)
    release.set()
    holder.join(5)
    for thread in waiters:
        thread.join(5)
    assert order == ["a", "b", "c"]


def test_a_waiting_client_at_its_share_is_passed_over() -> None:
    # two slots: alice holds one (her share); her next request waits; bob's, behind hers,
    # takes the free slot instead of waiting behind a request that cannot run
    admission = Admission(slots=2, share=1, queue=10, wait=5)
    release = threading.Event()
    holder = _hold(admission, "alice", release)
    alice_second = threading.Thread(
        target=lambda: admission.admitted("alice").__enter__(), daemon=True
    )
    alice_second.start()
    _eventually(lambda: admission.waiting == 1)
    started = time.monotonic()
    with admission.admitted("bob"):
        assert time.monotonic() - started < 1
    release.set()
    holder.join(5)


def test_slots_are_given_back_when_the_computation_fails() -> None:
    admission = Admission(slots=1, share=1, queue=0, wait=0)
    with pytest.raises(RuntimeError):
        with admission.admitted("alice"):
            raise RuntimeError("the computation failed")
    with admission.admitted("alice"):
        assert admission.running == 1
    assert admission.running == 0


def test_nonsense_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        Admission(slots=0, share=1, queue=1, wait=1)
    with pytest.raises(ValueError):
        Admission(slots=1, share=0, queue=1, wait=1)
