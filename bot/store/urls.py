"""What a ``DATABASE_URL`` names: which backend, and the file path or server URL it opens; the same
URL without its secrets (for logs), and as libpq's environment (for pg_dump)."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

DEFAULT_DATABASE_URL = "sqlite:///data/bot.sqlite3"

#: query parameters whose values are secrets: never printed
SECRET_PARAMETERS = frozenset({"password", "sslpassword"})

#: libpq's connection parameters and the environment variable that sets each (PostgreSQL's
#: "Environment Variables" page); ``database`` is asyncpg's other name for ``dbname``
LIBPQ_ENVIRONMENT = {
    "host": "PGHOST", "hostaddr": "PGHOSTADDR", "port": "PGPORT", "dbname": "PGDATABASE", "database": "PGDATABASE",
    "user": "PGUSER", "password": "PGPASSWORD", "passfile": "PGPASSFILE", "channel_binding": "PGCHANNELBINDING",
    "service": "PGSERVICE", "servicefile": "PGSERVICEFILE", "options": "PGOPTIONS", "application_name": "PGAPPNAME",
    "sslmode": "PGSSLMODE", "requiressl": "PGREQUIRESSL", "sslcompression": "PGSSLCOMPRESSION",
    "sslcert": "PGSSLCERT", "sslkey": "PGSSLKEY", "sslcertmode": "PGSSLCERTMODE", "sslrootcert": "PGSSLROOTCERT",
    "sslcrl": "PGSSLCRL", "sslcrldir": "PGSSLCRLDIR", "sslsni": "PGSSLSNI", "requirepeer": "PGREQUIREPEER",
    "require_auth": "PGREQUIREAUTH", "ssl_min_protocol_version": "PGSSLMINPROTOCOLVERSION",
    "ssl_max_protocol_version": "PGSSLMAXPROTOCOLVERSION", "gssencmode": "PGGSSENCMODE",
    "krbsrvname": "PGKRBSRVNAME", "gsslib": "PGGSSLIB", "gssdelegation": "PGGSSDELEGATION",
    "connect_timeout": "PGCONNECT_TIMEOUT", "client_encoding": "PGCLIENTENCODING",
    "target_session_attrs": "PGTARGETSESSIONATTRS", "load_balance_hosts": "PGLOADBALANCEHOSTS",
}

#: libpq parameters no environment variable can set
LIBPQ_WITHOUT_ENVIRONMENT = frozenset({
    "sslpassword", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
    "tcp_user_timeout", "replication", "fallback_application_name", "sslkeylogfile",
})


class DatabaseURLError(ValueError):
    """A DATABASE_URL the bot can't use; the message says what would be right."""


def database_target(url: str) -> tuple[str, str]:
    """("sqlite", file path) or ("postgres", postgresql URL) for a DATABASE_URL or a bare file path.

    >>> database_target("sqlite:///data/bot.sqlite3")
    ('sqlite', 'data/bot.sqlite3')
    >>> database_target("sqlite:////var/lib/hexcord/bot.sqlite3")
    ('sqlite', '/var/lib/hexcord/bot.sqlite3')
    >>> database_target("postgres://bot@localhost/hexcord")
    ('postgres', 'postgresql://bot@localhost/hexcord')
    >>> database_target("data/bot.sqlite3")
    ('sqlite', 'data/bot.sqlite3')
    """
    if url.startswith(("postgresql://", "postgres://")):
        target = "postgresql://" + url.split("://", 1)[1]
        _check_ports(target)
        return "postgres", target
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if not path:
            raise DatabaseURLError("DATABASE_URL sqlite:/// needs a file path, e.g. sqlite:///data/bot.sqlite3")
        return "sqlite", path
    if "://" in url or url.startswith("sqlite:"):
        raise DatabaseURLError(
            f"DATABASE_URL {url.split(':', 1)[0]}: is not supported: use sqlite:///PATH or postgresql://USER@HOST/DB"
        )
    return "sqlite", url


def _parts(url: str) -> tuple[str, str, str, list[tuple[str, str]]]:
    """A postgresql URL's (user info, host list, database, query parameters), still percent-encoded
    but the parameters. A comma-separated host list is why ``urlsplit().port`` can't be used."""
    try:
        split = urlsplit(url)
    except ValueError as exc:  # e.g. an unclosed IPv6 bracket
        raise DatabaseURLError(f"DATABASE_URL is not a valid postgresql:// URL ({exc})") from None
    auth, _, hosts = split.netloc.rpartition("@")
    return auth, hosts, split.path.lstrip("/"), parse_qsl(split.query, keep_blank_values=True)


def _host_port(spec: str) -> tuple[str, str]:
    """One host of a host list as (host, port); ``[::1]:5432`` keeps its brackets off."""
    if spec.startswith("["):
        host, _, rest = spec[1:].partition("]")
        return host, rest[1:] if rest.startswith(":") else rest
    host, _, port = spec.partition(":")
    return host, port


def _check_ports(url: str) -> None:
    """Refuse a port that is not a number from 1 to 65535, in the host list or ``?port=``.

    >>> _check_ports("postgresql://u@h1:5432,[::1]:5433/db?host=/run&port=6432")
    >>> _check_ports("postgresql://u:p@host:notaport/db")
    Traceback (most recent call last):
    bot.store.urls.DatabaseURLError: DATABASE_URL's port 'notaport' is not a port number (1 to 65535).
    """
    _, hosts, _, params = _parts(url)
    ports = [unquote(_host_port(spec)[1]) for spec in hosts.split(",") if spec]
    ports += [port for key, value in params if key == "port" for port in value.split(",")]
    for port in ports:
        if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            raise DatabaseURLError(f"DATABASE_URL's port {port!r} is not a port number (1 to 65535).")


def redacted_url(url: str) -> str:
    """A postgresql URL without its secrets: the password in the user info dropped, a secret
    query parameter's value replaced by ``<hidden>``. Anything else is returned as given.

    >>> redacted_url("postgresql://bot:pw@db.example/hexcord?sslmode=require&password=pw")
    'postgresql://bot@db.example/hexcord?sslmode=require&password=<hidden>'
    """
    if not url.startswith(("postgresql://", "postgres://")):
        return url
    try:
        split = urlsplit(url)
    except ValueError:
        return "postgresql://<a URL that can't be read>"
    auth, at, hosts = split.netloc.rpartition("@")
    netloc = auth.split(":", 1)[0] + at + hosts
    params = [(key, "<hidden>" if key in SECRET_PARAMETERS else value)
              for key, value in parse_qsl(split.query, keep_blank_values=True)]
    query = urlencode(params, safe="/<>", quote_via=quote)
    return urlunsplit((split.scheme, netloc, split.path, query, split.fragment))


def database_password(url: str) -> str:
    """The password a postgresql URL carries (user info or ``?password=``), or ""."""
    if not url.startswith(("postgresql://", "postgres://")):
        return ""
    auth, _, _, params = _parts(url)
    passwords = [value for key, value in params if key == "password"]
    if passwords:
        return passwords[-1]
    return unquote(auth.partition(":")[2])


def libpq_environment(url: str) -> dict[str, str]:
    """A postgresql URL as libpq's environment variables (PGHOST, PGPASSWORD…), so a libpq program
    such as pg_dump connects with nothing on its command line, where ``ps`` would show it.

    Query parameters libpq doesn't know are server settings (as asyncpg reads them), passed in
    PGOPTIONS; a parameter only a URL or service file can carry is refused.

    >>> sorted(libpq_environment("postgresql://bot:pw@h1:5433,h2/hex?sslmode=require&search_path=a").items())
    [('PGDATABASE', 'hex'), ('PGHOST', 'h1,h2'), ('PGOPTIONS', '-c search_path=a'), ('PGPASSWORD', 'pw'), \
('PGPORT', '5433,'), ('PGSSLMODE', 'require'), ('PGUSER', 'bot')]
    """
    auth, hosts, database, params = _parts(url)
    env: dict[str, str] = {}
    user, colon, password = auth.partition(":")
    if user:
        env["PGUSER"] = unquote(user)
    if colon:
        env["PGPASSWORD"] = unquote(password)
    specs = [_host_port(spec) for spec in hosts.split(",")] if hosts else []
    if any(host for host, _ in specs):
        env["PGHOST"] = ",".join(unquote(host) for host, _ in specs)
    if any(port for _, port in specs):
        env["PGPORT"] = ",".join(unquote(port) for _, port in specs)
    if database:
        env["PGDATABASE"] = unquote(database)
    options = []
    for key, value in params:
        if key in LIBPQ_ENVIRONMENT:
            env[LIBPQ_ENVIRONMENT[key]] = value
        elif key in LIBPQ_WITHOUT_ENVIRONMENT:
            raise DatabaseURLError(f"pg_dump can't be given ?{key}= without putting it on its command line: "
                                   "put it in a libpq service file and use ?service=NAME.")
        else:
            escaped = f"{key}={value}".replace("\\", "\\\\").replace(" ", "\\ ")
            options.append(f"-c {escaped}")
    if options:
        env["PGOPTIONS"] = " ".join(filter(None, [env.get("PGOPTIONS", ""), *options]))
    return env
