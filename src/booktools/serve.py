"""Serve the built site on this machine only, so that its pages can rerun a lesson in the browser.

    make serve                 # http://127.0.0.1:8000/ (after make book)
    make serve PORT=8123

A page opened as a file (``file://``) cannot start the in-page run: browsers refuse a module Web Worker
to a page whose origin is null. Served over http it can. The server listens on the loopback address
only (nobody else on the network reaches it), serves ``_build/html`` read-only with the types the run
needs (``.mjs`` as JavaScript, ``.wasm`` as WebAssembly), and logs nothing but errors.
"""

import argparse
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .lessons import project_root

HOST = "127.0.0.1"
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".zip": "application/zip"}


class SiteHandler(SimpleHTTPRequestHandler):
    """The site's files with the types a module Worker and WebAssembly need; quiet."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format, *args):
        pass


def make_server(folder: Path, port: int = 8000, host: str = HOST) -> ThreadingHTTPServer:
    """A server of ``folder`` on ``host``:``port`` (0: any free port), loopback addresses only."""
    if not (host == "localhost" or host.startswith("127.") or host == "::1"):
        raise ValueError(f"host must be a loopback address (127.x.x.x, ::1 or localhost), got {host!r}")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an int from 0 to 65535, got {port!r}")
    if not (folder / "index.html").is_file():
        raise FileNotFoundError(f"{folder} holds no built site (run make book first)")
    return ThreadingHTTPServer((host, port), partial(SiteHandler, directory=str(folder)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    args = parser.parse_args(argv)
    try:
        server = make_server(project_root() / "_build" / "html", args.port)
    except (FileNotFoundError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"Serving the book on http://{HOST}:{server.server_address[1]}/ (this machine only); Ctrl+C stops.",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
