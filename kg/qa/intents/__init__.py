"""The intents, as data: one row per intent in `table.toml`, chosen for a question by specificity.

Why one table file rather than a row beside each `.rq`: the chooser compares rows with one another (which is
more specific, which forbid what), the pairwise test enumerates them, and `kg intents` prints them, so a reader
sees every competitor of a row on one page. The `.rq` files stay where every engine reads them; a row names
its query only when it shares another intent's (`doc_reviewers`), and never its proof: that is `<query>.ask`.

A question is tagged with the lexicon's cues (kg/qa/cues.py) and its slots (kg/qa/question.py). A row accepts
it when every `all` cue is found, one member of each `any` group is found, no `none` cue is, its `slots` are
filled and its `no_slots` are not, and its binders (kg/qa/intents/binders.py) can make the bindings. Among the
accepting rows the winner is the most specific:

1. the most constraints met: `all` cues + `any` groups + `slots` + a free phrase that resolves (`residue`);
2. then the row whose answer type the question asks for (a person cue for a person answer, a company cue for
   a company, a link or PR cue for links, none of those for prose);
3. then the row with the narrower subject: the first of the table's `[subjects]` a row requires (a previous
   release, a competitor, a document kind, a PR, a bug, a feature, ...), which its header argues;
4. still equal: the question is ambiguous and abstains naming the rows (tests/test_intent_table.py fails when
   two rows could ever reach this point on one cue set).

The asked type overrides rule 1 in one case: when the winner's reading gives another answer type than the
question asks for and leaves nothing else unexplained, the one complete reading among the other rows that gives
the asked type wins ("who's the company with the most open bugs": a company, not the engineers holding them).
A question that names one of its product's components whole carries the `component` cue, so "API Gateway fix
engineers" reads as an issue with that component without a bug word.

The row's free phrase is the residue: the question's words minus its slots, the cues the row used and stop
words, resolved against the labels the graph holds (kg/qa/residue.py). The timed form of intent X is derived
too: `sparql/asof_X.rq` with `sparql/asof_X.ask.rq`, when both exist.

SELECT query contract: it projects its parameters (pyoxigraph's SEP-0007 substitution requires every bound
variable in the projection), `?answer` (a literal: the eid, PR link, company name, URL or prose sentence)
and `?cite` (a literal: the HERB artifact id of a piece of evidence). One row per (answer, evidence) pair.
ASK proof contract: `ASK { FILTER NOT EXISTS { <evidence pattern> } }`, true when the typed evidence the intent needs
is absent for the bound slots; then the system abstains and shows this query and its bindings as the proof.
"""

from kg.qa.intents.chooser import ASKED_BY, DERIVED_CUES, SLOTS, Candidate, Choice, choose, judge, match_intent, rank
from kg.qa.intents.loader import TABLE, load_intents, table, validate_evidence
from kg.qa.intents.rows import ABSENCES, ANSWER_TYPES, FINISHERS, Absence, Finisher, Intent, as_of

__all__ = [
    "ABSENCES",
    "ANSWER_TYPES",
    "ASKED_BY",
    "DERIVED_CUES",
    "FINISHERS",
    "SLOTS",
    "TABLE",
    "Absence",
    "Candidate",
    "Choice",
    "Finisher",
    "Intent",
    "as_of",
    "choose",
    "judge",
    "load_intents",
    "match_intent",
    "rank",
    "table",
    "validate_evidence",
]
