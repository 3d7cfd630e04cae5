"""The shipped nginx front door (deploy/nginx/twinfs.conf) in front of real `twin serve` processes, on loopback."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from served import ROOT, Server, free_port

CONF = ROOT / "deploy" / "nginx" / "twinfs.conf"
MOVED = ROOT / "deploy" / "nginx" / "moved.map"
SHIPPED_PORTS = (8801, 8802, 8803)  # the servers the shipped file lists, in its order
SHIPPED_LISTEN = 8765
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/sbin")

WRAPPER = """{user}
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {d}/tmp/body;
    proxy_temp_path {d}/tmp/proxy;
    fastcgi_temp_path {d}/tmp/fastcgi;
    uwsgi_temp_path {d}/tmp/uwsgi;
    scgi_temp_path {d}/tmp/scgi;
    include {d}/twinfs.conf;
}}
"""


@dataclass
class FrontDoor:
    url: str
    folder: Path
    moved: Path  # the live moved.map
    process: subprocess.Popen
    upstreams: dict[str, int]  # twin_N -> port

    def command(self, *more: str) -> list[str]:
        return [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), *more]

    def reload(self) -> None:
        """As an operator would after editing moved.map: the config checked, then a graceful reload."""
        subprocess.run(self.command("-t", "-q"), check=True, capture_output=True)
        os.kill(self.process.pid, signal.SIGHUP)

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text() if path.exists() else ""


def render(ports: list[int], listen: int, moved: Path) -> str:
    """The shipped file with this run's ports and paths: nothing else of it changes."""
    text = CONF.read_text()
    assert len(ports) == len(SHIPPED_PORTS), "the shipped file lists three servers"
    for shipped, port in zip(SHIPPED_PORTS, ports, strict=False):
        text = text.replace(f"127.0.0.1:{shipped};", f"127.0.0.1:{port};").replace(
            f"127.0.0.1:{shipped} ", f"127.0.0.1:{port} ")
    text = text.replace(f"listen {SHIPPED_LISTEN};", f"listen 127.0.0.1:{listen};")
    return text.replace("/etc/nginx/twinfs/moved.map", str(moved))


def start_front(folder: Path, servers: list[Server]) -> FrontDoor:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tmp").mkdir(exist_ok=True)
    ports = [int(s.url.rsplit(":", 1)[1]) for s in servers]
    listen = free_port()
    moved = folder / "moved.map"
    shutil.copy(MOVED, moved)
    (folder / "twinfs.conf").write_text(render(ports, listen, moved))
    # as root, nginx's workers would run as nobody, who cannot enter the test's private folder
    user = "user root;" if os.geteuid() == 0 else ""
    (folder / "nginx.conf").write_text(WRAPPER.format(user=user, d=folder))
    front = FrontDoor(f"http://127.0.0.1:{listen}", folder, moved, None,  # type: ignore[arg-type]
                      {f"twin_{n}": port for n, port in enumerate(ports, 1)})
    front.process = subprocess.Popen(front.command("-g", "daemon off;"), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if front.process.poll() is not None:
            raise RuntimeError(f"nginx exited with {front.process.returncode}:\n{front.log()}")
        try:
            httpx.get(f"{front.url}/v1/health", timeout=2)
            return front
        except httpx.TransportError:
            time.sleep(0.1)
    stop_front(front)
    raise RuntimeError(f"nginx did not answer in 30 s:\n{front.log()}")


def stop_front(front: FrontDoor) -> None:
    front.process.send_signal(signal.SIGQUIT)  # graceful: the workers finish what they serve
    try:
        front.process.wait(15)
    except subprocess.TimeoutExpired:
        front.process.kill()
        front.process.wait(5)
