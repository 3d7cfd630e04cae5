"""Synthetic chat turns for the benchmarks that need many of them (not LoCoMo's)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def messages(first: int, count: int, conversation: str, step: timedelta = timedelta(seconds=30)) -> list[dict]:
    """Turns `first` .. `first + count - 1` of a conversation, `step` apart, user and assistant in turn."""
    return [{"id": f"m{i}", "kind": "message", "conversation": conversation,
             "role": "user" if i % 2 else "assistant",
             "text": f"Turn {i}: a few words about the garden, the rain and the next trip to Porto.",
             "at": (T0 + step * i).isoformat()} for i in range(first, first + count)]


TOPICS = ("the garden", "the rain", "a trip to Porto", "the new job", "my sister's wedding", "the cat", "a recipe",
          "the tram", "the dentist", "a book I read", "the budget", "the river walk", "a concert", "the boiler")
VERBS = ("talked about", "planned", "worried about", "laughed at", "wrote down", "asked about", "remembered")


def varied(first: int, count: int, conversation: str, step: timedelta = timedelta(seconds=30),
           prefix: str = "m") -> list[dict]:
    """Like messages, with turns that say different things (topics, verbs and numbers vary by turn)."""
    return [{"id": f"{prefix}{i}", "kind": "message", "conversation": conversation,
             "role": "user" if i % 2 else "assistant",
             "text": f"On day {i // 40} we {VERBS[i % len(VERBS)]} {TOPICS[(i * 7) % len(TOPICS)]} and "
                     f"{TOPICS[(i * 3 + 1) % len(TOPICS)]}; item {i} costs {(i * 37) % 500} euros.",
             "at": (T0 + step * i).isoformat()} for i in range(first, first + count)]


NAMES = ("Alice Chen", "Mei", "Jonas", "Priya", "Tomás", "Sofia", "Kwame", "Lena", "Ravi", "Hana", "Oskar", "Amara",
         "Diego", "Yuki", "Farah", "Nils", "Chloe", "Bruno", "Ines", "Mateo", "Leila", "Sven", "Noor", "Pablo")
RELATIONS = ("sister", "brother", "mother", "father", "cousin", "friend", "neighbour", "colleague", "partner", "aunt")
PLACES = ("Lisbon", "Porto", "Berlin", "Kyoto", "Nairobi", "Lyon", "Oslo", "Seville", "Toronto", "Hanoi", "Cork",
          "Tbilisi", "Valparaíso", "Gdańsk", "Bologna", "Quito", "Tallinn", "Marrakesh", "Bergen", "Adelaide")
THINGS = ("the garden", "the boiler", "a pottery class", "the marathon", "my thesis", "the new bike", "a sourdough "
          "starter", "the tax return", "the dentist", "a piano recital", "the flat in town", "a road trip",
          "the wedding speech", "my Spanish lessons", "the kitchen tiles", "a chess club", "the broken laptop",
          "the school play", "a birdwatching walk", "the rent increase", "our book club", "the climbing gym")
JOBS = ("nurse", "data analyst", "carpenter", "teacher", "sound engineer", "pharmacist", "architect", "baker",
        "translator", "bus driver", "lab technician", "product designer")
FEELINGS = ("excited", "nervous", "tired", "relieved", "curious", "annoyed", "proud", "unsure")
WHEN = ("yesterday", "last weekend", "this morning", "on Friday", "two weeks ago", "last month", "tonight",
        "next Tuesday", "in March", "after work")
USER = (
    "I {verb} {thing} {when}.",
    "My {relation} {name} is moving to {place} {when}, and I feel {feeling} about it.",
    "I started a new job as a {job} in {place}.",
    "Can you remind me what I said about {thing}?",
    "{when_cap} I went to {place} with {name}; we spent {n} euros on dinner.",
    "I think I'll finally sort out {thing} {when}.",
    "I'm {feeling}: {thing} took {n} hours in the end.",
    "Do you remember my {relation} {name}? She sent me photos from {place}.",
)
ASSISTANT = (
    "That sounds {feeling_adj}. Since {thing} matters to you, it may help to set aside an hour {when} and write "
    "down the first three steps.",
    "Noted: your {relation} {name} and {place}. Would you like a reminder before {when}?",
    "You mentioned {thing} before, around {n} days ago. Last time you said it was going slowly, so it's good to "
    "hear about it again.",
    "Here is a short plan: first check the budget ({n} euros so far), then call {name}, and leave {thing} for "
    "{when}. Does that order work for you?",
    "Being {feeling} about a move is common. People who moved to {place} often say the first months are the "
    "hardest; keeping a routine with {thing} can help.",
    "I can keep track of that. So far you have told me about {thing}, the trip to {place} and your work as a "
    "{job}.",
)
VERBS_PAST = ("finished", "started", "paid for", "complained about", "fixed", "cancelled", "booked", "tried")
T_LIFE = datetime(2021, 1, 4, 8, 0, tzinfo=UTC)


def life(conversation: int, user: str = "u") -> list[dict]:
    """One conversation of a long-lived end user, the same for the same number: 10 to 400 turns (most near 60)
    in sessions of 2-10 turns a minute or two apart, sessions hours or days apart; short user turns that state
    things about their life, longer assistant answers. Ids `<user>c<conversation>t<turn>`."""
    import random

    rng = random.Random(f"{user}:{conversation}")
    turns = min(400, max(10, int(rng.lognormvariate(4.1, 0.7))))
    at = T_LIFE + timedelta(seconds=rng.randrange(4 * 365 * 86400))
    out = []
    i = 0
    while i < turns:
        for _ in range(min(turns - i, rng.randint(2, 10))):
            role = "user" if i % 2 == 0 else "assistant"
            sentences = rng.randint(1, 3) if role == "user" else rng.randint(1, 4)
            templates = USER if role == "user" else ASSISTANT
            text = " ".join(rng.choice(templates).format(**_fill(rng)) for _ in range(sentences))
            out.append({"id": f"{user}c{conversation}t{i}", "kind": "message", "conversation": f"chat-{conversation}",
                        "role": role, **({"name": NAMES[0]} if role == "user" else {}), "text": text,
                        "at": at.isoformat()})
            at += timedelta(seconds=rng.randint(20, 150))
            i += 1
        at += timedelta(seconds=rng.randrange(2 * 3600, 120 * 3600))
    return out


def _fill(rng) -> dict[str, object]:
    when = rng.choice(WHEN)
    return dict(verb=rng.choice(VERBS_PAST), thing=rng.choice(THINGS), when=when, when_cap=when.capitalize(),
                relation=rng.choice(RELATIONS), name=rng.choice(NAMES[1:]), place=rng.choice(PLACES),
                feeling=rng.choice(FEELINGS), feeling_adj=rng.choice(("hard", "lovely", "busy", "promising")),
                job=rng.choice(JOBS), n=rng.randint(2, 900))
