"""HTML to PDF in a process of its own, so that WeasyPrint's memory is never a worker's.

WeasyPrint with its fonts and layout caches holds 60 to 80 MB once it has rendered a few
sheets, and that memory is not given back. A worker therefore never imports it: each
worker starts, at its first PDF, one renderer process that imports WeasyPrint once, renders
every PDF the worker asks for, and is replaced by a fresh one after ``RENDERS`` PDFs so
that its own memory stays bounded too. Even the process pool is imported at the first PDF.

A renderer ends with its worker, however the worker ends (``kill -9`` too): it watches its
parent (:func:`_watch_parent`), and multiprocessing's resource tracker, the renderer's
helper, ends once both are gone.
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

RENDERS = 50  # PDFs a renderer process makes before a fresh one replaces it
TIMEOUT = 120  # seconds one PDF may take

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


@functools.cache
def _stylesheet(path: str):
    from weasyprint import CSS

    return CSS(filename=path)


WATCH_EVERY = 0.5  # seconds between two looks of a renderer at its worker


def _watch_parent(parent: int) -> None:
    """Run in a renderer as it starts: it ends as soon as its worker is gone. On Linux the
    kernel tells it (``PR_SET_PDEATHSIG``); everywhere, a thread looks every half second
    whether it was handed to another parent."""
    import os
    import signal
    import sys

    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-worker").start()


def _render(html: str, base_url: str, stylesheet: str) -> bytes:
    """Runs in the renderer process: WeasyPrint's own ``HTML``, with its own user-agent
    stylesheet, and the app's stylesheet through the public ``stylesheets`` argument."""
    from weasyprint import HTML

    document = HTML(string=html, base_url=base_url)
    return document.write_pdf(stylesheets=[_stylesheet(stylesheet)])


def _renderer(fresh: bool = False) -> ProcessPoolExecutor:
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    global _pool
    with _lock:
        if fresh and _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
        if _pool is None:
            _pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                        max_tasks_per_child=RENDERS,
                                        initializer=_watch_parent, initargs=(os.getpid(),))
        return _pool


def render(html: str, base_url: str, stylesheet: str) -> bytes:
    """The PDF of ``html``, its relative addresses read from ``base_url``, styled by the
    stylesheet file ``stylesheet``. A renderer that died is replaced once."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return _renderer().submit(_render, html, base_url, stylesheet).result(TIMEOUT)
    except BrokenProcessPool:
        return _renderer(fresh=True).submit(_render, html, base_url, stylesheet).result(TIMEOUT)
