"""``hanabi serve``: the analysis board in the browser (the :mod:`web` package)."""
from __future__ import annotations

import errno
import socket

import click

from solver.errors import MalformedError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than the loopback one is reachable from other machines).")
@click.option("--port", type=int, default=8765, show_default=True, help="The port to listen on.")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Worker processes that solve (each request's work runs in one, with a fixed budget).")
@click.option("--store", metavar="FILE", help="Keep the answers in this SQLite file (created if need be): a board "
                                               "opened again, even after a restart, is answered at once.")
def serve(host: str, port: int, workers: int, store: str | None) -> None:
    """The analysis board in the browser: open a hanab.live seed or game, step through it,
    solve from any turn, review it. Local: every page, script and style is served by the
    package; nothing is fetched from the network."""
    if not 0 < port < 65536:
        raise MalformedError(f"--port {port}: a port is 1..65535")
    if workers < 1:
        raise MalformedError(f"--workers must be at least 1, got {workers}")
    _check_free(host, port)
    import uvicorn

    from web import create_app
    from web.store import AnswerStore

    if store is not None:
        AnswerStore(store).close()  # a file that cannot be a store: a one-line error before the server starts

    if host not in LOOPBACK:
        click.echo(f"warning: listening on {host}: the board is reachable from other machines", err=True)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"hanabi serve: http://{shown}:{port}/ (Ctrl-C stops it)", err=True)
    uvicorn.run(create_app(workers=workers, store=store), host=host, port=port, log_level="warning",
                access_log=False)


def _check_free(host: str, port: int) -> None:
    """A one-line error before the server starts when the address cannot be taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise MalformedError(f"--host {host!r}: {e.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            why = "is in use" if e.errno == errno.EADDRINUSE else f"cannot be used: {e.strerror}"
            raise MalformedError(f"{host}:{port} {why}; choose another with --port") from None


COMMANDS = [serve]
