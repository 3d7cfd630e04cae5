"""The embedder's two runtimes give the vectors sentence-transformers gives in fp32."""
from __future__ import annotations

import numpy as np
import pytest

from twinfs.index.embedder import Embedder

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


def test_batches_run_in_onnx_runtime_on_a_cpu_without_amx_and_match_torch(fp32):
    onnx = Embedder(bf16=False)
    assert onnx.batch_runtime == "onnxruntime" and fp32.batch_runtime == "torch"
    assert Embedder(bf16=True).batch_runtime == "torch-bf16"
    texts = TEXTS + [f"turn {i}: " + "a few words " * (i % 9) for i in range(70)]  # several batches, lengths mixed
    ours, theirs = onnx.encode(texts), fp32.encode(texts)
    assert ours.dtype == np.float32 and ours.shape == (len(texts), 384)
    assert float((ours * theirs).sum(axis=1).min()) > 0.9999  # each row is its own text's, whatever the order


def test_the_graph_is_exported_once_into_the_cache(tmp_path, fp32):
    first = Embedder(cache=tmp_path)
    assert first.runtime == "onnxruntime"
    (graph,) = tmp_path.glob("*.onnx")
    stamp = graph.stat().st_mtime_ns
    second = Embedder(cache=tmp_path)
    assert second.runtime == "onnxruntime" and graph.stat().st_mtime_ns == stamp  # reused, not exported again
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
