"""The operators people add to a question, composed over the intent that reads the rest of it (kg/qa/operators.py),
and the word account that keeps a shifted question from being answered as the plain one (kg/qa/reading.py).

Each question is made up in the style of a meaning shift of a dev question (excluding an item, second place, how
many, yes/no, fewest, a comparison, why), on dev products, on the real store; the expected answer is computed
from the plain question's answer or from the ranked rows, never written down.
"""

from __future__ import annotations

import json
from pathlib import Path

from kg.qa.answer import Answer, Answerer
from kg.qa.plain import reading

PLAIN_MOST = "Which company has the most unresolved bugs in ActionGenie?"
PLAIN_RESOLVER = "Which engineer resolved the most bugs in AnomalyForce?"
PLAIN_LEADS = "Find employee IDs of Engineering Leads who reviewed the Market Research Report for ActionGenie?"
PLAIN_REVIEWERS = "Which employees reviewed the Market Research Report for ActionGenie?"


def ranked(answer: Answer) -> dict[str, int]:
    assert answer.operator is not None
    return {name: n for name, n in answer.operator["ranked"]}


def not_the_plain_answer(answerer: Answerer, shifted: str, plain: str) -> Answer:
    """The shifted question is never answered with the plain question's answer."""
    got, base = answerer.ask(shifted), answerer.ask(plain)
    assert base.outcome == "answer"
    assert got.outcome == "uncertain" or got.answer != base.answer, shifted
    return got


def test_other_than_a_company_is_the_most_among_the_rest(answerer: Answerer) -> None:
    got = not_the_plain_answer(
        answerer, "Which company other than BlueWave has the most unresolved bugs in ActionGenie?", PLAIN_MOST
    )
    counts = ranked(got)
    rest = {c: n for c, n in counts.items() if c != "BlueWave"}
    assert got.outcome == "answer" and got.operator is not None and got.operator["kind"] == "exclude"
    assert got.answer == sorted(c for c, n in rest.items() if n == max(rest.values()))
    assert "BlueWave" not in got.answer and "→ excluding BlueWave" in reading(got)


def test_second_most_is_the_second_count_not_the_top(answerer: Answerer) -> None:
    got = not_the_plain_answer(
        answerer, "Which engineer resolved the second most bugs in AnomalyForce?", PLAIN_RESOLVER
    )
    counts = ranked(got)
    second = sorted(set(counts.values()), reverse=True)[1]
    assert got.outcome == "answer" and got.answer == sorted(e for e, n in counts.items() if n == second)
    assert got.to_json()["operator"]["kind"] == "rank"


def test_fewest_is_the_lowest_count(answerer: Answerer) -> None:
    """Among those with any, the lowest count; said of no set where some have none, both readings differ and the
    reading names them (never the plain question's answer)."""
    got = not_the_plain_answer(
        answerer, "Which company has the fewest unresolved bugs in ActionGenie, among those with any?", PLAIN_MOST
    )
    counts = ranked(got)
    assert got.answer == sorted(c for c, n in counts.items() if n == min(counts.values()))
    unsaid = answerer.ask("Which company has the fewest unresolved bugs in ActionGenie?")
    assert unsaid.outcome == "uncertain" and "have none" in (unsaid.reason or "")


def test_how_many_counts_the_core_answer_with_its_items_as_evidence(answerer: Answerer) -> None:
    got = answerer.ask("How many Engineering Leads reviewed the ActionGenie Market Research Report?")
    items = answerer.ask(PLAIN_LEADS).answer
    assert isinstance(items, list) and got.outcome == "answer"
    assert got.answer == str(len(items)) and got.operator is not None and got.operator["items"] == items
    assert got.citations and "→ how many" in reading(got)


def test_how_many_counts_a_written_list_of_titles_and_words_said_apart(answerer: Answerer) -> None:
    """A written answer that is a list ("- title" a line) counts its distinct items; "how many … in total" is
    read without its count words wherever they stand."""
    plain = answerer.ask("Find all reopened bugs in InsightForce.")
    titles = {line[2:].strip() for line in str(plain.answer).splitlines() if line.startswith("- ")}
    assert plain.outcome == "answer" and titles
    got = answerer.ask("How many different InsightForce bugs have been reopened?")
    assert got.outcome == "answer" and got.answer == str(len(titles)) and got.type == "count"
    prs = answerer.ask("Which CollaborateForce pull requests has eid_76d9cb07 opened?")
    total = answerer.ask("How many CollaborateForce pull requests has eid_76d9cb07 opened in total?")
    assert isinstance(prs.answer, list) and total.answer == str(len(prs.answer))


def test_how_many_of_nothing_is_zero_with_the_proof(answerer: Answerer) -> None:
    plain = answerer.ask("Find names of companies that reported no-fix-needed bugs in ActionGenie.")
    got = answerer.ask("How many companies reported bugs in ActionGenie that needed no fix?")
    if plain.outcome == "absent":
        assert got.answer == "0" and got.proof is not None and got.proof["result"] is True
    else:
        assert isinstance(plain.answer, list) and got.answer == str(len(plain.answer))


def test_how_many_of_a_written_list_proved_empty_is_zero(answerer: Answerer) -> None:
    """A reading that writes its items as a list (bug titles) and holds none counts 0 on its proof, not "prose"."""
    plain = answerer.ask("Find all bugs reported by BlueWave in ProposalForce.")
    got = answerer.ask("How many bugs did BlueWave report in ProposalForce?")
    assert plain.outcome == "absent" and plain.proof is not None
    assert got.outcome == "answer" and got.answer == "0" and got.proof == plain.proof


def test_yes_no_about_one_person_is_their_membership_in_the_answer(answerer: Answerer) -> None:
    reviewers = answerer.ask(PLAIN_REVIEWERS).answer
    assert isinstance(reviewers, list) and reviewers
    for eid in (reviewers[0], "eid_13fdff84"):
        got = answerer.ask(f"Did {eid} review the ActionGenie Market Research Report?")
        assert got.outcome == "answer" and got.answer == ("yes" if eid in reviewers else "no")
        assert got.answer == "yes" or got.proof is not None


def test_is_a_company_among_the_most(answerer: Answerer) -> None:
    top = answerer.ask(PLAIN_MOST).answer
    assert isinstance(top, list)
    for company in ("BlueWave", "CloudSync"):
        got = answerer.ask(f"Is {company} among the companies with the most unresolved bugs in ActionGenie?")
        assert got.answer == ("yes" if company in top else "no")


def test_two_companies_compared_by_their_counts(answerer: Answerer) -> None:
    got = answerer.ask("Did BlueWave report more unresolved bugs than DataSolutions in ActionGenie?")
    counts = ranked(got)
    assert got.answer == ("yes" if counts.get("BlueWave", 0) > counts.get("DataSolutions", 0) else "no")


def test_a_word_no_part_of_the_reading_places_makes_it_uncertain(answerer: Answerer) -> None:
    """ "Junior" narrows the reviewers; no row reads it, so the reading is uncertain and names it, never the
    unfiltered list. "The QA folks" is the QA Specialists role, which a row reads (with its proof)."""
    got = answerer.ask("Who were the junior folks that reviewed ActionGenie's product vision doc?")
    assert got.outcome == "uncertain" and "'junior'" in (got.reason or "")
    role = answerer.ask("Who were the QA folks that reviewed ActionGenie's product vision doc?")
    plain = answerer.ask("Which QA Specialists reviewed ActionGenie's product vision doc?")
    assert (role.outcome, role.intent, role.answer) == (plain.outcome, plain.intent, plain.answer)


def test_an_ordinal_on_a_row_that_ranks_nothing_is_uncertain(answerer: Answerer) -> None:
    got = answerer.ask("Who wrote the second Market Research Report for ActionGenie?")
    assert got.outcome == "uncertain" and got.answer is None


def test_why_is_unsupported_never_a_list_of_people(answerer: Answerer) -> None:
    got = answerer.ask("Why did the Engineering Leads review the ActionGenie Market Research Report?")
    assert got.outcome == "unsupported" and got.answer is None


def test_a_negated_superlative_and_a_negated_state_read_as_the_plain_question(answerer: Answerer) -> None:
    plain = answerer.ask(PLAIN_MOST)
    for wording in (
        "Which customer is it that no other customer has more unresolved bugs in ActionGenie?",
        "Which company has the most bugs that still haven't been fixed in ActionGenie?",
    ):
        got = answerer.ask(wording)
        assert (got.outcome, got.intent, got.answer) == ("answer", plain.intent, plain.answer), wording


def test_negation_said_in_more_ways_reads_as_the_plain_question(answerer: Answerer) -> None:
    """A comparative whose counted items hold a negation ("more … that never got approved than any other / than
    anyone else"), a superlative's negation that negates nothing after it ("nobody beats on approved PRs"), "never
    got the green light", "X and Y both", the items not in a state left out ("leave out those that weren't
    approved": that state), a
    count nobody exceeds, a negated "un-" state, a request said as a doubt, "don't leave any off the list" and
    "no exceptions": each is the plain question, with its plain answer."""
    pairs = {
        "Find the employee ID of engineer with the highest number of unapproved feature development PRs in "
        "SentimentForce?": (
            "Which SentimentForce engineer has more feature development PRs that never got approved than any other "
            "engineer?",
            "Which SentimentForce engineer's count of unapproved feature development PRs is not exceeded by any "
            "other engineer?",
            "Which SentimentForce engineer has more feature development PRs that were never approved than anyone else?",
        ),
        "Could you provide links to the approved PRs for the UI/UX enhancements in ContextForce?": (
            "ContextForce UI/UX enhancements PRs that weren't left unapproved, links",
            "Links to the ContextForce PRs for the UI/UX enhancements; leave out the ones that weren't approved.",
            "Links to the ContextForce PRs for the UI/UX enhancements: approved ones only, none of those that did "
            "not get approval.",
        ),
        PLAIN_MOST: (
            "Which company has unresolved ActionGenie bugs that no other company is ahead of? Don't leave any of "
            "them off the list.",
            "Which company is sitting on the most ActionGenie bugs that still haven't been resolved?",
            "In ActionGenie no other company has so many unresolved bugs as which company?",
        ),
        "Find the employee ID of engineer with the highest number of approved feature development PRs in TrendForce?": (
            "TrendForce engineer nobody beats on approved feature development PRs, eid please",
            "Which TrendForce engineer has a count of approved feature development PRs that no other engineer exceeds?",
        ),
        "Find the links to the unapproved PRs for the UI/UX enhancements in ContextForce.": (
            "ContextForce UI/UX enhancements PRs that never got the green light",
        ),
        "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie "
        "product?": ("ActionGenie Market Research Report: the authors and key reviewers both, employee IDs",),
        "Find employee IDs of the authors and key reviewers of the Technical Specifications Document for the "
        "ConnectForce product?": (
            "For ConnectForce, who wrote the Technical Specifications Document and who were its key reviewers? Not "
            "counting people who only commented.",
            "ConnectForce Technical Specifications Document: authors and key reviewers, and leave out anyone who "
            "just left comments without being a key reviewer.",
        ),
        "Could you provide the links to the PRs for enhancing the user interface in SearchForce that need to be "
        "merged?": (
            "Which SearchForce PRs for enhancing the user interface haven't gone in yet but need to be merged?",
            "Provide links to every PR for enhancing the user interface in SearchForce that is pending merge and "
            "cannot be left unmerged.",
        ),
        "Find the employee ID of engineer with the highest number of unapproved feature development PRs in "
        "ContextForce?": (
            "Which ContextForce engineer is unbeaten on feature development PRs that didn't get approved?",
        ),
        "Can you provide links to the approved PRs for expanding security measures in AnomalyForce?": (
            "Provide links to the PRs for expanding security measures in AnomalyForce that did not go unapproved.",
        ),
        "Find the employee ID of engineers who resolved the maximum number of customer bugs in EdgeForce": (
            "who resolved the most customer bugs in EdgeForce? need the employee ID of whichever engineer nobody "
            "else beats on that count",
        ),
        "Find employee IDs of Technical Architects who worked on the previous release of ContextForce?": (
            "Which Technical Architects were working on the ContextForce release before, not the current one? I "
            "need the employee IDs.",
        ),
        "Find the employee IDs of engineers who authored maximum number of PRs in ContextForce for bug fixes that "
        "are now reopened by customers.": (
            "which engineers authored the most PRs for ContextForce bug fixes that customers didn't leave closed, "
            "i.e. now reopened? emp ids",
        ),
        "Find names of companies that highlighted strengths of the previous release of EdgeForce?": (
            "Which companies didn't hold back from highlighting strengths of the previous release of EdgeForce?",
        ),
        "Find employee IDs of Marketing Research Analysts who worked on the previous release of ContextForce?": (
            "Which Marketing Research Analysts worked on ContextForce, not on the current release but the one "
            "before it? I need their employee IDs.",
        ),
        "Find features for SentimentForce that were discussed but not implemented?": (
            "Were there features people talked about for SentimentForce that never got built? Which ones?",
        ),
        "Find the name of company that has the maximum number of unresolved bugs in SupportForce?": (
            "Identify the company for which no other company has a larger count of SupportForce bugs not yet resolved.",
        ),
        "Find the demo URLs shared by team members for the previous version of FlowForce?": (
            "Enumerate the demo URLs team members shared for the FlowForce version that preceded the current one, "
            "not the current version.",
        ),
        "Which PRs for integrating predictive analytics in AnomalyForce were approved?": (
            "Leaving aside the ones that were turned down, which predictive analytics integration PRs in "
            "AnomalyForce went through?",
        ),
        "Find employee IDs of team members who shared demos of the previous version of FlowForce?": (
            "Isn't there a list of the team members who shared demos of the previous version of FlowForce? "
            "Employee IDs, no exceptions.",
        ),
    }
    for plain, wordings in pairs.items():
        want = answerer.ask(plain)
        assert want.outcome == "answer", plain
        for wording in wordings:
            got = answerer.ask(wording)
            assert (got.outcome, got.intent, got.answer) == ("answer", want.intent, want.answer), (wording, got.reason)


def test_a_time_window_the_reading_cannot_place_is_never_the_plain_answer(answerer: Answerer) -> None:
    for wording in (
        "Which company had the most unresolved bugs in ActionGenie before March?",
        "Which company has the most unresolved bugs in ActionGenie in 2025?",
    ):
        not_the_plain_answer(answerer, wording, PLAIN_MOST)


def test_the_place_after_the_top_said_as_what_comes_next(answerer: Answerer) -> None:
    second = answerer.ask("Which company has the second most unresolved bugs in ActionGenie?")
    assert second.outcome == "answer"
    got = answerer.ask(
        "After the companies tied for the most unresolved bugs in ActionGenie, which company (or companies) come next?"
    )
    assert (got.outcome, got.answer) == ("answer", second.answer)


def test_an_exclusion_word_inside_a_quoted_title_excludes_nothing(answerer: Answerer) -> None:
    """'Transcription Progress Bar Stuck': "bar" there is a word of the title (was: "excluding" it)."""
    got = answerer.ask("Which PR fixed the 'Transcription Progress Bar Stuck' bug in CoachForce?")
    assert got.outcome == "answer" and got.operator is None
    plain = answerer.ask("Which companies reported bugs in ActionGenie?")
    barred = answerer.ask("Which companies reported bugs in ActionGenie, bar TechCorp?")
    assert barred.answer == [c for c in plain.answer if c != "TechCorp"]


def test_an_exclusion_of_several_items_said_together_or_known_before(answerer: Answerer) -> None:
    plain = answerer.ask("Which companies spoke about strengths of the previous release of SentimentForce?")
    assert plain.outcome == "answer" and len(plain.answer) > 2
    a, b = plain.answer[0], plain.answer[-1]
    rest = [c for c in plain.answer if c not in (a, b)]
    for wording in (
        f"Not counting {a} and {b}, which companies spoke about strengths of the previous release of SentimentForce?",
        f"We already contacted {a} and {b}. Which other companies spoke about strengths of the previous release of "
        "SentimentForce?",
    ):
        got = answerer.ask(wording)
        assert (got.outcome, got.answer) == ("answer", rest), wording
    top = answerer.ask(
        "Other than BlueWave and DataSolutions, which company has the most unresolved bugs in ActionGenie?"
    )
    assert top.outcome == "answer" and not {"BlueWave", "DataSolutions"} & set(top.answer)


def test_a_count_said_as_a_total(answerer: Answerer) -> None:
    plain = answerer.ask("Links to the approved PRs for implementing automated scaling in TrendForce?")
    for wording in (
        "total approved PRs for implementing automated scaling in TrendForce?",
        "Can you count the approved PRs for implementing automated scaling in TrendForce?",
    ):
        assert answerer.ask(wording).answer == str(len(plain.answer)), wording


def test_a_count_asked_with_its_items_answers_both(answerer: Answerer) -> None:
    """ "How many …, and what are they?": the items, their number beside them (was: the number alone)."""
    listed = answerer.ask("What are the versions of the CForceAIX Technical Specifications Document?")
    got = answerer.ask(
        "How many versions of the CForceAIX Technical Specifications Document are there, and what are they?"
    )
    assert got.answer == listed.answer and got.operator["count"] == len(listed.answer)


def test_approvals_by_one_person_are_the_approver_s(answerer: Answerer) -> None:
    """ "most PR approvals by one person": who gave them (was: the author of the most approved PRs)."""
    top = answerer.ask("Who approved the most PRs in SummarizeForce?")
    got = answerer.ask("SummarizeForce - most PR approvals by one person?")
    assert got.outcome == "answer" and got.answer == top.answer and got.intent == top.intent
    slip = answerer.ask("who approvd the most PRs for SummarizeForce")  # a slip of "approved": still the approver
    assert slip.answer == top.answer and slip.intent == top.intent


def test_a_fewest_is_read_among_everyone_only_where_the_row_knows_everyone(answerer: Answerer) -> None:
    """Those with none are never in the ranked rows. Where the row names everyone a fewest is read among (every
    feature PR's author, table.toml's `universe`), those with none are the fewest; elsewhere the fewest of all is
    not read, and "among those with at least one" is."""
    got = answerer.ask(
        "Of the engineers who opened feature development PRs in AnomalyForce, who ended up with the fewest approved?"
    )
    assert got.outcome == "answer" and got.answer == ["eid_d3a4fc8f"], got.reason
    assert "those with none included" in got.operator["shown"]
    ranked = dict(got.operator["ranked"])
    assert ranked["eid_d3a4fc8f"] == 0 and all(n > 0 for a, n in ranked.items() if a != "eid_d3a4fc8f")
    unknown = answerer.ask("Of all the engineers in FlowForce, who resolved the fewest customer bugs?")
    assert unknown.outcome == "uncertain" and "none" in (unknown.reason or "")
    kept = answerer.ask(
        "Among engineers with at least one, which engineer has the fewest approved feature development PRs in "
        "AnomalyForce?"
    )
    assert kept.outcome == "answer" and "eid_d3a4fc8f" not in kept.answer


def test_a_fewest_of_companies_counts_those_with_none(answerer: Answerer) -> None:
    """Among the companies reporting bugs, one with none unresolved has the fewest unresolved: 0, not the least
    of those with some; "only those that still have some open" reads the least of those with any."""
    got = answerer.ask("Which company reporting bugs in ActionGenie has the least unresolved bugs?")
    assert got.outcome == "answer"
    ranked = dict(got.operator["ranked"])
    assert got.answer and all(ranked[a] == 0 for a in got.answer)
    assert min(ranked.values()) == 0 and sorted(a for a, n in ranked.items() if n == 0) == got.answer
    some = answerer.ask(
        "Which company has the minimum number of unresolved bugs in EdgeForce? only companies that still have "
        "something open"
    )
    assert some.outcome == "answer" and all(n > 0 for a, n in some.operator["ranked"] if a in some.answer)


def test_a_negation_the_reading_does_not_use_is_never_dropped(answerer: Answerer) -> None:
    """The complement ("did not review") is no reading of the reviewers: uncertain, naming 'not'."""
    got = not_the_plain_answer(
        answerer, "Which Engineering Leads did not review the ActionGenie Market Research Report?", PLAIN_LEADS
    )
    assert got.outcome == "uncertain" and "'not'" in (got.reason or "")
    # a clause that asks ("send me …") is no aside of the asker's, so its negation is read: "weren't rejected"
    # is not the rejected PRs (was: the rejected ones, the "not" dropped)
    rejected = answerer.ask(
        "Links to the PRs for implementing predictive analytics in ContextForce that were rejected."
    )
    assert rejected.outcome == "answer"
    got = answerer.ask(
        "ContextForce predictive analytics: send me links to the PRs for implementing it that weren't rejected."
    )
    assert got.answer != rejected.answer and got.outcome == "uncertain" and "'not'" in (got.reason or "")
    # a contrast's clause asks, never sets the scene: the current release is no reading of the documents'
    # authors (was: every version's authors), and "approved, rather than not approved" is the approved
    for wording in (
        "Which Engineering Lead wrote the System Design Document for the new (current) release of ContextForce, as "
        "opposed to the previous one?",
        "Find the employee ID of the Technical Architect who wrote the Technical Specifications Document for "
        "TrendForce's current release.",
        "For SentimentForce's upcoming release rather than the previous one, which Technical Architect authored "
        "the technical specifications?",
    ):
        assert answerer.ask(wording).outcome == "uncertain", wording
    approved = answerer.ask("Which PRs for the automated scaling feature in TrendForce were approved?")
    flipped = answerer.ask(
        "Flip it around: which PRs for the automated scaling feature in TrendForce were approved, rather than not "
        "approved?"
    )
    assert flipped.answer == approved.answer and approved.outcome == "answer"
    # "not affected by" a second component is a complement, never a description of the first (was: the first's
    # companies)
    contrast = answerer.ask(
        "Find the companies affected by the Model Management & Update Module issues in EdgeForce that were NOT "
        "affected by the AI Processing Engine latency issues."
    )
    assert contrast.outcome == "uncertain" and "'not'" in (contrast.reason or "")


def test_a_link_is_an_item_excluded_whole_and_looked_up_whole(answerer: Answerer) -> None:
    """Links are answer items: "other than <link>" drops that link only (pull/2 is not pull/20), and "was <link>
    one of them" looks it up."""
    plain = answerer.ask("Which demo URLs did team members share for AnomalyForce's competitor products?")
    assert plain.outcome == "answer" and isinstance(plain.answer, list) and len(plain.answer) > 1
    link = plain.answer[0]
    got = answerer.ask(
        f"Other than {link}, what demo URLs did team members share for AnomalyForce's competitor products?"
    )
    assert got.outcome == "answer" and got.answer == plain.answer[1:]
    around = answerer.ask(
        f"List the demo URLs team members shared for AnomalyForce's competitor products, but leave {link} out."
    )
    assert around.answer == plain.answer[1:]
    asked = answerer.ask(f"Was {link} one of the demo URLs shared for AnomalyForce's competitor products?")
    assert asked.answer == "yes"
    assert (
        answerer.ask(f"Was {link}x one of the demo URLs shared for AnomalyForce's competitor products?").answer == "no"
    )


def test_a_place_people_work_is_a_filter_no_reading_drops(answerer: Answerer) -> None:
    plain = "Which engineer resolved the most bugs in AnomalyForce?"
    got = not_the_plain_answer(
        answerer, "Which engineer based in Seattle resolved the most bugs in AnomalyForce?", plain
    )
    assert got.outcome == "uncertain" and "'seattle'" in (got.reason or "")


def test_the_place_after_the_top_said_without_an_ordinal(answerer: Answerer) -> None:
    for wording in (
        "Which company has the next-highest number of unresolved bugs in ActionGenie?",
        "Right after the top one, which company has the most unresolved bugs in ActionGenie?",
    ):
        got = not_the_plain_answer(answerer, wording, PLAIN_MOST)
        counts = ranked(got)
        second = sorted(set(counts.values()), reverse=True)[1]
        assert got.answer == sorted(c for c, n in counts.items() if n == second), wording


def test_whats_the_number_of_counts(answerer: Answerer) -> None:
    got = answerer.ask(
        "What's the number of Engineering Leads who reviewed the Market Research Report for ActionGenie?"
    )
    base = answerer.ask(PLAIN_LEADS)
    assert base.outcome == "answer" and got.type == "count" and got.answer == str(len(base.answer or []))


def test_more_of_one_or_the_other_is_never_a_list(answerer: Answerer) -> None:
    got = answerer.ask(
        "In AnomalyForce, were more PRs approved for integrating predictive analytics "
        "or for expanding security measures?"
    )
    assert got.outcome == "uncertain" and "'more'" in (got.reason or "")


def test_who_approved_the_most_prs_counts_the_review_records(answerer: Answerer) -> None:
    """The approver is the reviewer, not the PRs' author: the top of the ranked review counts, and its second
    place by the ranking operator."""
    top = answerer.ask("Who approved the most pull requests in TrendForce, by the review records?")
    assert top.outcome == "answer" and top.intent == "pr_top_approver"
    second = answerer.ask("Who approved the second most pull requests in TrendForce?")
    counts = ranked(second)
    levels = sorted(set(counts.values()), reverse=True)
    assert top.answer == sorted(a for a, n in counts.items() if n == levels[0])
    assert second.answer == sorted(a for a, n in counts.items() if n == levels[1])
    authors = answerer.ask(
        "Find the employee ID of engineer with the highest number of approved feature development PRs in TrendForce?"
    )
    assert authors.intent == "pr_top_author"


def test_two_people_compared_as_a_choice_is_a_statement_of_which(answerer: Answerer) -> None:
    """ "Who resolved more …, A or B?" asks which of the two: a statement naming it with both counts (never a
    list, never a yes for a question that is not yes or no)."""
    got = answerer.ask("Who resolved more customer bugs in FlowForce, eid_f2474622 or eid_9a7b2132?")
    assert got.type == "compare" and isinstance(got.answer, str), got.reason
    ranks = ranked(got)
    a, b = ranks.get("eid_f2474622", 0), ranks.get("eid_9a7b2132", 0)
    assert got.answer.startswith("eid_f2474622" if a > b else "eid_9a7b2132" if b > a else "neither")


def test_the_fewest_among_those_with_any_is_read_as_the_fewest(answerer: Answerer) -> None:
    """ "Among engineers who resolved at least one, who resolved the fewest" restates the fewest's own scope: its
    "at least" is no ranking, and the answer is the fewest of the ranked rows. Said without it, the fewest may be
    an engineer with none, whom the rows do not hold: uncertain."""
    got = answerer.ask(
        "Among the engineers who resolved at least one customer bug in FlowForce, who resolved the fewest?"
    )
    assert got.outcome == "answer", got.reason
    ranked = dict(got.operator["ranked"])
    assert got.answer == sorted(a for a, n in ranked.items() if n == min(ranked.values()))
    plain = answerer.ask("Who resolved the fewest customer bugs in FlowForce?")
    assert plain.outcome == "uncertain" and "at least one" in (plain.reason or "")


PLAIN_APPROVED = "Find the links to the approved PRs for integrating predictive analytics in AnomalyForce."


EXCLUSIONS = {
    # a link in a clause of its own: its number would be a time the reading drops, but the exclusion holds it
    PLAIN_APPROVED: (
        "Leaving out {}, list the approved PRs for integrating predictive analytics in AnomalyForce.",
        "Which approved PRs for integrating predictive analytics in AnomalyForce are there, other than {}?",
    ),
    # said around the item, and the words that restate an exclusion ("who else")
    PLAIN_REVIEWERS: (
        "{} aside, which employees reviewed the Market Research Report for ActionGenie?",
        "Setting {} aside, which employees reviewed the Market Research Report for ActionGenie?",
        "Drop {} from the list: who else reviewed the Market Research Report for ActionGenie?",
        "Which other employees reviewed the Market Research Report for ActionGenie, if we ignore {}?",
        "Which employees reviewed the Market Research Report for ActionGenie? Skip {}.",
    ),
}


def test_exclusions_in_the_ways_people_say_them(answerer: Answerer) -> None:
    for plain_question, forms in EXCLUSIONS.items():
        plain = answerer.ask(plain_question).answer
        assert isinstance(plain, list) and len(plain) > 1
        for form in forms:
            got = answerer.ask(form.format(plain[0]))
            assert got.outcome == "answer" and got.answer == plain[1:], form


def test_how_many_different_counts_as_how_many(answerer: Answerer) -> None:
    plain = answerer.ask(PLAIN_REVIEWERS).answer
    assert isinstance(plain, list)
    for said in (
        "How many distinct employees reviewed the Market Research Report for ActionGenie?",
        "How many employees in total reviewed the Market Research Report for ActionGenie?",
    ):
        assert answerer.ask(said).answer == str(len(plain)), said


def test_a_yes_no_after_a_short_lead_and_its_frame(answerer: Answerer) -> None:
    reviewers = answerer.ask(PLAIN_REVIEWERS).answer
    assert isinstance(reviewers, list) and reviewers
    for eid in (reviewers[0], "eid_13fdff84"):
        expected = "yes" if eid in reviewers else "no"
        for said in (
            f"Quick check: did {eid} review the ActionGenie Market Research Report?",
            f"Is it true that {eid} reviewed the ActionGenie Market Research Report?",
        ):
            got = answerer.ask(said)
            assert got.outcome == "answer" and got.answer == expected, said


def test_a_yes_no_whose_item_no_row_reads_is_its_membership_in_the_core(answerer: Answerer) -> None:
    """ "Was eid_… one of the engineers who resolved <component> issues": no row takes an employee there, so the
    core is read without the item and the item looked up among its answers."""
    core = answerer.ask("Which engineers resolved the API Security & Access Control issue in ActionGenie?")
    assert core.outcome == "answer" and isinstance(core.answer, list) and core.answer
    for eid in (core.answer[0], "eid_13fdff84"):
        got = answerer.ask(
            f"Was {eid} one of the engineers who resolved the API Security & Access Control issue in ActionGenie?"
        )
        assert got.outcome == "answer" and got.answer == ("yes" if eid in core.answer else "no")
    owner = answerer.ask(
        f"Did {core.answer[0]}'s manager resolve the API Security & Access Control issue in ActionGenie?"
    )
    assert owner.answer not in ("yes", "no")  # the item said as an owner is no member of the answer


def test_of_several_items_the_yes_no_asks_about_the_one_after_the_opening(answerer: Answerer) -> None:
    plain = answerer.ask("Which PRs did eid_b9189afb submit to fix bugs reported by FusionTech in SupportForce?")
    assert plain.outcome == "answer" and isinstance(plain.answer, list) and plain.answer
    for link in (plain.answer[0], "https://github.com/salesforce/SupportForce/pull/36"):
        got = answerer.ask(
            f"Is {link} one of the PRs eid_b9189afb submitted to fix bugs reported by FusionTech in SupportForce?"
        )
        assert got.answer == ("yes" if link in plain.answer else "no")


def test_a_role_or_place_the_row_does_not_read_keeps_the_answer_to_those_people(answerer: Answerer) -> None:
    """One more filter the graph expresses: the row's people kept to a role or a location, as the organisation
    graph gives them; nobody left is absent with the count looked at as its proof; never the plain answer."""
    plain = answerer.ask("Who shared a demo of KnowledgeForce's competitor products?")
    assert plain.outcome == "answer" and isinstance(plain.answer, list)
    people = answerer.people
    for role in sorted({people.person(e).role or "" for e in plain.answer} | {"QA Specialist"}):
        got = answerer.ask(f"Which {role}s shared a demo of KnowledgeForce's competitor products?")
        wanted = [e for e in plain.answer if people.person(e).role == role]
        if wanted:
            assert got.outcome == "answer" and got.answer == wanted, role
        else:
            assert got.outcome == "absent" and got.proof is not None, role
        assert got.operator is not None and got.operator["kind"] == "filter"
    where = answerer.ask("Which remote engineers resolved bugs in the log analysis module of SupportForce?")
    assert where.outcome in ("answer", "absent")
    kept = where.answer if isinstance(where.answer, list) else []
    assert all(people.person(e).location == "Remote" for e in kept)


def test_a_role_kept_among_a_documents_people_and_its_complement(answerer: Answerer) -> None:
    """ "Which QA Specialists were among the authors and key reviewers of …" keeps the plain answer's people to
    the role; "… who is not a QA Specialist" keeps the others: together they are the plain answer."""
    doc = "the Technical Specifications Document for the ConnectForce product"
    plain = answerer.ask(f"Find employee IDs of the authors and key reviewers of {doc}?")
    assert plain.outcome == "answer" and isinstance(plain.answer, list)
    among = answerer.ask(f"Which QA Specialists were among the authors and key reviewers of {doc}?")
    others = answerer.ask(f"Who among the authors and key reviewers of {doc} is not a QA Specialist?")
    qa = [e for e in plain.answer if answerer.people.person(e).role == "QA Specialist"]
    assert among.answer == qa and others.answer == [e for e in plain.answer if e not in qa]
    assert others.operator is not None and others.operator["shown"] == "all but QA Specialist"


def test_a_role_the_row_does_not_read_is_never_dropped_from_a_most(answerer: Answerer) -> None:
    got = answerer.ask("Which QA Specialist resolved the most bugs in AnomalyForce?")
    assert got.outcome == "uncertain" and "specialist" in (got.reason or "")


def test_a_role_named_for_the_asker_is_context(answerer: Answerer) -> None:
    plain = answerer.ask(PLAIN_APPROVED)
    got = answerer.ask(
        "For the PM update: links to the approved PRs for integrating predictive analytics in AnomalyForce"
    )
    assert got.outcome == "answer" and got.answer == plain.answer


def test_what_reason_led_to_is_a_why(answerer: Answerer) -> None:
    got = answerer.ask(
        "What change in product direction led to the AI-driven data anomaly detection PR in ConnectForce being "
        "reverted?"
    )
    assert got.outcome == "unsupported" and got.answer is None


def test_a_ranked_form_for_every_most_row(answerer: Answerer) -> None:
    from kg.qa.intents.loader import table
    from kg.query.sparql import library

    most = [i for i in table()[1] if "most" in i.requires]
    assert most and all(f"{i.query}_ranked" in library() for i in most)


def test_an_item_named_in_a_clause_of_its_own_then_the_others_asked_for(answerer: Answerer) -> None:
    """ "I already have <link> on my list. Which other …": the item named apart and "other" is an exclusion."""
    plain = answerer.ask(PLAIN_APPROVED).answer
    assert isinstance(plain, list) and len(plain) > 1
    got = answerer.ask(
        f"I already have {plain[0]} on my list. Which other approved PRs for integrating predictive analytics in "
        "AnomalyForce are there?"
    )
    assert got.outcome == "answer" and got.answer == plain[1:]


def test_excluding_the_only_answer_leaves_nobody_with_the_proof(answerer: Answerer) -> None:
    only = answerer.ask("Who attended the ExplainabilityForce market research report review?").answer
    assert isinstance(only, list) and only
    got = answerer.ask(
        f"Apart from {', '.join(only)}, who attended the ExplainabilityForce market research report review?"
    )
    if len(only) == 1:
        assert got.outcome == "absent" and got.proof is not None and only[0] in (got.reason or "")
    else:
        assert got.outcome == "uncertain" or got.answer != only


def test_a_feature_phrase_with_a_name_no_feature_holds_is_not_resolved(answerer: Answerer) -> None:
    """ "the Zoom chat summaries integration": "Zoom" is written as a name, and no feature of the product holds
    it, so the phrase names no feature (never the nearest one by its other words)."""
    got = answerer.ask("Which PR rolled back the Zoom chat summaries integration in SummarizeForce?")
    assert got.outcome == "uncertain" and "only partly names" in (got.reason or "")


NEGATED_RESTATEMENTS = {
    # each wording says the plain question's state or relation through a negation
    "Which companies were affected by the Security & Access Control issues in EdgeForce?": (
        "Which companies weren't spared by the Security & Access Control issues in EdgeForce?",
        "Name the companies that didn't escape the Security & Access Control issues in EdgeForce.",
    ),
    "What are the weaknesses of ProposalForce's competitor products?": (
        "What are ProposalForce's competitor products not good at?",
    ),
    "Which approved PRs for improving integration with third-party applications in SearchForce need to be closed?": (
        "Which approved PRs for improving integration with third-party applications in SearchForce still aren't "
        "closed and should be?",
    ),
    "Which engineers authored the most PRs for bug fixes in SearchForce that are now reopened by customers?": (
        "Which engineers authored the most PRs for bug fixes in SearchForce where the bug did not stay closed?",
    ),
}


def test_states_and_relations_said_through_a_negation(answerer: Answerer) -> None:
    for plain_question, wordings in NEGATED_RESTATEMENTS.items():
        plain = answerer.ask(plain_question)
        assert plain.outcome == "answer", plain_question
        for wording in wordings:
            got = answerer.ask(wording)
            assert (got.outcome, got.answer) == ("answer", plain.answer), wording


def test_negated_superlatives_said_around_a_count_are_the_most(answerer: Answerer) -> None:
    """ "No other … beats", "isn't topped by any other", "a count nobody tops": the most, never a number."""
    plain = answerer.ask(PLAIN_MOST)
    for wording in (
        "In ActionGenie, which company's unresolved bug count isn't topped by any other company?",
        "ActionGenie: the company whose unresolved bug count nobody tops?",
        "Which company in ActionGenie has a count of unresolved bugs that no other company beats?",
        "Which company's count of unresolved bugs in ActionGenie isn't topped by any other company?",
        "Which company has reported so many unresolved bugs in ActionGenie that no one else has reported more?",
    ):
        got = answerer.ask(wording)
        assert got.outcome == "answer" and got.answer == plain.answer and got.type != "count", wording


def test_the_askers_doubt_negates_nothing_and_a_negated_approval_is_no_approval(answerer: Answerer) -> None:
    """ "Not sure how approvals work" is no "not approved"; "approval was never granted" is not approved, and
    a negation the reading cannot place keeps the question uncertain."""
    approved = "Find the links to the approved PRs for predictive analytics in ContextForce."
    unapproved = "Find the links to the PRs for predictive analytics in ContextForce that were not approved."
    never = answerer.ask("Links to ContextForce PRs for predictive analytics for which approval was never granted?")
    assert never.outcome == answerer.ask(unapproved).outcome
    assert never.answer == answerer.ask(unapproved).answer
    hedged = answerer.ask(f"Not sure how approvals work here: {approved}")
    assert hedged.answer == answerer.ask(approved).answer


def test_a_repository_is_no_product_and_no_feature(answerer: Answerer) -> None:
    """A product has pull requests in several repositories: "in the owner/X repository" is that repository,
    never the product's whole answer nor a feature whose name shares a word with it ("Salesforce"), and a
    repository no reading can keep to leaves the question uncertain."""
    got = answerer.ask("Which pull requests in the salesforce/CollaborationForce repository are open?")
    assert got.slots.get("repos") == ["salesforce/CollaborationForce"] and "topic" not in got.slots
    assert got.outcome in ("answer", "absent") and "inRepository" in str(got.intent)
    unread = answerer.ask("Which bugs in the salesforce/CollaborationForce repository are still open?")
    assert unread.outcome == "uncertain"


def repo_of(link: str) -> str:
    return link.split("github.com/", 1)[1].rsplit("/pull/", 1)[0]


def test_a_repository_named_as_such_keeps_the_pull_requests_to_it(answerer: Answerer, herb: Path) -> None:
    """ "In the X repo": a product's pull requests are made against several repositories; the most and the
    listings are read among the named one's (computed here from the raw PR records), and a repository names
    its product."""
    prs = json.loads((herb / "products" / "CollaborationForce.json").read_text(encoding="utf-8"))["prs"]
    repo = "salesforce/CollaborationForce"
    approvals: dict[str, int] = {}
    for pr in prs:
        if repo_of(pr["link"]) == repo:
            for login in {r["user"]["login"] for r in pr["reviews"] if r["state"] == "APPROVED"}:
                approvals[login] = approvals.get(login, 0) + 1
    top = sorted(e for e, n in approvals.items() if n == max(approvals.values()))
    got = answerer.ask("Who approved the most pull requests in the CollaborationForce repo, by the review records?")
    assert got.outcome == "answer" and got.answer == top and "repository " + repo in reading(got)
    other = "salesforce/CForceAIX"
    still_open = sorted(p["link"] for p in prs if repo_of(p["link"]) == other and p["state"] == "open")
    listed = answerer.ask("Which pull requests in the CForceAIX repo are still open?")  # the repo names the product
    assert listed.outcome == "answer" and sorted(listed.answer or []) == still_open
    none_open = [p for p in prs if repo_of(p["link"]) == repo and p["state"] == "open"]
    closed = answerer.ask("Which pull requests in the CollaborationForce repo are still open?")
    assert (closed.outcome == "absent") == (not none_open)


def test_yes_or_no_framed_as_a_request_or_by_a_tag_and_an_exclusion_said_twice(answerer: Answerer) -> None:
    """ "Can you confirm whether X was …", "X was one of …, right?" ask yes or no about X; "every … but X" and
    "I already know X …, so except for X, which …" exclude X."""
    plain = answerer.ask(PLAIN_REVIEWERS)
    assert plain.outcome == "answer" and isinstance(plain.answer, list) and len(plain.answer) > 1
    first = plain.answer[0]
    doc = "the Market Research Report for ActionGenie"
    assert answerer.ask(f"Can you confirm whether {first} reviewed {doc}?").answer == "yes"
    assert answerer.ask(f"{first} reviewed {doc}, right?").answer == "yes"
    assert answerer.ask(f"eid_00000000 reviewed {doc}, right?").answer == "no"
    rest = plain.answer[1:]
    assert answerer.ask(f"List everyone but {first} who reviewed {doc}.").answer == rest
    told = answerer.ask(f"I already know {first} reviewed it, so except for {first}, which employees reviewed {doc}?")
    assert told.answer == rest


def test_one_side_of_a_contrast_said_negated_restates_the_other(answerer: Answerer) -> None:
    """ "The weaknesses, not the strengths", "issues (not praise)": the negated side is no cue of its own, and the
    answer is the plain side's, never the negated one's."""
    cases = (
        (
            "Describe where KnowledgeForce's competitor products fall short: the weaknesses, not the strengths.",
            "What are the weaknesses of KnowledgeForce's competitor products?",
        ),
        (
            "FlowForce previous release companies reporting issues (not praise)",
            "Which companies reported issues with the previous release of FlowForce?",
        ),
    )
    for negated, plain in cases:
        got, base = answerer.ask(negated), answerer.ask(plain)
        assert base.outcome == "answer" and (got.outcome, got.answer) == (base.outcome, base.answer), negated
    praised = answerer.ask("Which companies praised the previous release of FlowForce?")
    assert praised.answer != answerer.ask(cases[1][0]).answer


def test_people_asked_for_by_name_are_answered_with_the_names_of_the_plain_answers_people(answerer: Answerer) -> None:
    plain = answerer.ask(PLAIN_LEADS)
    named = answerer.ask(PLAIN_LEADS.replace("Find employee IDs of", "What are the names of the"))
    assert plain.outcome == named.outcome == "answer" and isinstance(plain.answer, list)
    assert named.answer == [plain.people[e]["name"] for e in plain.answer]
    assert set(named.people) == set(plain.answer)  # the ids stay the evidence
    assert "answered with names" in reading(named)
    both = answerer.ask(PLAIN_LEADS.replace("employee IDs", "names and employee IDs"))
    assert both.answer == plain.answer  # names and ids: the ids, shown with their names


def test_the_latest_of_a_list_is_its_newest_item_by_creation_time(answerer: Answerer) -> None:
    plain = answerer.ask("What PRs were opened by eid_8677823a in MonitorForce?")
    latest = answerer.ask("What was the latest PR eid_8677823a opened in MonitorForce?")
    earliest = answerer.ask("What was the earliest PR eid_8677823a opened in MonitorForce?")
    assert plain.outcome == latest.outcome == earliest.outcome == "answer" and isinstance(plain.answer, list)
    assert len(plain.answer) > 1 and latest.operator and earliest.operator
    assert len(latest.answer) == len(earliest.answer) == 1
    assert earliest.operator["created"] < latest.operator["created"]
    assert set(latest.answer) | set(earliest.answer) <= set(plain.answer)


def test_a_negation_inside_a_states_words_is_never_read_as_the_state(answerer: Answerer) -> None:
    merged = "Which ConnectForce PRs for the AI-driven data anomaly detection feature were merged?"
    not_the_plain_answer(answerer, merged.replace("were merged", "were not merged"), merged)


def test_two_things_asked_of_one_titled_bug_are_both_answered(answerer: Answerer) -> None:
    bug = "'Insecure API Key Storage' bug in MonitorForce"
    who, which = answerer.ask(f"Who fixed the {bug}?"), answerer.ask(f"Which PR fixed the {bug}?")
    both = answerer.ask(f"Who fixed the {bug}, and in which PR?")
    assert who.outcome == which.outcome == both.outcome == "answer"
    assert both.answer == [*who.answer, *which.answer] and both.operator and both.operator["kind"] == "and"
    half = answerer.ask(f"Who fixed the {bug}, and why was it slow?")  # one part no reading answers
    assert half.outcome in ("uncertain", "unsupported") and half.answer is None


def test_a_count_of_one_kind_is_never_answered_by_a_reading_of_another(answerer: Answerer) -> None:
    doc = "the VizForce System Design Document"
    assert answerer.ask(f"How many versions of {doc} are there?").answer == "2"
    mixed = answerer.ask(f"How many versions of {doc} are there, and who wrote it?")
    assert mixed.outcome == "uncertain" and "counts documents" in str(mixed.reason)


def test_a_companys_bugs_with_no_state_said_are_its_bugs_in_every_state(answerer: Answerer) -> None:
    def titles(question: str) -> set[str]:
        got = answerer.ask(question)
        assert got.outcome == "answer", got.reason
        return {line.removeprefix("- ") for line in str(got.answer).splitlines()}

    every = titles("Which ActionGenie bugs were reported by TechCorp?")
    open_ = titles("Which unresolved ActionGenie bugs were reported by TechCorp?")
    fixed = titles("Which resolved ActionGenie bugs were reported by TechCorp?")
    assert open_ | fixed <= every and open_ and fixed


def test_the_kind_asked_for_by_whose_and_by_customer_ids(answerer: Answerer) -> None:
    """ "Whose PRs …" asks for people and "which customer IDs …" for customer records: a reading that lists PR
    links or company names does not answer them."""
    whose = answerer.ask("Whose PRs for the UI/UX enhancements in ContextForce were not approved?")
    assert whose.outcome == "uncertain" and "person" in (whose.reason or "")
    ids = answerer.ask("Which customer IDs reported bugs in ActionGenie that were later reopened?")
    assert ids.outcome == "uncertain" and "customer" in (ids.reason or "")
    plain = answerer.ask("Which companies reported bugs in ActionGenie that were later reopened?")
    assert plain.outcome != "uncertain" or "customer" not in (plain.reason or "")


def test_remind_me_is_a_request(answerer: Answerer) -> None:
    plain = answerer.ask("Which companies reported bugs in ActionGenie?")
    got = answerer.ask("Can you remind me which companies reported bugs in ActionGenie?")
    assert plain.outcome == "answer" and (got.outcome, got.answer) == ("answer", plain.answer)


def test_places_and_exclusions_said_in_other_places(answerer: Answerer) -> None:
    """A place said with no ranking word ("second for", "the runner-up in") is the place by the most; an item
    excluded after it is named ("eid_… excepted", "with X excluded"); a role kept by "narrowed to", "counting only"
    or "only the QA folks"; "give me a number" counts."""
    second = answerer.ask("Which engineer resolved the second most customer bugs in FlowForce?")
    assert second.outcome == "answer"
    for wording in ("Who's second for resolved customer bugs in FlowForce?",
                    "Which FlowForce engineer is the runner-up in resolved customer bugs?"):  # fmt: skip
        got = answerer.ask(wording)
        assert (got.outcome, got.answer) == ("answer", second.answer), (wording, got.reason)
    plain = answerer.ask("Which companies reported unresolved bugs in ActionGenie?")
    assert isinstance(plain.answer, list) and len(plain.answer) > 1
    left = plain.answer[0]
    got = answerer.ask(f"Which companies reported unresolved bugs in ActionGenie, with {left} excluded?")
    assert got.answer == plain.answer[1:]
    got = answerer.ask(f"Which companies reported unresolved bugs in ActionGenie, {left} excepted?")
    assert got.answer == plain.answer[1:]
    pair = "Authors and key reviewers of the Market Research Report for ActionGenie"
    kept = answerer.ask(f"{pair}, but only the Engineering Leads among them?")
    for wording in (f"{pair}, narrowed to the Engineering Leads.", f"{pair}, counting only Engineering Leads."):
        got = answerer.ask(wording)
        assert kept.outcome == "answer" and (got.outcome, got.answer) == ("answer", kept.answer), wording
    counted = answerer.ask(f"Give me a number: {PLAIN_REVIEWERS.rstrip('?')}")
    listed = answerer.ask(PLAIN_REVIEWERS)
    assert isinstance(listed.answer, list) and counted.answer == str(len(listed.answer))


def test_words_that_change_what_is_asked_in_less_usual_places(answerer: Answerer) -> None:
    """ "# of" counts; "name (not eid)" asks for names, which a row of employee ids does not give; "who assigned
    the <component> bugs" is not who resolved them; a clause naming another document kind ("… who did not attend
    the Technical Specifications review") is never taken for the scene."""
    listed = answerer.ask("Find the demo URLs shared by team members for ProposalForce's competitor products?")
    counted = answerer.ask("# of demo URLs shared by team members for ProposalForce's competitor products")
    assert isinstance(listed.answer, list) and counted.answer == str(len(listed.answer))
    eids = answerer.ask("Which FlowForce engineer resolved the most customer bugs?")
    named = answerer.ask("name (not eid) of the FlowForce engineer who resolved the most customer bugs")
    assert isinstance(eids.answer, list) and named.answer == sorted(eids.people[e]["name"] for e in eids.answer)
    for wording in (
        "Who assigned the SupportForce Security Module bugs that were later resolved?",
        "Which attendees of the ActionGenie Market Research Report review did not attend the Technical "
        "Specifications review?",
    ):
        got = answerer.ask(wording)
        assert got.outcome == "uncertain", (wording, got.answer)


def test_approvals_in_a_named_repository(answerer: Answerer) -> None:
    """ "Reviews with state APPROVED in the X repository" are its PRs' approvals; a place or a comparison over
    them needs ranked rows the repository does not keep, so it is uncertain, never the product's ranking."""
    top = answerer.ask("Who approved the most PRs in the TrendForce repo?")
    said = answerer.ask(
        "In the salesforce/TrendForce repository, which reviewer submitted the most reviews with state APPROVED?"
    )
    assert top.outcome == "answer" and (said.outcome, said.answer) == ("answer", top.answer)
    second = answerer.ask("In the salesforce/TrendForce repository, who submitted the second-most APPROVED reviews?")
    assert second.outcome == "uncertain" and "repository" in (second.reason or "")


def test_a_window_of_creation_keeps_the_items_made_in_it(answerer: Answerer) -> None:
    """ "Opened in April 2026": the items created in the window, by their creation times; none left is absent,
    each item's time the proof; a window of another event ("merged in 2024") or of items with no creation time
    (companies) is uncertain."""
    plain = answerer.ask("Which approved PRs for the integration with third-party systems in TrendForce?")
    assert plain.outcome == "answer" and len(plain.answer) > 1
    april = answerer.ask(
        "Which approved PRs for the integration with third-party systems in TrendForce were opened in April 2026?"
    )
    assert april.outcome == "answer" and 0 < len(april.answer) < len(plain.answer)
    assert set(april.answer) <= set(plain.answer)
    created = april.operator["created"]
    assert all(created[x].startswith("2026-04") for x in april.answer)
    assert all(not created[x].startswith("2026-04") for x in plain.answer if x not in april.answer)
    none = answerer.ask(
        "Which approved PRs for the integration with third-party systems in TrendForce were opened in 2023?"
    )
    assert none.outcome == "absent" and none.proof and "created" in none.proof["result"]
    merged = answerer.ask(
        "Which PRs for enhancing natural language processing capabilities in SearchForce needed to be merged in 2024?"
    )
    assert merged.outcome == "uncertain"
    companies = answerer.ask("Which companies reported issues with the previous release of ContextForce during 2023?")
    assert companies.outcome == "uncertain"


def test_an_exclusion_from_a_written_list_leaves_the_other_titles(answerer: Answerer) -> None:
    """Bug titles are a written list, one a line: "other than '<title>'" drops that line, never the whole list
    (was: an empty list)."""
    plain = answerer.ask("What AutoTuneForce bugs did FusionTech report?")
    got = answerer.ask("Other than 'Log Entry Duplication', what other AutoTuneForce bugs did FusionTech report?")
    assert plain.outcome == "answer" and "- Log Entry Duplication" in plain.answer
    assert got.outcome == "answer" and got.answer == "- Log Truncation During High Load"
    assert got.operator["excluded"] == 1


def test_after_the_top_n_passes_over_those_n_items(answerer: Answerer) -> None:
    """ "After the top two, who is next": the first after the two top items, when they stand apart from the rest;
    a cut inside a tie is uncertain."""
    got = answerer.ask(
        "After the top two, which engineers are assigned the next-highest number of active bugs in TrendForce?"
    )
    ranked = got.operator["ranked"]
    assert got.outcome == "answer" and ranked[0][1] == ranked[1][1] > ranked[2][1]
    assert got.answer == sorted(a for a, n in ranked if n == ranked[2][1])
    tied = answerer.ask("After the top three, which engineers are assigned the most active bugs in TrendForce?")
    assert tied.outcome == "uncertain"


def test_a_negated_comparison_with_everyone_else_is_a_fewest(answerer: Answerer) -> None:
    """ "No more unresolved bugs than any other company" is the fewest, not the most ("no other company has
    more" is the most)."""
    fewest = answerer.ask(
        "Which companies that reported EdgeForce bugs have no more unresolved bugs than any other reporting company?"
    )
    most = answerer.ask("No other company has more unresolved bugs in EdgeForce than which one?")
    assert fewest.outcome == most.outcome == "answer"
    ranked = dict(fewest.operator["ranked"])
    assert all(ranked[a] == min(ranked.values()) for a in fewest.answer)
    assert not set(fewest.answer) & set(most.answer)


def test_a_share_or_ratio_is_unsupported(answerer: Answerer) -> None:
    """No intent computes a share: never the list of the items it would be a share of."""
    for question in (
        "What share of TrendForce customer bugs ended up reopened?",
        "For integrating predictive analytics in AnomalyForce, what's the ratio of approved PRs to unapproved ones?",
    ):
        got = answerer.ask(question)
        assert got.outcome == "unsupported" and "share or ratio" in (got.reason or ""), question
    assert answerer.ask("Who shared demos of competitor products in AnomalyForce?").outcome == "answer"


def test_approvals_someone_has_may_be_given_or_received(answerer: Answerer) -> None:
    """ "Who has the most PR approvals" says neither the approver nor the author: uncertain. A reviewer asked
    for, or approvals given or received, says which."""
    for question in (
        "Who has the most PR approvals on CollaborateForce?",
        "Who's second in PR approvals on PersonalizeForce?",
    ):
        assert answerer.ask(question).outcome == "uncertain", question
    reviewer = answerer.ask("Which reviewer has the most PR approvals on CollaborateForce?")
    gave = answerer.ask("Who gave the most PR approvals on CollaborateForce?")
    received = answerer.ask("Which engineer has received the most PR approvals on CollaborateForce?")
    assert reviewer.intent == gave.intent == "pr_top_approver" and reviewer.answer == gave.answer
    assert received.intent == "pr_top_author"


def test_a_component_a_ranking_does_not_read_is_never_dropped(answerer: Answerer) -> None:
    """A component named in a clause before the question ("In the Access Control & Security Module of X, which
    companies …") narrows what is asked; a row that reads no component is uncertain, naming it."""
    got = answerer.ask(
        "In the Access Control & Security Module of ProposalForce, which companies have the most active bugs?"
    )
    assert got.outcome == "uncertain" and "access control security module" in (got.reason or "")
    looking = answerer.ask(
        "Just looking at the API Gateway component, which engineer resolved the most customer bugs in SupportForce?"
    )
    assert looking.outcome == "uncertain"
    feature = answerer.ask(
        "Could you provide the links to the approved PRs for enhancing the user interface in SearchForce that need "
        "to be closed?"
    )
    assert feature.outcome == "answer"  # a feature's phrase may hold a component's words


def test_the_author_of_the_most_prs_in_a_state(answerer: Answerer) -> None:
    """ "Who authored the most merged PRs": PRs counted in the state asked, by their author; its place and
    fewest are read from the same counts (every PR's author is everyone a fewest is read among)."""
    got = answerer.ask("Who authored the most merged pull requests in CollaborateForce?")
    assert got.intent == "pr_author_max_state" and got.answer == ["eid_76d9cb07"]
    second = answerer.ask("Who authored the second most merged PRs in CollaborateForce?")
    ranked = second.operator["ranked"]
    assert second.outcome == "answer" and "eid_76d9cb07" not in second.answer
    assert all(n < ranked[0][1] for a, n in ranked if a in second.answer)
    fewest = answerer.ask("Of the engineers who opened PRs in FeedbackForce, who has the fewest merged PRs?")
    assert fewest.outcome == "answer" and all(n == 0 for a, n in fewest.operator["ranked"] if a in fewest.answer)
    # said with no set it is read among: of everyone (none) and of those with any differ, so it is not read
    unsaid = answerer.ask("Which engineer has the fewest merged PRs on FeedbackForce?")
    assert unsaid.outcome == "uncertain" and "have none" in (unsaid.reason or "")
    assert answerer.ask("Who opened the most PRs in TrendForce?").intent == "pr_author_max"


def test_when_asks_a_time_no_list_answers(answerer: Answerer) -> None:
    """ "When was the first … PR opened?" asks a time: a row answering PR links is uncertain, never the links."""
    for question in (
        "When was the first automated scaling PR in TrendForce that didn't get approved opened?",
        "When was the ConnectForce anomaly detection PR that was reverted for introducing bugs opened?",
    ):
        got = answerer.ask(question)
        assert got.outcome == "uncertain" and "asks for a time" in (got.reason or ""), question


def test_reasons_asked_are_why(answerer: Answerer) -> None:
    got = answerer.ask("what were the reviewers' reasons for rejecting the security-measures PRs in AnomalyForce?")
    assert got.outcome == "unsupported" and "why or how" in (got.reason or "")


def test_the_number_of_the_kind_a_ranking_answers_is_a_count(answerer: Answerer) -> None:
    """ "Number of companies tied for the most …": how many top the ranking, not their names; the count of a
    measure ("whose count of unapproved PRs is highest") stays the most."""
    tied = answerer.ask("Number of companies tied for the most unresolved bugs in ActionGenie?")
    most = answerer.ask("Which companies have the most unresolved bugs in ActionGenie?")
    assert most.outcome == "answer" and tied.outcome == "answer"
    assert str(tied.answer) == str(len(most.answer))
    measure = answerer.ask("the engineer whose count of unapproved PRs is highest in AnomalyForce")
    assert measure.outcome == "answer" and isinstance(measure.answer, list)


def test_a_negated_state_inside_a_describing_clause_is_read(answerer: Answerer) -> None:
    """ "approved … PRs that are not merged" narrows the approved ones: no row reads it, so uncertain, never the
    approved PRs; a negated state the question says again plainly ("not merged so far and still need to be
    merged") is read."""
    got = answerer.ask("approved database optimization PRs in ContextForce that are not merged")
    assert got.outcome == "uncertain" and "'not'" in (got.reason or "")
    again = answerer.ask(
        "links to the ConnectForce AI-driven data anomaly detection PRs that are not merged so far and still need "
        "to be merged"
    )
    assert again.outcome == "answer" and again.intent == "pr_to_merge"


def test_two_components_named_are_not_one(answerer: Answerer) -> None:
    """ "Who fixed the X issue and also the Y freeze": the row reads one component; the other is named whole, so
    the reading is uncertain, naming it. An effect clause naming no component whole stays one reading."""
    got = answerer.ask(
        "Who fixed the API Security & Access Control issue in ActionGenie and also the User Interface & Frontend "
        "Performance freeze?"
    )
    assert got.outcome == "uncertain" and "user interface frontend performance" in (got.reason or "")
    one = answerer.ask(
        "What is the employee ID of engineers who resolved the database performance issues in AnomalyForce that "
        "were causing delays in anomaly detection results and reducing system effectiveness?"
    )
    assert one.outcome == "answer"


def test_exclusions_of_the_negative_state_keep_the_positive(answerer: Answerer) -> None:
    """ "exclude any PR that was not approved", "Not the ones that weren't - just the approved links": the
    approved PRs, as the plain question answers."""
    plain = answerer.ask("Can you provide links to the approved PRs for expanding security measures in AnomalyForce?")
    for question in (
        "Provide links to the approved PRs for expanding security measures in AnomalyForce; exclude any PR that was "
        "not approved.",
        "Which AnomalyForce PRs for expanding security measures did get approved? Not the ones that weren't - just "
        "the approved links.",
    ):
        got = answerer.ask(question)
        assert got.outcome == "answer" and sorted(got.answer) == sorted(plain.answer), question


def test_not_added_then_made_it_in_is_delayed(answerer: Answerer) -> None:
    """ "weren't added because …, but did eventually make it in" is the delayed-then-added question, never the
    features that could not be added."""
    dropped = answerer.ask("What features could not be added to FlowForce due to change in product direction?")
    for question in (
        "Which FlowForce features weren't added on time because the product direction changed, but did eventually "
        "make it in?",
        "Which FlowForce features weren't added because the product direction changed, but did eventually make it in?",
    ):
        got = answerer.ask(question)
        assert got.intent == "feature_delayed" and got.answer != dropped.answer, question
