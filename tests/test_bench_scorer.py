"""The reading sets' scorer: a value holds a match word as said, a number only whole."""
from bench.reading_set2 import _holds


def test_a_number_matches_only_whole_and_words_as_part():
    assert _holds("37", ["37"]) and not _holds("37", ["3"])  # "Rory is 3" is no distractor of an age of 37
    assert _holds("3 kids", ["3"]) and _holds("a keen tramper", ["tramp"])
    assert _holds("thirty", ["thirty"]) and not _holds("thirty-two", ["thirty"])  # a friend's thirty, the user's 32
    assert _holds("thirty-two", ["thirty-two"])
