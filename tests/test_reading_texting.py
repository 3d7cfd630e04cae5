"""Chat shorthand written out before the rules parse a turn (reading/texting.py)."""
from __future__ import annotations

from test_reading_plain import read, values

from twinfs.reading.texting import plain


def test_shorthand_is_written_out_and_words_of_their_own_stay():
    assert plain("ok so im 27 and my gf Jess is vegan tbh, i talk to her in swedish") == \
        "ok so I'm 27 and my girlfriend Jess is vegan to be honest, I talk to her in Swedish"
    assert plain("Dont ask. shes home w/ the kids rn tho") == "Don't ask. she's home with the kids right now though"
    same = "Its owner said we were ill, i.e. not fit. BC and U2 are names; the def of it, the prob is."
    assert plain(same) == same  # "its", "were", "ill", "i.e.", capitals, "def" and "prob" stay


def test_a_texted_turn_reads_as_a_written_one():
    records = read(("user", "crate yes, class no lol. im a nurse on nights at st james's so saturday mornings im "
                            "basically dead"), ("user", "my bf Tom is a chef. im 31 now and ive been vegan for years"))
    assert {("job", "nurse"), ("age", "31"), ("partner", "Tom")} <= values(records)
    assert not any("Noorms" in r.text or "Noorve" in r.text for r in records)  # not "i" + "m" told as "Noor" + "m"


def test_a_scots_chat_is_written_out_and_english_that_looks_like_it_is_not():
    assert plain("Ah stay in Paisley wi ma wean, drive a bus fur First. Am 44 an diabetic. Ah cannae stand bananas.") \
        == "I live in Paisley with my child, drive a bus for First. I'm 44 and diabetic. I can't stand bananas."
    assert plain("Am I late? My ma and an aunt stay in Leeds.") == "Am I late? My ma and an aunt stay in Leeds."
