"""What each state word a question may use means in the graph, and which intents read it.

Read from the intent table (table.toml's `[states]` and each row's `states`), so `kg intents`, docs/questions.md's
state table (`markdown_table()`; `python -m kg.qa.states` prints it, a test keeps the page equal to it) and
the rows themselves share one definition.
"""

from __future__ import annotations

from kg.qa.intents.loader import state_words, table

#: State word -> its meaning, in terms of the typed evidence the queries test.
STATE_WORDS: dict[str, str] = state_words()

#: Intent -> the state words its questions use.
INTENT_STATES: dict[str, tuple[str, ...]] = {i.name: i.states for i in table()[1] if i.states}


def markdown_table() -> str:
    """The table of state words in docs/questions.md."""
    lines = ["| state word | meaning |", "|---|---|", *(f"| {w} | {m} |" for w, m in STATE_WORDS.items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
