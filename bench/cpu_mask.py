"""Run a command as on a CPU without AVX-512, AMX or VNNI: AVX2 and FMA, what many laptops and AMD EPYC before
Zen 4 have. Only on a CPU that lists `cpuid_fault` (the kernel traps CPUID for the process).

    ./run bench cpu_mask ./run bench load          # the load bench on an AVX2 CPU
    ./run bench cpu_mask --check                   # what numpy and torch see, with and without the mask

bench/cpu_mask.c (built here with gcc, once, into the bench cache) is loaded with LD_PRELOAD into the command and
every process it starts: each CPUID is answered with those features cleared, so ONNX Runtime, oneDNN, torch,
numpy and FAISS choose the kernels they choose on such a CPU. The same flags are left out of what twinfs reads
of the CPU (TWIN_CPU_FLAGS), so it picks the embedding path it would pick there; glibc's own routines are masked
by GLIBC_TUNABLES. What it cannot change: the cores' speed, caches and memory, which stay this machine's.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from twinfs.index.embedder import cpu_flags

HERE = Path(__file__).resolve().parent

SOURCE = HERE / "cpu_mask.c"
MASKED = ("avx512", "amx", "vnni", "avx10")  # /proc/cpuinfo flags containing these are what the mask clears
GLIBC = "glibc.cpu.hwcaps=-AVX512F,-AVX512DQ,-AVX512CD,-AVX512BW,-AVX512VL,-AVX512ER,-AVX512PF"


def cache() -> Path:
    if os.environ.get("TWIN_BENCH_CACHE"):
        return Path(os.environ["TWIN_BENCH_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "twinfs" / "bench"


def library() -> Path:
    """The mask, compiled once per source."""
    code = SOURCE.read_bytes()
    out = cache() / f"cpu_mask-{hashlib.sha256(code).hexdigest()[:12]}.so"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(tmp), str(SOURCE)], check=True)
        tmp.replace(out)
    return out


def environ() -> dict[str, str]:
    """The variables that make a process and its children see the masked CPU."""
    flags = sorted(cpu_flags())
    if "cpuid_fault" not in flags:
        raise SystemExit("this CPU cannot trap CPUID (no cpuid_fault in /proc/cpuinfo): the mask cannot run here")
    kept = [f for f in flags if not any(m in f for m in MASKED)]
    preload = " ".join(p for p in (str(library()), os.environ.get("LD_PRELOAD", "")) if p)
    return {"LD_PRELOAD": preload, "TWIN_CPU_FLAGS": " ".join(kept), "GLIBC_TUNABLES": GLIBC}


def check() -> None:
    probe = ("from numpy._core._multiarray_umath import __cpu_features__ as f; import torch; "
             "from twinfs.index.embedder import cpu_flags; "
             "print('  numpy:', ' '.join(k for k, v in f.items() if v and k.startswith(('AVX', 'FMA', 'AMX'))));"
             "print('  torch:', torch.backends.cpu.get_cpu_capability());"
             "print('  twinfs:', ' '.join(sorted(x for x in cpu_flags() if x.startswith(('avx', 'amx', 'fma')))))")
    for name, extra in (("this CPU", {}), ("masked", environ())):
        print(name)
        subprocess.run([sys.executable, "-c", probe], env={**os.environ, **extra}, check=True)


def main() -> None:
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return
    if args == ["--check"]:
        check()
        return
    env = {**os.environ, **environ()}
    print(f"masked CPU: AVX-512, AMX and VNNI cleared from CPUID ({library().name}); running: {' '.join(args)}",
          file=sys.stderr, flush=True)
    os.execvpe(args[0], args, env)


if __name__ == "__main__":
    main()
