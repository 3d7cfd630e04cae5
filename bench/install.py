"""`pip install twinfs` as a new user does it: the wheel into a fresh virtualenv with no compiler on PATH, then
`twin init/add/search` from outside the checkout.

    ./run bench install [--cold] [--keep DIR]

Builds the wheel from a copy of the checkout, makes a fresh venv (its own pip, as `python3 -m venv` gives it),
and with PATH holding only the venv and git (CC=false, CXX=false) installs torch's CPU build first
(`pip install torch==2.13.0`: on this machine's pip configuration that is the `+cpu` wheel) and then the wheel.
Prints the time of each step, every package pip had to build from source (none means wheels only), the venv's
size, and the time of the first `twin` commands (the first one exports the embedder's ONNX graph). `--cold`
passes --no-cache-dir, so every wheel is downloaded again.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_vault.jsonl"
TORCH = "torch==2.13.0"
COMPILERS = ("gcc", "cc", "c++", "g++", "clang", "cmake")


def cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    return platform.processor()


def run(argv: list[str], env: dict[str, str], cwd: Path, label: str, log: Path) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    with log.open("a") as out:
        out.write(f"$ {' '.join(argv)}\n{done.stdout}{done.stderr}\n")
    if done.returncode != 0:
        sys.exit(f"{label} failed ({done.returncode}); the log is {log}:\n{done.stderr[-3000:]}")
    return seconds, done.stdout + done.stderr


def build_wheel(work: Path) -> Path:
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for package in ("twinfs", "server"):
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(work / "dist"), str(src)], check=True, capture_output=True)
    return next((work / "dist").glob("twinfs-*.whl"))


def no_compiler_env(venv: Path, work: Path) -> dict[str, str]:
    """PATH: the venv and a folder with git alone (twin needs git); CC/CXX set to `false`."""
    tools = work / "tools"
    tools.mkdir()
    os.symlink(shutil.which("git"), tools / "git")
    path = f"{venv / 'bin'}:{tools}"
    found = [c for c in COMPILERS if shutil.which(c, path=path)]
    if found:
        sys.exit(f"the install PATH still finds {', '.join(found)}")
    keep = {k: v for k, v in os.environ.items() if k.startswith(("PIP_", "HOME", "LANG", "TMPDIR", "SSL_"))}
    return {**keep, "PATH": path, "CC": "false", "CXX": "false", "VIRTUAL_ENV": str(venv)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cold", action="store_true", help="pip --no-cache-dir: download every wheel again")
    ap.add_argument("--keep", help="make the venv here and keep it (default: a temporary folder, removed)")
    args = ap.parse_args()
    started = datetime.datetime.now().strftime("%d %b %Y %H:%M")
    load = os.getloadavg()
    work = Path(args.keep or tempfile.mkdtemp(prefix="twin-install-"))
    work.mkdir(parents=True, exist_ok=True)
    log = work / "install.log"
    try:
        t0 = time.perf_counter()
        wheel = build_wheel(work)
        wheel_s = time.perf_counter() - t0
        venv = work / "venv"
        python = str(Path(sys.base_prefix) / "bin" / "python3")  # the interpreter ./run's env was made from
        t0 = time.perf_counter()
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        venv_s = time.perf_counter() - t0
        env = no_compiler_env(venv, work)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", *(["--no-cache-dir"] if args.cold else [])]
        pip_version = subprocess.run(pip[:3] + ["--version"], env=env, capture_output=True, text=True).stdout.split()[1]
        torch_s, _ = run([*pip, TORCH], env, work, "installing torch", log)
        twin_s, out = run([*pip, str(wheel)], env, work, "installing the wheel", log)
        built = sorted(set(re.findall(r"Building wheel for (\S+)", out)))
        fetched = len(re.findall(r"^\s*Downloading \S+\.whl", out, re.M))
        cached = len(re.findall(r"^\s*Using cached \S+\.whl", out, re.M))
        llama = subprocess.run([str(venv / "bin" / "python"), "-c", "import llama_cpp"], env=env,
                               capture_output=True).returncode == 0
        size = subprocess.run(["du", "-sm", str(venv)], capture_output=True, text=True).stdout.split()[0]

        outside = work / "elsewhere"  # not the checkout: only what the wheel installed runs
        outside.mkdir()
        home = outside / "home"
        renv = {**env, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TWIN_MODEL_CACHE": str(work / "models"),
                "TWIN_READING": "1"}
        twin = str(venv / "bin" / "twin")
        timings = []
        for label, argv in [("init", [twin, "--home", str(home), "init"]),
                            ("add (first use: exports the embedder)",
                             [twin, "--home", str(home), "add", "--quiet", "--account", "alice", str(SAMPLE)]),
                            ("search", [twin, "--home", str(home), "search", "--account", "alice",
                                        "Where does Alice live?", "--json"])]:
            seconds, out = run(argv, renv, outside, f"twin {label}", log)
            timings.append((label, seconds))
        hits = out.count('"content":"stored"')
        if hits == 0:
            sys.exit(f"the search found nothing: {out[-2000:]}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print(f"$ ./run bench install{' --cold' if args.cold else ''}   ({started}; {cpu()}; load "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; Python {platform.python_version()}, pip {pip_version})")
    rows = [("wheel built", wheel_s, wheel.name), ("fresh venv", venv_s, ""),
            (f"pip install {TORCH}", torch_s, "the CPU build"),
            ("pip install the wheel", twin_s, f"{fetched} wheels downloaded, {cached} from pip's cache"
                                              f"{'; cache off' if args.cold else ''}"),
            ("installed in all", venv_s + torch_s + twin_s,
             f"venv {size} MB; no compiler on PATH (CC=false); built from source: {', '.join(built) or 'nothing'}; "
             f"llama_cpp importable: {llama}"),
            *((f"twin {label}", seconds, "") for label, seconds in timings)]
    for label, seconds, note in rows:
        print(f"{label:<44} {seconds:6.1f} s   {note}".rstrip())
    print(f"the search answered {hits} hits, from outside the checkout")


if __name__ == "__main__":
    main()
