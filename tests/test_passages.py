from __future__ import annotations

from datetime import UTC, datetime, timedelta

from twinfs.passages import MAX_CHARS, Turn, cut, parse, render, segments_of, split_text

T0 = datetime(2026, 10, 1, 9, 30, tzinfo=UTC)


def turns(n: int, size: int = 200, gap: int = 60) -> list[Turn]:
    return [Turn(id=f"m{i}", kind="message", text=f"turn {i} " + "word " * (size // 5),
                 at=T0 + timedelta(seconds=i * gap),
                 role="user" if i % 2 == 0 else "assistant", name="Alice Chen" if i % 2 == 0 else None)
            for i in range(n)]


def test_whole_turns_within_the_limit_in_order():
    ps = cut("th_0123456789abcdef", "message", "memory", turns(30))
    assert len(ps) > 3
    seen = [t for p in ps for t in p.turns]
    assert seen == [f"m{i}" for i in range(30)]  # every turn once, in order, none split
    for p in ps:
        assert len(p.body) <= MAX_CHARS
        assert p.body.startswith("Context: messages (memory), 1 Oct 2026.")
    assert ps[0].path == "passages/memory/messages/th_0123456789abcdef/p_0001.md"
    assert ps[1].id == "th_0123456789abcdef/p_0002"


def test_a_long_pause_starts_a_new_passage():
    ts = turns(4, size=20)
    late = Turn(id="m9", kind="message", text="back again", at=ts[-1].at + timedelta(hours=3), role="user")
    ps = cut("th_0123456789abcdef", "message", "memory", [*ts, late])
    assert [p.turns for p in ps] == [["m0", "m1", "m2", "m3"], ["m9"]]


def test_a_long_document_is_cut_into_pieces_that_cite_it():
    text = "\n\n".join(f"Paragraph {i}. " + "Lisbon is lovely in October. " * 12 for i in range(20))
    doc = Turn(id="doc-1", kind="document", text=text, at=T0, title="Porto trip plan")
    ps = cut("th_aaaaaaaaaaaaaaaa", "document", "memory", [doc])
    assert len(ps) > 5
    assert all(p.turns == ["doc-1"] and len(p.body) <= MAX_CHARS for p in ps)
    assert ps[0].body.startswith("Context: documents (memory), 1 Oct 2026. Porto trip plan.")
    joined = " ".join(p.body for p in ps)
    assert "Paragraph 19." in joined and "Paragraph 0." in joined


def test_render_and_parse_round_trip():
    ps = cut("th_0123456789abcdef", "message", "memory", turns(3, size=40))
    text = render(ps[0])
    assert text.startswith("---\nid: th_0123456789abcdef/p_0001\n")
    back = parse(text)
    assert back.id == ps[0].id and back.thread == ps[0].thread
    assert back.turns == ["m0", "m1", "m2"] and back.roles == ["user", "assistant"]
    assert back.start == T0 and back.end == T0 + timedelta(seconds=120)
    assert "**Alice Chen** 09:30 · turn 0" in back.body and back.body.rstrip().endswith("^m2")


def test_parse_survives_a_file_broken_by_hand():
    back = parse("---\nid: [unclosed\n---\nsome words", fallback_id="th_x/p_0001")
    assert back.id == "th_x/p_0001" and back.body == "some words"
    assert parse("no front matter at all").body == "no front matter at all"


def test_segments_are_turns_with_their_speaker():
    ps = cut("th_0123456789abcdef", "message", "memory", turns(3, size=40))
    segs = segments_of(ps[0].body)
    assert len(segs) == 3
    assert segs[0].startswith("Alice Chen: turn 0") and segs[1].startswith("Assistant: turn 1")
    assert segs[2].startswith("Alice Chen: turn 2")
    assert not any("^m" in s for s in segs)


def test_each_segment_knows_who_said_it():
    from twinfs.passages import spoken_segments

    body = ("Context: messages (memory), 1 Oct 2026.\n\n**Alice Chen** 09:30 · I moved. ^m1\nThe flat is small. ^m1\n"
            "**Assistant** 09:31 · Congratulations! ^m2")
    assert spoken_segments(body) == [("Alice Chen", "Alice Chen: I moved. The flat is small."),
                                     ("Assistant", "Assistant: Congratulations!")]
    assert spoken_segments("Day 1: a train.\nDay 2: a boat. ^d1") == [(None, "Day 1: a train. Day 2: a boat.")]


def test_a_long_turn_is_seen_in_groups_of_whole_sentences_each_naming_its_speaker():
    from twinfs.passages import SEGMENT_CHARS, spoken_segments

    answer = " ".join(f"Step {i} of the plan takes about {i} minutes." for i in range(1, 30))
    body = f"**User** 09:30 · How long is the plan? ^m1\n**Assistant** 09:31 · {answer} ^m2"
    segs = spoken_segments(body)
    assert segs[0] == ("User", "User: How long is the plan?")
    said = segs[1:]
    assert len(said) > 5 and all(who == "Assistant" and text.startswith("Assistant: Step ") for who, text in said)
    assert all(len(text) <= len("Assistant: ") + SEGMENT_CHARS and text.endswith("minutes.") for _, text in said)
    assert " ".join(text.removeprefix("Assistant: ") for _, text in said) == answer  # the tail is seen too


def test_split_text_never_exceeds_the_limit():
    text = "x" * 5000 + " end. " + "short sentence. " * 100
    pieces = split_text(text, 500)
    assert all(len(p) <= 500 for p in pieces)
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")
