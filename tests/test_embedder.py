"""The embedder's two runtimes give the vectors sentence-transformers gives in fp32."""
from __future__ import annotations

import numpy as np
import pytest

from twinfs.index.embedder import QUANTISED, Embedder

TEXTS = ["Alice Chen: I just moved to Lisbon from Berlin, the flat is near the river.",
         "Assistant: Congratulations! How are you finding the city so far?",
         "hi", "", "ünïcödé 🎉 and an emoji", "word " * 400]  # the last one is cut at 256 word pieces


@pytest.fixture(scope="module")
def fp32():
    """torch alone, fp32: the reference."""
    return Embedder(bf16=False, onnx=False)


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


def test_batches_run_in_onnx_runtime_on_a_cpu_without_amx_and_match_torch(fp32):
    onnx = Embedder(bf16=False, int8=False)
    assert onnx.batch_runtime == "onnxruntime" and fp32.batch_runtime == "torch" and onnx.variant == "fp32"
    assert Embedder(bf16=True).batch_runtime == "torch-bf16" and Embedder(bf16=True).variant == "fp32"
    ours, theirs = onnx.encode(MIXED), fp32.encode(MIXED)
    assert ours.dtype == np.float32 and ours.shape == (len(MIXED), 384)
    assert float((ours * theirs).sum(axis=1).min()) > 0.9999  # each row is its own text's, whatever the order


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
