"""Throwaway Redis and PostgreSQL servers on the loopback, for the tests and ``shutthebox loadtest``.

Several server processes share their rooms through Redis and their games
through PostgreSQL. To run them where neither is set up, each context manager
here starts a private server on a free port, its files in a folder of the
caller's, answers its URL once it serves, and stops it when the block ends::

    with temporary_postgres(folder) as database, temporary_redis(folder) as broker:
        ...  # postgresql://postgres@127.0.0.1:PORT/shutthebox, redis://127.0.0.1:PORT/0

Nothing is kept: Redis writes no snapshot, PostgreSQL (unless ``durable``)
skips fsync. `missing_redis` and `missing_postgres` say, in a sentence, why a
server cannot be started here (so a test can skip with that reason). A server
that does not start raises `RuntimeError` with the tail of its log. Only the
standard library is imported here; psycopg when a database is created.
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from shutthebox.core.errors import N_  # the reasons a service cannot run here: said in the user's language

__all__ = [
    "free_port", "log_tail", "missing_postgres", "missing_redis", "temporary_postgres", "temporary_redis",
]

POSTGRES_USER = "postgres"
"""The cluster's superuser, and the system account that runs it when we are root (PostgreSQL
refuses to run as root)."""

DATABASE = "shutthebox"
STARTUP_SECONDS = 60
STOP_SECONDS = 30
_SOCKET_PATH_MOST = 100
"""A Unix socket path holds at most 107 bytes (``sun_path``); ``.s.PGSQL.65535`` included."""


def free_port() -> int:
    """A loopback port nobody listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def log_tail(log: Path, lines: int = 30) -> str:
    """The last lines of a server's log, for an error that says why it stopped."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"(no log at {log})"
    return "\n".join(text.splitlines()[-lines:])


# -- Redis -------------------------------------------------------------------------------------
def missing_redis() -> str | None:
    """None when `temporary_redis` can run here, else why not."""
    if shutil.which("redis-server") is None:
        return N_("redis-server is not installed (Debian: apt-get install redis-server)")
    if find_spec("redis") is None:
        return N_("the redis Python package is missing (pip install 'shutthebox[redis]')")
    return None


def _pings(port: int) -> bool:
    """Whether Redis on ``port`` answers PING (an inline command: no client library needed)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def temporary_redis(folder: Path, *, port: int | None = None) -> Iterator[str]:
    """A private ``redis-server`` on a free loopback port (or ``port``: one started again where a
    stopped one served), keeping nothing on disk; its URL ``redis://127.0.0.1:PORT/0``. Its working
    folder and log are in ``folder``."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError(missing_redis())
    port = port or free_port()
    home = folder / f"redis-{port}"
    home.mkdir(parents=True, exist_ok=True)
    log = home / "redis.log"
    command = [
        binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
        "--daemonize", "no", "--protected-mode", "yes",
    ]  # its files go to its working folder: no path to quote in Redis's own syntax
    with log.open("ab") as output:
        process = subprocess.Popen(command, cwd=home, stdin=subprocess.DEVNULL, stdout=output, stderr=output)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not _pings(port):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server stopped (exit {process.returncode}):\n{log_tail(log)}")
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server did not answer within {STARTUP_SECONDS} s:\n{log_tail(log)}"
                )
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- PostgreSQL -----------------------------------------------------------------------------------
def _version(folder: Path) -> tuple[int, ...]:
    """The version a Debian ``/usr/lib/postgresql/<version>`` folder names (``15`` or ``9.6``)."""
    return tuple(int(part) for part in re.findall(r"\d+", folder.name))


def _postgres_bin() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` of one installation: the one on
    the PATH, else Debian's newest (which keeps them off the PATH)."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found is not None else []
    installed = [path for path in Path("/usr/lib/postgresql").glob("*") if _version(path)]
    candidates += [path / "bin" for path in sorted(installed, key=_version, reverse=True)]
    for folder in candidates:
        if all((folder / name).is_file() and os.access(folder / name, os.X_OK)
               for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _server_account() -> pwd.struct_passwd | None:
    """The account to run PostgreSQL as: ``postgres`` when we are root, else none (ourselves)."""
    return pwd.getpwnam(POSTGRES_USER) if os.geteuid() == 0 else None


def missing_postgres() -> str | None:
    """None when `temporary_postgres` can run here, else why not."""
    if _postgres_bin() is None:
        return N_(
            "PostgreSQL (initdb, pg_ctl, postgres) is not installed (Debian: apt-get install postgresql)"
        )
    if find_spec("psycopg") is None:
        return N_("the psycopg driver is missing (pip install 'shutthebox[postgres]')")
    if os.geteuid() == 0:
        try:
            _server_account()
        except KeyError:
            return f"PostgreSQL refuses to run as root, and there is no {POSTGRES_USER!r} user to run it as"
    return None


def _reachable(folder: Path, account: pwd.struct_passwd | None) -> bool:
    """Whether ``account`` (None: ourselves) can reach ``folder``: every folder above it lets
    that account through (pytest's own temporary folders, for one, are private to root)."""
    if account is None:
        return True
    groups = {account.pw_gid} | {g.gr_gid for g in _groups_of(account.pw_name)}
    for parent in [folder, *folder.parents]:
        status = parent.stat()
        if status.st_uid == account.pw_uid:
            allowed = status.st_mode & 0o100
        elif status.st_gid in groups:
            allowed = status.st_mode & 0o010
        else:
            allowed = status.st_mode & 0o001
        if not allowed:
            return False
    return True


def _groups_of(user: str) -> list[grp.struct_group]:
    return [group for group in grp.getgrall() if user in group.gr_mem]


@dataclass(frozen=True, slots=True)
class _Cluster:
    """A cluster's folders, and how its programs are run."""

    bin: Path
    data: Path
    sockets: Path
    log: Path
    account: pwd.struct_passwd | None

    def run(self, *command: str, timeout: float) -> subprocess.CompletedProcess[str]:
        """A PostgreSQL program, as the cluster's account, its output kept for the error."""
        environment = {k: v for k, v in os.environ.items() if not k.startswith("PG")} | {"LC_ALL": "C"}
        account = self.account
        return subprocess.run(
            [str(self.bin / command[0]), *command[1:]], capture_output=True, text=True, check=False,
            timeout=timeout, env=environment, cwd=self.data.parent,
            user=account.pw_uid if account else None, group=account.pw_gid if account else None,
            extra_groups=[] if account else None,
        )

    def failure(self, what: str, result: subprocess.CompletedProcess[str]) -> RuntimeError:
        output = (result.stdout + result.stderr).strip()
        return RuntimeError(
            f"postgres {what} failed (exit {result.returncode}): {output}\n{log_tail(self.log)}"
        )


def _quoted(value: str) -> str:
    """A string setting of postgresql.conf, quoted."""
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"


@contextmanager
def _cluster_home(folder: Path, account: pwd.struct_passwd | None) -> Iterator[Path]:
    """A new folder for a cluster: in ``folder`` when the server's account can reach it and the
    socket path fits, else a private one in the system's temporary folder, removed after."""
    folder.mkdir(parents=True, exist_ok=True)
    home = folder / f"postgres-{uuid.uuid4().hex[:8]}"
    socket_path = home / "sockets" / ".s.PGSQL.65535"
    if _reachable(folder, account) and len(os.fsencode(socket_path)) <= _SOCKET_PATH_MOST:
        home.mkdir(parents=True)
        yield home
        return
    spare = Path(tempfile.mkdtemp(prefix="stb-pg-"))
    try:
        yield spare
    finally:
        shutil.rmtree(spare, ignore_errors=True)


def _stop(cluster: _Cluster) -> None:
    """``pg_ctl stop -m fast``; the postmaster killed if that does not stop it in time."""
    try:
        result = cluster.run("pg_ctl", "stop", "-D", str(cluster.data), "-m", "fast", "-w",
                             "-t", str(STOP_SECONDS), timeout=STOP_SECONDS + 5)
        stopped = result.returncode == 0
    except subprocess.TimeoutExpired:
        stopped = False
    pid_file = cluster.data / "postmaster.pid"
    if not stopped and pid_file.exists():
        with suppress(ValueError, IndexError, OSError):
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)


def _create_database(port: int, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host="127.0.0.1", port=port, user=POSTGRES_USER, dbname="postgres",
                         autocommit=True, connect_timeout=10) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


@contextmanager
def temporary_postgres(folder: Path, *, durable: bool = False) -> Iterator[str]:
    """A private PostgreSQL cluster on a free loopback port, trusting every local connection, with
    an empty database ``shutthebox``; its URL ``postgresql://postgres@127.0.0.1:PORT/shutthebox``.

    The cluster's files stay in ``folder``; when we are root the ``postgres`` account runs it, and
    if that account cannot reach ``folder`` (or the socket path would be too long) they go to a
    private folder of the system's temporary one instead, removed at the end. Unless ``durable``,
    it skips fsync: fast, and lost in a power cut, as a test's data may be.
    """
    binaries = _postgres_bin()
    if binaries is None:
        raise RuntimeError(missing_postgres())
    account = _server_account()
    with _cluster_home(folder, account) as home:
        cluster = _Cluster(binaries, home / "data", home / "sockets", home / "postgres.log", account)
        cluster.sockets.mkdir()
        if account is not None:
            for path in (home, cluster.sockets):
                os.chown(path, account.pw_uid, account.pw_gid)
        initdb = ["initdb", "-D", str(cluster.data), "-U", POSTGRES_USER, "--auth=trust", "--encoding=UTF8",
                  "--locale=C", "--no-instructions"]
        result = cluster.run(*initdb, *([] if durable else ["--no-sync"]), timeout=STARTUP_SECONDS)
        if result.returncode != 0:
            raise cluster.failure("initdb", result)
        port = free_port()
        settings = {
            "port": str(port),
            "listen_addresses": _quoted("127.0.0.1"),
            "unix_socket_directories": _quoted(str(cluster.sockets)),
            **({} if durable else {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}),
        }
        with (cluster.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write("\n# temporary_postgres\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))
        try:
            result = cluster.run("pg_ctl", "start", "-D", str(cluster.data), "-l", str(cluster.log), "-w",
                                 "-t", str(STARTUP_SECONDS), timeout=STARTUP_SECONDS + 5)
            if result.returncode != 0:
                raise cluster.failure("start", result)
            _create_database(port, DATABASE)
            yield f"postgresql://{POSTGRES_USER}@127.0.0.1:{port}/{DATABASE}"
        finally:
            _stop(cluster)
