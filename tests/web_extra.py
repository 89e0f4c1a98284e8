"""What the web app's tests need beyond the package: the web extra (Starlette, Jinja2) and
the HTTP client Starlette's TestClient runs on.  ``require_web_extra()`` at the top of a
test module skips the whole module, naming what is missing."""
import pytest


def require_web_extra() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("jinja2")
    try:                           # Starlette's TestClient runs on httpx2 (httpx before 1.0)
        import httpx2  # noqa: F401
    except ImportError:
        pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx2 or httpx")
