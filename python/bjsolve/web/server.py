"""Running the app: uvicorn on 127.0.0.1, on a port of the caller's choice or a free one."""
from __future__ import annotations

import socket
import threading
import webbrowser

HOST = "127.0.0.1"    # local only: the app is for the user of this machine


def bound_socket(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (port 0: a free port the system picks).  Binding
    here, before uvicorn starts, is what tells us the free port's number to print."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be 0..65535 (0: a free port), got {port!r}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise ValueError(f"port {port}: cannot listen on {HOST}:{port} ({exc.strerror}); "
                         "pick another or give 0 for a free one") from None
    # listening now: a browser that connects before uvicorn is up waits in the queue
    sock.listen(128)
    return sock


def run(port: int = 0, *, open_browser: bool = True, announce=print) -> None:
    import uvicorn

    from .app import create_app
    sock = bound_socket(port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/"
    config = uvicorn.Config(create_app(warm_up=True), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    announce(f"bjsolve: serving on {url} (Ctrl-C stops)")
    if open_browser:
        # once the server is up: a timer is enough, the browser retries its first request
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])
