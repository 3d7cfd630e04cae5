"""The reading sets' scorer: a value holds a match word as said, a number only whole."""
from bench.reading_set2 import _holds, _names


def test_a_number_matches_only_whole_and_words_as_part():
    assert _holds("37", ["37"]) and not _holds("37", ["3"])  # "Rory is 3" is no distractor of an age of 37
    assert _holds("3 kids", ["3"]) and _holds("a keen tramper", ["tramp"])
    assert _holds("thirty", ["thirty"]) and not _holds("thirty-two", ["thirty"])  # a friend's thirty, the user's 32
    assert _holds("thirty-two", ["thirty-two"])


def test_a_gold_read_from_its_own_turn_is_not_wrong_for_a_distractor_elsewhere_sharing_its_word():
    from types import SimpleNamespace

    from bench.reading_set2 import Conversation, score_set

    gold = [{"subject": "Ana", "concept": "language", "value": "Tagalog", "match": ["tagalog"], "turn": "t3"}]
    offered = [{"kind": "suggestion", "subject": "Ana", "concepts": ["language"], "value": "a line in Tagalog",
                "match": ["tagalog"], "turn": "t2", "text": "Open with a line in Tagalog?"}]
    conv = Conversation("c1", "Ana", [], [], gold, offered)

    def record(turn):
        return SimpleNamespace(subject="Ana", attribute="language", value="Tagalog", turns=[turn])

    right = score_set({"c1": [record("t3")]}, [conv])
    assert right.found == 1 and not right.wrong
    taken = score_set({"c1": [record("t2")]}, [conv])  # read from the suggestion's turn: the suggestion, taken
    assert taken.found == 1 and len(taken.wrong) == 1


def test_a_relative_by_a_hyphenated_relation_is_family():
    from bench.reading_set2 import meaning

    assert meaning("mother_in_law") == meaning("mother-in-law") == "family"
    assert meaning("sister") == "family" and meaning("wife") == "partner"


def test_a_distractors_short_word_is_named_only_as_a_word():
    assert not _names("owner of a little business", ["bus"])  # another's "he drives the 52 bus"
    assert _names("drives a bus", ["bus"]) and _names("two buses", ["bus"]) and _names("cats", ["cat"])
    assert _names("a keen tramper", ["tramp"])  # longer words as part, as gold's are
