"""Code's verdict on the model's keys (reading/keycheck.py): a key stands only when it names something the passage
says, of whom it says it; a kept key finds its passage."""
from __future__ import annotations

import json

import pytest
from test_reading_keys import ScriptedLlama, one_passage, qwen_keys, space_bounds

from twinfs.passage_keys import PassageKeys, read_keys
from twinfs.reading import checking
from twinfs.reading.keycheck import check_keys, said, why_not
from twinfs.reading.keys import KeyWriter, key_thread

# two speakers: Joanna writes the screenplay, Nate wins the tournament (conv-42's misattributed key, made up anew)
PASSAGE = """---
id: th_0000000000000000/p_0001
thread: th_0000000000000000
turns: [n1, n2, n3]
roles: [user]
from: '2022-05-07T09:00:00Z'
to: '2022-05-07T09:02:00Z'
---
Context: messages (memory), 7 May 2022.

**Joanna** 09:00 · I finally finished my screenplay last night, all 120 pages of it! ^n1
**Nate** 09:01 · Congrats! I won my third video game tournament in Denver on Saturday. ^n2
**Joanna** 09:02 · Wow, that's great news, what did you win? ^n3
"""


def test_a_key_naming_what_its_speaker_said_stands():
    passage = said(PASSAGE)
    assert why_not("Where did Nate win his third tournament?", passage, question=True) is None
    assert why_not("How many pages is Joanna's screenplay?", passage, question=True) is None
    assert why_not("video game tournament", passage, question=False) is None
    assert why_not("Denver", passage, question=False) is None
    assert why_not("What did Joanna finish last night?", passage, question=True) is None  # a verb of the passage


def test_a_generic_key_is_dropped():
    passage = said(PASSAGE)
    for generic in ("What did Nate do?", "What happened with the company?", "What is Joanna's news?",
                    "What did Joanna do last night?"):
        assert why_not(generic, passage, question=True) == "names nothing the passage says but its people"
    assert why_not("Nate", passage, question=False) is not None  # a speaker alone: every passage of the chat


def test_a_key_naming_a_speaker_as_doer_of_what_another_said_is_dropped():
    why = why_not("What did Nate do after finishing his screenplay?", said(PASSAGE), question=True)
    assert why == "asks of Nate what another speaker said (finish, screenplay)"
    assert why_not("What did Joanna do after finishing her screenplay?", said(PASSAGE), question=True) is None
    assert why_not("Nate's screenplay", said(PASSAGE), question=False) == "asks of Nate what another speaker said " \
        "(screenplay)"


def test_a_garbled_or_cut_key_is_dropped():
    passage = said(PASSAGE)
    assert why_not("What did Nate win in Denver ice-텐?", passage, question=True) == \
        "a character the passage does not hold"
    assert why_not("What did Nate win in the video game tournament in Denver on", passage, question=True) == \
        "not one whole question (cut short, or run on)"
    assert why_not("What did you win in Denver?", passage, question=True) == \
        "asked of someone in the chat, not of what they said"


def test_check_keys_keeps_only_the_keys_that_stand():
    keys = PassageKeys(("What did Nate do?", "Where did Nate win his third tournament?",
                        "What did Nate do after finishing his screenplay?"), ("Nate", "Denver", "ice-텐"))
    assert check_keys(keys, PASSAGE) == PassageKeys(("Where did Nate win his third tournament?",), ("Denver",))


def test_a_kept_key_finds_its_passage_and_a_dropped_one_is_never_written(memory, alice):
    space, thread, passage = one_passage(memory, alice)  # Mira's Stratocaster from the shop in Camden
    answer = json.dumps({"questions": ["Which instrument did Mira purchase in Camden?", "What did Mira do?"],
                         "about": ["Mira", "sunburst Stratocaster guitar"]})
    assert key_thread(space, thread, KeyWriter(checking.Checker(ScriptedLlama([answer])))) == 1
    assert read_keys(space, passage) == PassageKeys(("Which instrument did Mira purchase in Camden?",),
                                                    ("sunburst Stratocaster guitar",))
    words = space.words.search("purchase instrument guitar", space_bounds(), 5)
    assert [path for _, path, _ in words] == [passage]  # only its kept keys say these words


def test_a_passage_whose_keys_all_fall_gets_no_keys_file(memory, alice):
    space, thread, passage = one_passage(memory, alice)
    answer = json.dumps({"questions": ["What did Mira do?"], "about": ["Mira"]})
    assert key_thread(space, thread, KeyWriter(checking.Checker(ScriptedLlama([answer])))) == 0
    assert read_keys(space, passage) == PassageKeys()


@pytest.mark.slow
def test_qwens_kept_keys_name_what_the_passage_says_of_whom_it_says_it():
    keys = qwen_keys(PASSAGE)
    assert keys  # the prompt's worked example: at least one key the passage bears out
    for key in (*keys.questions, *keys.about):
        lowered = key.lower()
        assert not ("nate" in lowered and "screenplay" in lowered)  # Joanna's, never Nate's
        assert not ("joanna" in lowered and ("tournament" in lowered or "denver" in lowered))  # Nate's
    said_words = " ".join((*keys.questions, *keys.about)).lower()
    assert any(w in said_words for w in ("screenplay", "tournament", "denver", "pages", "video game"))
