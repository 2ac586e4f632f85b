"""Intents over competitor products: their strengths/features and weaknesses, who gave those insights, and the
competitor demo links team members shared (rules in kg/ingest/rules/competitors.py)."""

from __future__ import annotations

from kg.namespaces import term
from kg.qa.intents import Intent, register
from kg.qa.question import LINK, PERSON, Question
from kg.query.sparql import Term

COMPETITOR = r"\b(competitor|competing (product|solution|tool|with)|compete\w* (with|against)|rival)"
DEMO = r"\bdemo"
WEAK_WORDS = (
    r"\b(weakness|weak|weak point|disadvantage|limitation|drawback|shortcoming|downside|flaw|con|lack\w*|"
    r"fall short|struggle\w*|gap)\b"
)
STRONG_WORDS = (
    r"\b(strength|strong|strong point|feature|advantage|capabilit\w*|offering|pro|benefit|unique|"
    r"stand out|excel\w*|differentiat\w*|distinguish\w*)\b"
)
INSIGHT_WORDS = r"\b(insight|strength|weakness|feature|analy\w*|discuss\w*|assess\w*|evaluat\w*|review\w*)"


def aspect_bindings(q: Question) -> dict[str, Term]:
    """Strengths/features -> ekg:strength, weaknesses -> ekg:weakness; both or neither -> unbound (both)."""
    weak, strong = bool(q.matches(WEAK_WORDS)), bool(q.matches(STRONG_WORDS))
    if weak and not strong:
        return {"aspect": term("ekg:weakness")}
    if strong and not weak:
        return {"aspect": term("ekg:strength")}
    return {}


def match_competitor_insights(q: Question) -> dict[str, Term] | None:
    """ "What are the unique features / strengths / weaknesses of <P>'s competitor products?" """
    if not q.matches(COMPETITOR) or q.matches(PERSON) or q.matches(DEMO):
        return None
    if q.matches(WEAK_WORDS) or q.matches(STRONG_WORDS):
        return aspect_bindings(q)
    return None


def match_competitor_insight_providers(q: Question) -> dict[str, Term] | None:
    """ "Who provided insights on the strengths and weaknesses of <P>'s competitor products?" """
    if q.matches(COMPETITOR) and q.matches(PERSON) and q.matches(INSIGHT_WORDS) and not q.matches(DEMO):
        return {}
    return None


def match_competitor_demo_sharers(q: Question) -> dict[str, Term] | None:
    """ "Find employee IDs of team members who shared demos of <P>'s competitor products?" """
    if q.matches(COMPETITOR) and q.matches(DEMO) and q.matches(PERSON) and not q.matches(LINK):
        return {}
    return None


def match_competitor_demo_urls(q: Question) -> dict[str, Term] | None:
    """ "Find the demo URLs shared by team members for <P>'s competitor products?" """
    if q.matches(COMPETITOR) and q.matches(DEMO) and q.matches(LINK):
        return {}
    return None


for _name, _type, _match in (
    ("competitor_insights", "content", match_competitor_insights),
    ("competitor_insight_providers", "person", match_competitor_insight_providers),
    ("competitor_demo_sharers", "person", match_competitor_demo_sharers),
    ("competitor_demo_urls", "url", match_competitor_demo_urls),
):
    register(Intent(_name, _type, _match, _name, f"{_name}.ask", priority=20))
