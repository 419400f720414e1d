"""``parlor serve``: run the game service on this machine."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import socket
import sys
from typing import Any

from parlor.i18n import Translator, translator


def add_parser(sub: Any, _: Translator | None = None) -> None:
    _ = _ or translator()
    p = sub.add_parser("serve", help=_("run the game server (tables, invites, bots) on a port"))
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("address to listen on (default: {host}, this machine only)", host="127.0.0.1"),
    )
    p.add_argument(
        "--port",
        type=int,
        default=8000,
        help=_("port (default: {port}; 0: any free port)", port=8000),
    )
    p.add_argument(
        "--database-url",
        default=None,
        help=_(
            "SQLAlchemy URL (default $PARLOR_DATABASE_URL, else sqlite:///parlor.db); "
            "e.g. postgresql://user@host/db"
        ),
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        help=_("seconds a bot waits before acting, for every table (default: each table's own)"),
    )
    p.add_argument(
        "--grace",
        type=float,
        default=30.0,
        help=_("seconds before a disconnected seat is played by a stand-in"),
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        help=_("a web origin allowed to connect besides the server's own (repeatable)"),
    )
    p.add_argument(
        "--max-connections-per-address",
        type=int,
        default=32,
        help=_("open connections allowed from one address"),
    )
    p.add_argument(
        "--max-messages-per-connection",
        type=float,
        default=20.0,
        help=_("messages a second from one connection (twice that in a burst)"),
    )
    p.add_argument(
        "--max-messages-per-address",
        type=float,
        default=200.0,
        help=_("messages a second from one address, all its connections together"),
    )
    p.add_argument(
        "--metrics-token",
        default=None,
        help=_(
            "serve Prometheus metrics at /metrics to requests that send this token "
            "(Authorization: Bearer); default $PARLOR_METRICS_TOKEN, else no /metrics"
        ),
    )
    p.add_argument(
        "--max-requests-per-address",
        type=float,
        default=20.0,
        help=_("HTTP requests a second from one address (three times that in a burst)"),
    )
    p.add_argument(
        "--max-requests-in-flight-per-address",
        type=int,
        default=16,
        help=_("HTTP requests from one address being received or answered at once"),
    )
    p.add_argument(
        "--max-body-bytes",
        type=int,
        default=4 * 1024 * 1024,
        help=_("largest HTTP request body (refused with 413 before it is read)"),
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        help=_("seconds an HTTP request's headers, and then its body, have to arrive"),
    )
    p.add_argument(
        "--keep-alive-timeout",
        type=float,
        default=5.0,
        help=_("seconds an idle HTTP connection is kept open between requests"),
    )
    p.add_argument(
        "--hello-timeout",
        type=float,
        default=10.0,
        help=_("seconds a new WebSocket has to say hello before it is closed"),
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=0.0,
        help=_("seconds a WebSocket may send nothing before it is closed (0: no limit)"),
    )
    p.add_argument(
        "--ws-ping-interval",
        type=float,
        default=20.0,
        help=_("seconds between WebSocket pings (a peer that does not answer is gone)"),
    )
    p.add_argument(
        "--ws-ping-timeout",
        type=float,
        default=20.0,
        help=_("seconds a WebSocket ping waits for its answer before the connection is closed"),
    )
    p.add_argument(
        "--log-level", default="warning", help=_("debug, info, warning (default) or error")
    )
    p.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help=_("text lines (default) or one JSON object a line"),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from parlor.server import database_url
    from parlor.server.app import create_app
    from parlor.server.guard import HeaderDeadline, HttpLimits, JsonLines
    from parlor.server.protocol import MAX_TRANSPORT_FRAME, Limits

    handler = logging.StreamHandler()
    if args.log_format == "json":
        handler.setFormatter(JsonLines())
    logging.basicConfig(level=args.log_level.upper(), handlers=[handler])
    rate = args.max_messages_per_address
    limits = Limits(
        addr_connections=args.max_connections_per_address,
        msgs_per_s=args.max_messages_per_connection,
        msgs_burst=2 * args.max_messages_per_connection,
        addr_msgs_per_s=rate,
        addr_msgs_burst=2 * rate,
    )
    app = create_app(
        database_url(args.database_url),
        limits=limits,
        bot_delay=args.bot_delay,
        grace=args.grace,
        allowed_origins=tuple(args.allow_origin),
        metrics_token=args.metrics_token or os.environ.get("PARLOR_METRICS_TOKEN") or None,
        http_limits=HttpLimits(
            max_body=args.max_body_bytes,
            request_timeout=args.request_timeout,
            requests_per_s=args.max_requests_per_address,
            requests_burst=3 * args.max_requests_per_address,
            in_flight=args.max_requests_in_flight_per_address,
        ),
        hello_timeout=args.hello_timeout,
        idle_timeout=args.idle_timeout or None,
    )
    HeaderDeadline.request_timeout = args.request_timeout
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
    # and without it Nagle's algorithm holds small frames for the peer's delayed ACK (40 ms)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"Parlor is serving at http://{shown}:{port}/", flush=True)
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        log_config=None,  # (the handler above: --log-format holds for uvicorn's lines too)
        http=HeaderDeadline,
        timeout_keep_alive=args.keep_alive_timeout,
        ws_ping_interval=args.ws_ping_interval,
        ws_ping_timeout=args.ws_ping_timeout,
        access_log=False,  # nothing that could carry a token is ever logged
        ws_max_size=MAX_TRANSPORT_FRAME,
        ws_per_message_deflate=False,  # frames are small; compressing each cost more than it saved
        lifespan="on",
    )
    server = uvicorn.Server(config)
    tune_collector()
    server.run(sockets=[sock])
    return 0


def tune_collector() -> None:
    """Make the cyclic garbage collector rare. With its default thresholds (700 allocations) a
    server holding a thousand connections and hundreds of games ran a young collection every few
    actions and a full one (every object of every game and connection, 100-200 ms with the event
    loop stopped) several times a minute: about a quarter of the CPU per action, and the slowest
    1% of the latencies (``bench/bench_server.py``). Nearly everything a frame allocates is freed
    by its reference count, so young collections are seldom needed. What start-up made (modules,
    the app) is never garbage: frozen, full collections skip it."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 10)


if __name__ == "__main__":
    sys.exit(0)
