"""``parlor db``: the server's database from the command line (``parlor db backup FILE``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from parlor.i18n import Translator, translator


def add_parser(sub: Any, _: Translator | None = None) -> None:
    _ = _ or translator()
    p = sub.add_parser("db", help=_("the game server's database: backups"))
    what = p.add_subparsers(dest="db_command", required=True)
    b = what.add_parser(
        "backup",
        help=_("copy a live SQLite database to FILE, consistent, while the server runs"),
        description=_(
            "Copy the server's SQLite database to FILE with SQLite's online backup: the "
            "database as it was at one moment, taken while the server goes on playing. To "
            "restore: stop the server and copy FILE over the database file, or run "
            "parlor serve --database-url sqlite:///FILE. PostgreSQL: use pg_dump."
        ),
    )
    b.add_argument("file", help=_("where the copy goes"))
    b.add_argument(
        "--database-url",
        default=None,
        help=_("the database to copy (default $PARLOR_DATABASE_URL, else sqlite:///parlor.db)"),
    )
    b.add_argument("--force", action="store_true", help=_("replace FILE if it exists"))
    b.set_defaults(run=run_backup)


def run_backup(args: argparse.Namespace) -> int:
    from parlor.cli.common import help_language
    from parlor.i18n import translate_error
    from parlor.server import database_url
    from parlor.server.backup import BackupError, backup

    lang = help_language(None)
    _ = translator(lang)
    url = database_url(args.database_url)
    try:
        copied = backup(url, Path(args.file), overwrite=args.force)
    except BackupError as exc:
        print(translate_error(exc.args[0], lang), file=sys.stderr)
        return 1
    print(
        _(
            "copied {tables} tables and {actions} actions ({size} MB) to {path}",
            tables=copied.tables,
            actions=copied.actions,
            size=f"{copied.size / 1e6:.1f}",
            path=str(copied.path),
        )
    )
    print(
        _(
            "to restore: stop the server and copy {path} over the database file (and delete "
            "its -wal and -shm files), or serve the copy: "
            "parlor serve --database-url sqlite:///{path}",
            path=str(copied.path),
        )
    )
    return 0
