"""Indexes as a home grows: the meaning lane past its size is an IVF index kept on disk and trained again, passages
and records each have an index of their own, and a large vault's commits made from trees."""
from __future__ import annotations

import subprocess
import threading
from datetime import UTC, datetime

import pytest
from conftest import MOVE, chat

from twinfs import Memory, Settings
from twinfs.models import AddRequest, SearchRequest


def vector_lane(tmp_path, monkeypatch, seed: int):
    """A meaning lane's SQLite of random unit vectors, IVF past 400 of them with 8 lists; `put(first id, n)` adds."""
    import sqlite3

    import numpy as np

    from twinfs.index import meaning, vectors

    monkeypatch.setattr(vectors, "FLAT_UP_TO", 400)
    monkeypatch.setattr(vectors, "NLIST_MIN", 8)
    monkeypatch.setattr(vectors, "NLIST_MAX", 8)
    rng = np.random.default_rng(seed)
    db = sqlite3.connect(tmp_path / "vectors.sqlite", isolation_level=None)
    db.executescript(meaning.SCHEMA)

    def put(n0: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        vecs = rng.normal(size=(n, 384)).astype("float32")
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        for i, v in enumerate(vecs, n0):
            db.execute("INSERT INTO segments (sid, doc, thash, who) VALUES (?, ?, ?, NULL)", (i, f"d{i}", f"h{i}"))
            db.execute("INSERT INTO vectors VALUES (?, ?)", (f"h{i}", v.tobytes()))
        return vecs, np.arange(n0, n0 + n, dtype="int64")

    return db, put, rng


@pytest.mark.slow
def test_past_its_size_the_meaning_lane_is_an_ivf_index_kept_on_disk_and_caught_up(tmp_path, monkeypatch):
    import numpy as np

    from twinfs.index import vectors

    monkeypatch.setattr(vectors, "NPROBE_MIN", 8)  # every list: the same answers as a flat scan
    monkeypatch.setattr(vectors, "EXACT_UP_TO", 50)
    db, put, rng = vector_lane(tmp_path, monkeypatch, seed=1)

    vecs, ids = put(1, 300)
    index = vectors.Vectors(db, tmp_path, 384)
    assert not index.ivf and index.ntotal == 300
    more, more_ids = put(301, 200)
    index.add(more, more_ids)  # past 400: trained and kept on disk
    assert index.ivf and index.ntotal == 500 and len(list(tmp_path.glob("ivf-*.faiss"))) == 1
    everything = np.vstack([vecs, more])
    query = everything[[7]]
    scores, found = index.search(query, 10, None)
    assert found[0][0] == 8 and list(found[0]) == list(np.argsort(-(everything @ query[0]))[:10] + 1)
    narrowed = np.arange(100, 140, dtype="int64")  # a few segments: scanned exactly
    assert set(index.search(query, 5, narrowed)[1][0]) <= set(narrowed)

    # what changed after the file was written is caught up with at the next open
    db.execute("DELETE FROM segments WHERE sid = 8")
    index.remove(np.array([8], dtype="int64"))
    late, late_ids = put(501, 20)
    index.add(late, late_ids)  # not written: a crash now
    again = vectors.Vectors(db, tmp_path, 384)
    assert again.ivf and again.ntotal == 519
    assert 8 not in again.search(query, 10, None)[1][0]
    assert again.search(late[[3]], 1, None)[1][0][0] == 504
    again.save()
    assert len(list(tmp_path.glob("ivf-*.faiss"))) == 1  # the older file is gone



@pytest.mark.slow
def test_an_ivf_index_is_trained_again_when_it_outgrows_or_loses_what_it_was_trained_on(tmp_path, monkeypatch):
    import numpy as np

    from twinfs.index import vectors

    db, put, rng = vector_lane(tmp_path, monkeypatch, seed=2)

    index = vectors.Vectors(db, tmp_path, 384)
    index.add(*put(1, 500))
    assert index.ivf and index.trained == 500
    index.add(*put(501, 200))
    assert index.trained == 500  # 700 is not yet 1.5 times 500
    index.add(*put(701, 100))
    assert index.trained == 800 and index.ntotal == 800  # trained again on all it holds
    index.save()

    # while closed, most of it is replaced (a vault cut again by sentence): its next open trains it again
    db.execute("DELETE FROM segments WHERE sid <= 600")
    put(801, 500)
    again = vectors.Vectors(db, tmp_path, 384)
    assert again.ivf and again.ntotal == 700 and again.trained == 700
    assert again.search(np.vstack([rng.normal(size=384)]).astype("float32"), 5, None)[1][0][0] > 600


def test_passages_and_records_each_have_an_index_of_their_own(tmp_path, embedder, monkeypatch):
    """A search asks for one kind of doc: each kind is its own FAISS index (flat, or IVF past its own size), so a
    search for records scans no passage and needs no deep list to find records among passages. A lane written
    when both kinds shared one IVF file drops it and builds each kind's at its next open."""
    import json

    import faiss

    from twinfs.index import Bounds, Doc, meaning, vectors

    monkeypatch.setattr(vectors, "FLAT_UP_TO", 40)
    monkeypatch.setattr(vectors, "NLIST_MIN", 4)
    monkeypatch.setattr(vectors, "NLIST_MAX", 4)
    monkeypatch.setattr(vectors, "NPROBE_MIN", 4)  # every list: answers as exact as a flat scan
    at = datetime(2026, 5, 1, tzinfo=UTC)
    topics = ["sailing a small boat", "baking sourdough bread", "repairing a bicycle", "learning the cello",
              "growing tomatoes", "hiking in the Alps", "painting with watercolours", "training a puppy"]
    passages = [Doc(id=f"p{i}", path=f"passages/p{i}.md", thread="th", type="passage", text=f"turn {i}", start=at,
                    end=at, hash=f"h{i}", segments=(f"I spent the day {t}, part {i}", f"It was about {t} ({i})"),
                    speakers=("Alice", "Alice"))
                for i, t in enumerate(topics * 4)]  # 32 passages, 64 segments: past 40, IVF
    records = [Doc(id=f"th#r{i}", path=f"records/th.json#{i + 1}", thread="th", type="record",
                   text=f"Alice likes {t}", start=at, end=at, hash=f"r{i}", segments=(f"Alice likes {t}",))
               for i, t in enumerate(topics)]  # 8: flat
    folder = tmp_path / "meaning"
    lane = meaning.MeaningIndex(folder, embedder)
    lane.apply(passages + records, [])
    assert lane._index["passage"].ivf and lane._index["passage"].ntotal == 64
    assert not lane._index["record"].ivf and lane._index["record"].ntotal == 8
    found = lane.search("Does Alice like bread?", Bounds(type="record"), limit=3)
    assert found[0][0] == "th#r1" and all(doc.startswith("th#r") for doc, _, _ in found)
    assert all(doc.startswith("p") for doc, _, _ in lane.search("bread", Bounds(type="passage"), limit=5))
    assert {doc[0] for doc, _, _ in lane.search("bread", Bounds(), limit=40)} == {"p", "t"}  # no kind: both
    ivf, question, found = lane._index["passage"], embedder.query("bread"), []
    asking = threading.Thread(target=lambda: found.append(ivf.search(question, 20, None)))  # as a server's thread
    asking.start()
    asking.join()
    assert faiss.extract_index_ivf(ivf.index).parallel_mode == 1  # its lists shared out among vectors.SEARCH_THREADS
    faiss.extract_index_ivf(ivf.index).parallel_mode = 0  # one thread: the same scores and segments
    assert [a.tolist() for a in found[0]] == [a.tolist() for a in ivf.index.search(question, 20)]
    lane.apply([], ["th#r1", "p1"])  # removed from the index of their kind
    assert lane._index["record"].ntotal == 7 and lane._index["passage"].ntotal == 62
    lane.close()
    files = {json.loads(v)["file"]
             for k, v in sqlite3_rows(folder, "SELECT key, value FROM meta WHERE key LIKE 'ivf%'")}
    assert len(files) == 1 and all((folder / f).exists() for f in files)  # the passages'; records are flat

    # a lane from before: one IVF file for both kinds, under the old key
    shared = folder / "ivf-shared.faiss"
    shared.write_bytes(b"an index of both kinds")
    sqlite3_rows(folder, "INSERT OR REPLACE INTO meta VALUES ('ivf', ?)",
                 (json.dumps({"file": shared.name, "upto": 0, "trained": 0}),))
    again = meaning.MeaningIndex(folder, embedder)
    assert not shared.exists() and not sqlite3_rows(folder, "SELECT 1 FROM meta WHERE key = 'ivf'")
    assert again._index["passage"].ntotal == 62 and again._index["record"].ntotal == 7
    assert again.search("Does Alice like bread?", Bounds(type="record"), limit=1)[0][0] != "th#r1"
    again.close()


def sqlite3_rows(folder, sql: str, args: tuple = ()) -> list:
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(folder / "vectors.sqlite", isolation_level=None)) as db:
        return db.execute(sql, args).fetchall()


def git(root, *args: str, env: dict | None = None) -> str:
    import os

    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True,
                          env={**os.environ, **(env or {})}).stdout


def tree_of_files(root, tmp_path) -> str:
    """The tree `git add -A` makes of the files as they are now, in an index of its own."""
    env = {"GIT_INDEX_FILE": str(tmp_path / "own-index")}
    git(root, "add", "-A", ".", env=env)
    return git(root, "write-tree", env=env).strip()


def test_a_commit_made_from_trees_is_the_one_the_index_makes_and_the_index_catches_up(tmp_path):
    """Landing in a large vault commits from HEAD's trees, leaving the index as it was: the commit holds what
    `git add -A` would (files changed, gone, in new folders, folders left empty gone), the index catches up
    before anything reads it, and a new Vault (after a crash) finds what to catch up from the note in .git."""
    from twinfs.vault import BEHIND, Vault

    root = tmp_path / "v"
    vault = Vault(root)
    vault.init("acme.app.alice")
    for rel in ("a/b/1.txt", "a/b/2.txt", "a/c/3.txt", "a/b-c/4.txt", "top.txt"):
        vault.write(rel, f"{rel}\n")
    vault.commit("first", ["a", "top.txt"])
    assert git(root, "status", "--porcelain") == ""

    vault.write("a/b/1.txt", "changed\n")
    vault.delete("a/b/2.txt")
    vault.delete("a/c/3.txt")  # a/c is left empty: no folder in git
    vault.write("new/d/e/5.txt", "in new folders\n")
    vault.write("a/b.txt", "sorts between a/b-c and a/b/ in git's order\n")
    sha = vault.commit_files("from trees", ["a/b/1.txt", "a/b/2.txt", "a/c/3.txt", "new/d/e/5.txt", "a/b.txt"])
    assert sha and git(root, "rev-parse", "HEAD").strip() == sha
    assert git(root, "rev-parse", "HEAD^{tree}").strip() == tree_of_files(root, tmp_path)
    git(root, "fsck", "--strict", "--no-dangling")  # every tree well formed, in git's order
    assert git(root, "log", "-1", "--format=%s %an").strip() == "from trees twinfs"
    assert "a/c/3.txt" not in git(root, "ls-tree", "-r", "--name-only", "HEAD")
    assert vault.behind and (root / ".git" / BEHIND).exists()
    assert git(root, "diff-index", "--cached", "--name-only", "HEAD")  # the index is behind HEAD …
    assert vault.commit_files("nothing", ["a/b/1.txt"]) is None  # … and nothing changed since

    # an index-based commit after it keeps what the trees committed (and stages what they left behind)
    vault.write("top.txt", "edited\n")
    vault.commit("index", ["top.txt"])
    assert git(root, "rev-parse", "HEAD^{tree}").strip() == tree_of_files(root, tmp_path)
    assert git(root, "status", "--porcelain") == "" and not vault.behind and not (root / ".git" / BEHIND).exists()

    # a crash after a commit from trees: a new Vault finds the index behind from the note, catches it up from
    # git's own comparison of the index with HEAD, and sees no edit made by hand
    vault.write("pages/alice.md", "# Alice\n")  # a memory folder, where changes() looks for hand edits
    vault.commit_files("from trees again", ["pages/alice.md"])
    again = Vault(root)
    assert again.behind and again.changes() == []
    assert git(root, "status", "--porcelain") == "" and not (root / ".git" / BEHIND).exists()
    (root / "pages" / "alice.md").write_text("# Alice, by hand\n")
    assert again.changes() == ["pages/alice.md"]


def test_a_large_vault_lands_from_trees_and_its_index_catches_up_once_adds_pause(tmp_home, embedder, alice,
                                                                                  monkeypatch):
    from twinfs import vault as vaults

    monkeypatch.setattr(vaults, "TREES_FROM", 0)  # every vault large
    with Memory(Settings(home=tmp_home, reading=False), embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("a", MOVE), wait=True))
        root = tmp_home / "users" / alice.dirname
        space = m.spaces.peek(alice.dirname)
        assert git(root, "log", "--format=%s").startswith("add: 3 items") and space.vault.behind
        assert git(root, "rev-parse", "HEAD^{tree}").strip() == tree_of_files(root, tmp_home.parent)
        assert m.search(alice, SearchRequest(query="Lisbon", fast=True)).hits
        m.idle()  # the later lane catches the index up once adds pause
        assert not space.vault.behind and git(root, "status", "--porcelain") == ""
        assert space.idle


def test_the_upkeep_keeps_changed_path_filters_for_git_log(tmp_path):
    """`git log -- <file>` reads a commit graph's changed-path filters instead of each commit's trees: gc writes
    no graph of its own (it wrote one without filters over the upkeep's), and a vault set before is set again."""
    import json
    import os

    from twinfs.vault import Vault

    root = tmp_path / "v"
    vault = Vault(root)
    vault.init("acme.app.alice")
    git(root, "config", "gc.writeCommitGraph", "true")  # as vaults were set before
    assert not vault.tuned()
    vault.configure()
    assert vault.tuned()
    for n in range(30):
        vault.write(f"items/th_{n % 3}/m{n}.json", f"{n}\n")
        vault.commit(f"add {n}", [f"items/th_{n % 3}/m{n}.json"])
    git(root, "gc", "--quiet")  # what gc --auto does once loose objects pile up
    vault.upkeep()
    trace = tmp_path / "trace.json"
    subprocess.run(["git", "-C", str(root), "log", "--oneline", "--", "items/th_1/m4.json"], check=True,
                   capture_output=True, env={**os.environ, "GIT_TRACE2_EVENT": str(trace)})
    stats = [json.loads(line)["value"] for line in trace.read_text().splitlines()
             if '"statistics"' in line and '"bloom"' in line]
    assert stats and stats[0]["filter_not_present"] == 0 and stats[0]["definitely_not"] >= 25


def test_the_meaning_lane_keeps_each_doc_s_best_segment_and_the_order_found_among_ties():
    """MeaningIndex._best in numpy against the dict it replaced: each doc's best segment, the `limit` best docs,
    ties in the order their first segment was found; -1 (fewer found than asked) and the floor left out."""
    import random
    from types import SimpleNamespace

    import numpy as np

    from twinfs.index.meaning import MeaningIndex, Segments

    rng = random.Random(3)
    table = Segments()
    table.put(list(range(400)), [f"d{rng.randrange(120)}" for _ in range(400)],
              [rng.choice(["ann", "bob", None]) for _ in range(400)])
    lane = SimpleNamespace(_segments=table)
    for _ in range(200):
        n = rng.randrange(1, 300)
        ids = np.array([rng.randrange(400) if rng.random() > 0.05 else -1 for _ in range(n)], dtype=np.int64)
        scores = np.array([rng.choice([0.5, 0.25, 0.75]) if rng.random() < 0.3 else rng.random()
                           for _ in range(n)], dtype=np.float32)
        floor, limit = rng.choice([0.0, 0.3]), rng.choice([1, 5, 50, 500])
        favour, lift = rng.choice([(frozenset(), 0.0), (frozenset({"ann"}), -0.2)])
        best: dict[str, float] = {}  # the dict it replaced
        for sid, score in zip(ids.tolist(), scores.tolist(), strict=False):
            if sid < 0:
                continue
            if favour and table.speakers[table.who[sid]] in favour if table.who[sid] >= 0 else False:
                score = float(np.float32(score) + np.float32(lift))
            if score >= floor and score > best.get(table.docs[table.doc[sid]], -2.0):
                best[table.docs[table.doc[sid]]] = score
        expected = sorted(best.items(), key=lambda kv: -kv[1])[:limit]
        got = MeaningIndex._best(lane, (scores[None, :], ids[None, :]), limit, floor, favour, lift)
        assert got == expected
