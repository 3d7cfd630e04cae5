"""The embedder's two runtimes give the vectors sentence-transformers gives in fp32."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from twinfs.index.embedder import QUANTISED, Embedder, cpu_has_vnni

ROOT = Path(__file__).resolve().parents[1]

TEXTS = ["Alice Chen: I just moved to Lisbon from Berlin, the flat is near the river.",
         "Assistant: Congratulations! How are you finding the city so far?",
         "hi", "", "ünïcödé 🎉 and an emoji", "word " * 400]  # the last one is cut at 256 word pieces


@pytest.fixture(scope="module")
def fp32():
    """torch alone, fp32: the reference."""
    return Embedder(bf16=False, onnx=False)


@pytest.mark.slow
def test_questions_run_in_onnx_runtime_and_match_torch(embedder, fp32):
    assert embedder.runtime == "onnxruntime" and fp32.runtime == "torch"
    for text in TEXTS + ["Where does Alice live now?"]:
        ours, theirs = embedder.query(text), fp32.query(text)
        assert ours.shape == theirs.shape == (1, 384)
        assert float(ours[0] @ theirs[0]) > 0.9999, text
        assert not ours.flags.writeable  # cached: nobody may change it


def test_batches_match_fp32_in_either_precision(embedder, fp32):
    reference = fp32.encode(TEXTS)
    for bf16 in (True, False):
        vectors = Embedder(bf16=bf16, onnx=False).encode(TEXTS)
        assert vectors.dtype == np.float32 and vectors.shape == (len(TEXTS), 384)
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        assert float((vectors * reference).sum(axis=1).min()) > 0.999
    assert embedder.encode([]).shape == (0, 384)


MIXED = TEXTS + [f"turn {i}: " + "a few words " * (i % 9) for i in range(70)]  # several batches, lengths mixed


@pytest.mark.slow
def test_batches_run_in_onnx_runtime_on_a_cpu_without_amx_and_match_torch(fp32):
    onnx = Embedder(bf16=False, int8=False)
    assert onnx.batch_runtime == "onnxruntime" and fp32.batch_runtime == "torch" and onnx.variant == "fp32"
    assert Embedder(bf16=True).batch_runtime == "torch-bf16" and Embedder(bf16=True).variant == "fp32"
    ours, theirs = onnx.encode(MIXED), fp32.encode(MIXED)
    assert ours.dtype == np.float32 and ours.shape == (len(MIXED), 384)
    assert float((ours * theirs).sum(axis=1).min()) > 0.9999  # each row is its own text's, whatever the order


@pytest.mark.slow
def test_int8_batches_keep_each_text_nearest_its_own_fp32_vector(fp32):
    int8 = Embedder(bf16=False, int8=True)  # on any CPU: where it is not the default, it must still work
    assert int8.batch_runtime == "onnxruntime-int8" and int8.variant == QUANTISED
    ours, theirs = int8.encode(MIXED), fp32.encode(MIXED)
    assert ours.dtype == np.float32 and np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = ours @ theirs.T
    assert float(np.diag(cosines).min()) > 0.95 and float(np.diag(cosines).mean()) > 0.98
    distinct = [i for i, t in enumerate(MIXED) if MIXED.index(t) == i]
    assert all(int(np.argmax(cosines[i, distinct])) == distinct.index(i) for i in distinct)  # its own, not another's
    question = fp32.query("Where did Alice move to?")[0]  # questions stay fp32: the same text ranks first
    assert int(np.argmax(ours @ question)) == int(np.argmax(theirs @ question)) == 0
    assert np.allclose(int8.query("Where did Alice move to?"), fp32.query("Where did Alice move to?"), atol=1e-3)


@pytest.mark.slow
def test_the_graph_is_exported_once_into_the_cache(tmp_path, fp32):
    first = Embedder(bf16=False, int8=True, cache=tmp_path)
    assert first.runtime == "onnxruntime"
    graphs = sorted(tmp_path.glob("*.onnx"))  # the graph, and its int8 twin for batches
    assert len(graphs) == 2
    stamps = [g.stat().st_mtime_ns for g in graphs]
    second = Embedder(bf16=False, int8=True, cache=tmp_path)
    assert second.runtime == "onnxruntime" and second.batch_runtime == "onnxruntime-int8"
    assert [g.stat().st_mtime_ns for g in graphs] == stamps  # reused, not exported again
    assert not list(tmp_path.glob("*.part"))
    assert float(second.query("a walk by the river")[0] @ fp32.query("a walk by the river")[0]) > 0.9999


def test_without_onnx_runtime_torch_embeds_questions(tmp_path, monkeypatch, fp32):
    broken = Embedder(cache=tmp_path)
    monkeypatch.setattr(broken, "_load_onnx", lambda: (_ for _ in ()).throw(ImportError("no onnxruntime")))
    assert broken.runtime == "torch"
    assert float(broken.query("Where is the flat?")[0] @ fp32.query("Where is the flat?")[0]) > 0.9999


def test_short_texts_are_embedded_once(monkeypatch):
    embedder = Embedder(bf16=False, onnx=False)
    first = embedder.encode(["home city", "diet", "A longer turn that is not kept: " + "words " * 20])
    seen = []
    real = embedder._encode
    monkeypatch.setattr(embedder, "_encode", lambda texts: seen.append(list(texts)) or real(texts))
    again = embedder.encode(["diet", "home city", "pets"])
    assert seen == [["pets"]]  # only the new short text was embedded
    assert np.allclose(again[0], first[1]) and np.allclose(again[1], first[0])


@pytest.mark.slow
def test_batches_shared_out_among_threads_give_each_text_its_own_vector(monkeypatch):
    monkeypatch.setenv("TWIN_EMBED_THREADS", "1")
    one = Embedder(bf16=False, int8=False)
    monkeypatch.setenv("TWIN_EMBED_THREADS", "2")
    two = Embedder(bf16=False, int8=False)
    reference = one.encode(MIXED)
    with ThreadPoolExecutor(3) as pool:  # landings of several end users at once share the helper threads
        results = list(pool.map(lambda k: two._encode(MIXED[k:] + MIXED[:k]), range(6)))
    for k, vectors in enumerate(results):
        assert np.allclose(vectors, np.roll(reference, -k, axis=0), atol=1e-5), k


def test_the_cpu_flags_setting_stands_for_the_cpus_own(monkeypatch):
    monkeypatch.setenv("TWIN_CPU_FLAGS", "avx avx2 fma")  # what bench/cpu_mask.py sets: AVX2, no VNNI, no AMX
    assert not cpu_has_vnni()
    assert Embedder().bf16 is False and Embedder().int8 is False
    monkeypatch.setenv("TWIN_CPU_FLAGS", "avx2 avx512f avx512_vnni")
    assert Embedder().int8 and not Embedder().bf16
    monkeypatch.setenv("TWIN_CPU_FLAGS", "avx2 amx_bf16 amx_int8 avx512_vnni")  # AMX too: int8, torch left out
    assert Embedder().int8 and not Embedder().bf16
    assert Embedder(bf16=True).bf16 and not Embedder(bf16=True).int8


def _cpuid_fault() -> bool:
    return "cpuid_fault" in Path("/proc/cpuinfo").read_text()


@pytest.mark.skipif(sys.platform != "linux" or not _cpuid_fault(),
                    reason="the CPU cannot trap CPUID (no cpuid_fault)")
def test_the_cpu_mask_shows_libraries_a_cpu_without_avx512_amx_or_vnni(tmp_path):
    """bench/cpu_mask.py, by which landing is measured as on an AVX2 CPU: numpy, torch and twinfs all see one,
    in the process and in the processes it starts, and ONNX Runtime still embeds right."""
    probe = ("import json, numpy, subprocess, sys; from numpy._core._multiarray_umath import __cpu_features__ as f; "
             "from twinfs.index.embedder import Embedder, cpu_flags; "
             "child = subprocess.run([sys.executable, '-c', "
             "'import torch; print(torch.backends.cpu.get_cpu_capability())'],"
             " capture_output=True, text=True, check=True).stdout.strip(); "
             "e = Embedder(); v = e.encode(['Alice moved to Lisbon.', 'The cat is called Miso.']); "
             "print(json.dumps({'numpy': sorted(k for k, x in f.items() if x), 'torch_child': child, "
             "'flags': sorted(cpu_flags()), 'runtime': e.batch_runtime, 'vectors': v.tolist()}))")
    out = subprocess.run([sys.executable, "-m", "bench.cpu_mask", sys.executable, "-c", probe],
                         capture_output=True, text=True, env={**os.environ, "TWIN_BENCH_CACHE": str(tmp_path)},
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert "AVX2" in seen["numpy"] and not [k for k in seen["numpy"] if "512" in k or "VNNI" in k]
    assert seen["torch_child"] == "AVX2"
    assert "avx2" in seen["flags"] and not [f for f in seen["flags"] if "avx512" in f or "amx" in f or "vnni" in f]
    assert seen["runtime"] == "onnxruntime"  # fp32, as on such a CPU
    reference = Embedder(bf16=False, int8=False).encode(['Alice moved to Lisbon.', 'The cat is called Miso.'])
    assert float((np.array(seen["vectors"], dtype=np.float32) * reference).sum(axis=1).min()) > 0.9999


class Twice(Embedder):
    """MiniLM's vector written twice and scaled by sqrt(1/2): 768 dims, every cosine the same as MiniLM's."""

    dim = 768

    def __init__(self, inner: Embedder):
        super().__init__()
        self.inner = inner

    @property
    def variant(self) -> str:
        return "twice"

    def encode(self, texts: list[str]) -> np.ndarray:
        v = self.inner.encode(texts)
        return np.hstack([v, v]) * np.float32(np.sqrt(0.5))

    def query(self, text: str) -> np.ndarray:
        v = self.inner.query(text)
        return np.ascontiguousarray(np.hstack([v, v]) * np.float32(np.sqrt(0.5)))


def test_the_meaning_lane_is_as_wide_as_its_embedder_says(tmp_path, embedder, alice):
    """Another embedder (bench/embedder_recall.py's larger model) builds its index at its own width."""
    from twinfs import Memory, Settings
    from twinfs.index import Bounds
    from twinfs.models import AddRequest
    from twinfs.search import meaning_lane

    turns = [{"id": f"t{i}", "kind": "message", "conversation": f"c{i}", "role": "user", "name": "Alice", "text": text,
              "at": f"2026-05-0{i + 1}T10:00:00Z"}
             for i, text in enumerate(["I adopted a grey cat called Miso last week.",
                                       "My train to work was late again this morning.",
                                       "We cooked a big pot of lentil soup for the neighbours."])]
    ranked = {}
    for name, used in (("minilm", embedder), ("twice", Twice(embedder))):
        with Memory(Settings(home=tmp_path / name, reading=False), embedder=used) as memory:
            memory.wait(alice, [memory.add(alice, AddRequest(items=[t])).event for t in turns], timeout=120)
            space = memory.space(alice)
            assert {v.dim for v in space.meaning._index.values()} == {used.dim}
            ranked[name] = [(doc, round(score, 4)) for doc, _, score in
                            meaning_lane(space, "What pet does Alice have?", Bounds(type="passage"), 3)]
    assert ranked["twice"] == ranked["minilm"] and len(ranked["minilm"]) >= 1
    with Memory(Settings(home=tmp_path / "minilm", reading=False), embedder=Twice(embedder)) as memory:
        space = memory.space(alice)  # opened by another embedder: its vectors are made again, at its width
        assert [(doc, round(score, 4)) for doc, _, score in
                meaning_lane(space, "What pet does Alice have?", Bounds(type="passage"), 3)] == ranked["minilm"]
