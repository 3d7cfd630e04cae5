"""Item file names: every valid id gets a name that every file system a vault may be synced to can hold."""
from __future__ import annotations

import random
import string

from twinfs.paths import RESERVED, item_filename

ID_CHARS = string.ascii_letters + string.digits + "._:@-"


def test_plain_lowercase_ids_keep_readable_names():
    assert item_filename("msg-001") == "msg-001.json"
    assert item_filename("d1:3") == "d1%3A3.json"
    assert item_filename("..") == "%2E%2E.json"


def test_ids_that_differ_only_in_case_never_share_a_name_even_where_case_does_not_count():
    names = {item_filename(i).lower() for i in ("Msg-1", "msg-1", "MSG-1", "mSg-1")}
    assert len(names) == 4


def test_names_windows_reserves_are_avoided():
    for word in ("con", "CON", "aux", "Nul", "com1", "lpt9", "prn"):
        stem = item_filename(word).removesuffix(".json").split("~")[0].lower()
        assert item_filename(word).removesuffix(".json").lower() not in RESERVED, word
        assert stem == word.lower()  # still readable


def test_a_128_dot_id_fits_in_255_bytes():
    name = item_filename("." * 128)
    assert len(name.encode()) <= 255 and name.startswith("%2E") and "~" in name


def random_ids(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    ids = []
    for _ in range(n):
        size = rng.choice([1, 2, 5, 40, 81, 127, 128])
        alphabet = rng.choice([ID_CHARS, "aA", "._:@-", "Cc0"])
        ids.append("".join(rng.choice(alphabet) for _ in range(size)))
    return ids


def test_every_valid_id_maps_to_a_portable_name():
    for item_id in random_ids(1, 3000):
        name = item_filename(item_id)
        assert len(name.encode()) <= 120
        assert set(name) <= set(string.ascii_letters + string.digits + "_-%~.")
        assert name.count(".") == 1 and name.endswith(".json")
        assert name.removesuffix(".json").lower() not in RESERVED


def test_distinct_ids_get_distinct_names_ignoring_case():
    ids = set(random_ids(2, 5000)) | {"Msg-1", "msg-1", "con", "CON"}
    assert len({item_filename(i).lower() for i in ids}) == len(ids)
