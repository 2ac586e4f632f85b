"""What each state word a question may use means in the graph, and which intents read it.

Kept as data so `kg intents`, the README table and the tests show one definition.
"""

from __future__ import annotations

#: State word -> its meaning, in terms of the typed evidence the queries test.
STATE_WORDS: dict[str, str] = {
    "to merge": "a feature PR that is open, not merged, has an APPROVED review and is not held (a PR closed "
    "without merging is never to merge)",
    "to close": "an approved, unmerged feature PR held back: a develop-channel thread names it and asks whether "
    "it is still needed (kind 'held')",
    "reverted": "a feature PR that a 'Revert PR# N' PR undid; its reason (security risk, product direction, "
    "introduced bugs) is read from the develop thread about the PR (opener, else the next 3 "
    "replies), never from the revert PR's title",
    "delayed": "a feature PR a lead later decided to merge ('we've decided to move forward with merging PRs N') "
    "after a change of priorities, and that was merged",
    "dropped": "a feature that could not be added: its PR was reverted, or approved and held; the reason comes "
    "from the develop thread about that PR, not from the PR's title or summary",
    "discussed": "a feature the planning meeting (the earliest product-development transcript) names, in a list "
    "or after a topic cue, that no sprint review assigns; nothing implements it",
    "unresolved": "a bug whose current state is Open or Reopened (also 'active')",
    "dismissed": "a bug closed without a fix: an engineer looked into it and found it needs none (NoFixNeeded)",
    "reopened": "a bug resolved or dismissed earlier that the customer reopened (its current state is Reopened)",
}

#: Intent -> the state words its questions use.
INTENT_STATES: dict[str, tuple[str, ...]] = {
    "pr_to_merge": ("to merge",),
    "pr_to_close": ("to close",),
    "pr_reverted": ("reverted",),
    "feature_delayed": ("delayed",),
    "feature_dropped": ("dropped", "reverted"),
    "feature_discussed": ("discussed",),
    "feature_discussed_people": ("discussed",),
    "bug_company_max_state": ("unresolved", "reopened"),
    "bug_assignee_max_state": ("unresolved",),
    "bug_titles_by_state": ("unresolved", "dismissed"),
    "bug_companies_by_state": ("dismissed",),
    "bug_reopened_fix_author_max": ("reopened",),
    "bug_reopened_dismisser_max": ("reopened", "dismissed"),
}
