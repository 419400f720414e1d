"""What an operator scrapes: ``GET /metrics`` in the Prometheus text format (prometheus_client).

Off unless ``parlor serve`` is given a token (``--metrics-token`` or ``PARLOR_METRICS_TOKEN``):
without one the route does not exist (404); with one, a scrape must send it as
``Authorization: Bearer TOKEN`` (401 otherwise).

The hot path pays next to nothing. The play loop counts into plain Python integers and lists (no
lock, no label lookup through prometheus_client: the loop is one thread), and everything else
(tables, connections) is read off the hub when Prometheus asks, by a collector registered in a
registry of the app's own (never the process-wide default one, so that several apps can live in
one process, as the tests make them). Only the commit time of PostgreSQL's batches is observed
in another thread, the committer's one writer thread, which nothing else writes to.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from parlor.server.base import HubBase

#: seconds from an action's arrival at the play loop to its update handed to the last connection
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: seconds one group commit (a batch of actions, every table together) took
COMMIT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Histogram:
    """Counts per bucket and a sum, as plain numbers (``observe`` is a bisect and two adds)."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last: above every bound (+Inf only)
        self.total = 0.0

    def observe(self, value: float) -> None:
        # (Prometheus' "le": a value equal to a bound is in that bound's bucket)
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def family(self, name: str, doc: str) -> HistogramMetricFamily:
        cumulative, buckets = 0, []
        for bound, n in zip((*self.bounds, float("inf")), self.counts, strict=True):
            cumulative += n
            buckets.append(("+Inf" if bound == float("inf") else repr(bound), cumulative))
        return HistogramMetricFamily(name, doc, buckets=buckets, sum_value=self.total)


class Metrics:
    """The counters the service keeps, and their exposition. ``enabled`` False: the hooks return
    at once and nothing is counted (no route serves them either)."""

    def __init__(self, token: str | None = None) -> None:
        self.token = token or None
        self.enabled = self.token is not None
        self.actions: dict[str, int] = {}  # by actor: seat, bot, standin
        self.latency = Histogram(LATENCY_BUCKETS)
        self.commits = Histogram(COMMIT_BUCKETS)
        self.refusals: dict[tuple[str, str], int] = {}  # (transport, code) -> count
        self.registry = CollectorRegistry(auto_describe=False)
        self._hub: HubBase | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        if self.enabled:
            self.registry.register(_Collector(self))
            ProcessCollector(registry=self.registry)  # CPU, memory, open files of this process

    def attach(self, hub: HubBase) -> None:
        self._hub = hub

    # ----- hooks (the hot path) --------------------------------------------------------------
    def action(self, actor: str, began: float) -> None:
        """An action committed, applied and handed to every connection's queue: counted, and its
        latency observed once those frames are written (``call_soon`` runs after the flushes
        ``publish`` scheduled, which the loop runs first come, first served)."""
        if not self.enabled:
            return
        self.actions[actor] = self.actions.get(actor, 0) + 1
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        loop.call_soon(self._written, began)

    def _written(self, began: float) -> None:
        self.latency.observe(time.perf_counter() - began)

    def refused(self, transport: str, code: str) -> None:
        """A request or message answered with an error frame (``code`` as the frame says)."""
        if self.enabled:
            key = (transport, code)
            self.refusals[key] = self.refusals.get(key, 0) + 1

    def timed_commit(self, write: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """``write`` (the store's batch commit) with its wall time observed."""
        if not self.enabled:
            return write

        def timed(rows: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return write(rows)
            finally:
                self.commits.observe(time.perf_counter() - t0)

        return timed

    # ----- the route -------------------------------------------------------------------------
    def allowed(self, authorization: str | None) -> bool:
        """Does the request's ``Authorization`` header carry the token (compared in constant
        time)?"""
        if self.token is None or authorization is None:
            return False
        scheme, _, given = authorization.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), self.token.encode()
        )

    def exposition(self) -> tuple[bytes, str]:
        """The text Prometheus reads, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class _Collector(Collector):
    """Reads the hub and the plain counters when Prometheus asks (nothing kept between)."""

    def __init__(self, metrics: Metrics) -> None:
        self.m = metrics

    def collect(self) -> Iterable[Metric]:
        return list(self._families())

    def _families(self) -> Iterator[Metric]:
        m, hub = self.m, self.m._hub
        tables = GaugeMetricFamily(
            "parlor_tables", "Tables this process holds in memory, by status", labels=["status"]
        )
        conns = GaugeMetricFamily(
            "parlor_connections", "Open WebSocket connections to this process"
        )
        seated = GaugeMetricFamily(
            "parlor_connections_by_role",
            "Connections that said hello, by role (seat or spectator)",
            labels=["role"],
        )
        if hub is not None:
            by_status: dict[str, int] = {}
            players = watchers = 0
            for rt in list(hub.tables.values()):
                by_status[rt.status] = by_status.get(rt.status, 0) + 1
                for c in rt.conns:
                    if c.seat is None:
                        watchers += 1
                    else:
                        players += 1
            for status in ("waiting", "running", "paused", "over"):
                tables.add_metric([status], by_status.pop(status, 0))
            for status, n in sorted(by_status.items()):
                tables.add_metric([status], n)
            conns.add_metric([], sum(hub.addr_conns.values()))
            seated.add_metric(["seat"], players)
            seated.add_metric(["spectator"], watchers)
        yield tables
        yield conns
        yield seated
        actions = CounterMetricFamily(
            "parlor_actions",
            "Actions committed and applied by this process, by who chose them",
            labels=["actor"],
        )
        for actor, n in sorted(m.actions.items()):
            actions.add_metric([actor], n)
        yield actions
        yield m.latency.family(
            "parlor_action_update_seconds",
            "From an action reaching the play loop to its update written to the table's last "
            "connection (commit included)",
        )
        refused = CounterMetricFamily(
            "parlor_refused",
            "Requests (http) and messages (ws) answered with an error frame, by its code",
            labels=["transport", "code"],
        )
        for (transport, code), n in sorted(m.refusals.items()):
            refused.add_metric([transport, code], n)
        yield refused
        yield m.commits.family(
            "parlor_db_commit_seconds",
            "Wall time of one group commit of actions (a batch of every table's new actions)",
        )
