"""Run a module in a fresh process with discord.py pointed at a fake Discord.

    python -m tests.fake_discord.launch --url http://127.0.0.1:PORT -- bot [args…]

(``--api`` is accepted as an alias of ``--url``; it may also be the full
``…/api/v10`` base.) Patches ``Route.BASE`` and ``DEFAULT_GATEWAY``, blocks
every non-loopback connection, then runs the module as ``__main__`` with
``runpy`` — so crash tests can start the real bot as a subprocess and
SIGKILL it. ``FakeDiscord.launch_command(module, *args)`` builds this argv.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from urllib.parse import urlsplit


def parse(argv: list[str]) -> tuple[str, str, list[str], bool]:
    """(api_base, gateway_url, [module, args…], block) from the command line.

    >>> parse(["--url", "http://127.0.0.1:5000", "--", "bot", "-v"])[:3]
    ('http://127.0.0.1:5000/api/v10', 'ws://127.0.0.1:5000/ws', ['bot', '-v'])
    """
    if "--" in argv:
        cut = argv.index("--")
        ours, target = argv[:cut], argv[cut + 1:]
    else:
        ours, target = argv, []
    parser = argparse.ArgumentParser(prog="python -m tests.fake_discord.launch")
    parser.add_argument("--url", "--api", dest="url", required=True, help="the fake's http://127.0.0.1:PORT")
    parser.add_argument("--gateway", help="gateway URL (default ws://HOST:PORT/ws)")
    parser.add_argument("--no-block", action="store_true", help="do not block non-loopback connections")
    parser.add_argument("target", nargs="*", help="module [args…] (or put them after --)")
    args = parser.parse_args(ours)
    target = args.target + target
    if not target:
        parser.error("which module should run? e.g. -- bot")
    parts = urlsplit(args.url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error(f"refusing non-loopback fake URL {args.url!r}")
    root = f"{parts.scheme}://{parts.netloc}"
    api = args.url.rstrip("/") if "/api/v" in parts.path else f"{root}/api/v10"
    gateway = args.gateway or f"ws://{parts.netloc}/ws"
    return api, gateway, target, not args.no_block


def main(argv: list[str] | None = None) -> None:
    """Patch discord.py, then run the target module as ``__main__`` (its exit status is ours)."""
    api, gateway, target, block = parse(sys.argv[1:] if argv is None else argv)
    from .patch import block_network, patch_urls

    module, *rest = target
    with patch_urls(api, gateway):
        if block:
            block_network().__enter__()  # for the whole process lifetime; never restored
        sys.argv = [module, *rest]
        runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
