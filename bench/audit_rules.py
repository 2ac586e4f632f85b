"""Audit of the PR and feature evidence rules on every HERB product (the artifacts, never the questions).

    python bench/audit_rules.py            # print the audit as Markdown
    python bench/audit_rules.py --write    # and replace the audit sections of docs/rules/prs.md, features.md

For each rule it counts the items the rule classifies on all 30 products, how many fall under each reading,
and where two readings disagree, with examples:
- PR topic: the pending task assigned to the PR's author in the last sprint review before it (the rule) vs
  the review part its title words match best, vs "every PR of the engineer's first feature";
- to merge / to close / reverted: the PR states the rules and queries use;
- why a PR was dropped: the develop thread (the rule) vs the revert PR's title vs the PR's own summary;
- planning meetings: which listing style names the features, and the cue-only reading's discussed features.

    python bench/audit_rules.py --before REV [--write]   # and the readings audit against the rules at REV

With `--before REV`, every product's readings (which feature each PR implements and the feature's keywords, each
bug's component, assignee, fixing PRs and lifecycle, who a document meeting's review and suggestions name, who is
responsible for a discussed feature) are read from the graph the rules write, once with the rules here and once
with the rules at git revision REV (run from an exported copy of that revision's `kg/`), and compared item by
item: per pattern, how many items the rules place and how many changed, with every change listed
(docs/rules/readings.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict
from io import BytesIO
from pathlib import Path

from kg.ingest.herb import load_organisation, load_product, product_names
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.features import (
    assigned_segment,
    dev_meetings,
    feature_tracks_of,
    is_assigned,
    listed_topics,
    person_name_words,
    planning_topics,
    pr_assignments,
    review_labels,
    review_segments,
    review_task_words,
    spoken_lines,
)
from kg.ingest.rules.prs import PR_NUMBER, develop_conversations, reason_of, team_prs, thread_reason
from kg.namespaces import ID, expand, term
from kg.text import feature_tokens

ROOT = Path(__file__).resolve().parent.parent
HERB = Path(__import__("os").environ.get("HERB_DATA", ROOT.parent / "shared" / "herb"))
BEGIN, END = "<!-- audit:begin (bench/audit_rules.py --write) -->", "<!-- audit:end -->"
EXAMPLES = 12


def table(head: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def total_row(rows: list[list[object]]) -> list[object]:
    """A 'total' row summing every integer column."""
    return ["**total**"] + [
        sum(r[i] for r in rows) if all(isinstance(r[i], int) for r in rows) else "" for i in range(1, len(rows[0]))
    ]


def topic_audit(ctx: RuleContext) -> tuple[list[object], list[str]]:
    """PR-topic counts of one product, and examples where the readings disagree."""
    reviews = dev_meetings(ctx)[1:]
    assignments = pr_assignments(ctx, reviews)
    tracks = feature_tracks_of(assignments)
    feature_of = {pr.number: i for i, t in enumerate(tracks) for pr, _ in t.tasks}
    hows = Counter(how for *_, how in assignments)
    names = person_name_words(ctx)
    by_title, examples = 0, []
    for pr, review, seg, _how in assignments:
        if review is None or seg is None:
            continue
        title_seg, _ = assigned_segment(review_segments(review, names), None, pr)
        if title_seg is not None and title_seg.label != seg.label:
            by_title += 1
            examples.append(
                f"{ctx.product.name} #{pr.number} '{pr.title}': author's part '{seg.label}', "
                f"title words' part '{title_seg.label}'"
            )
    first: dict[str, int] = {}
    for pr, *_ in assignments:
        first.setdefault(pr.author, feature_of[pr.number])
    by_engineer = sum(feature_of[pr.number] != first[pr.author] for pr, *_ in assignments)
    two = sum(len({feature_of[p.number] for p, *_ in assignments if p.author == a}) > 1 for a in first)
    row = [
        ctx.product.name,
        len(assignments),
        len(tracks),
        hows["author"],
        hows["author+title"],
        hows["title"],
        hows["none"],
        by_title,
        by_engineer,
        two,
    ]
    return row, examples


def decisions(ctx: RuleContext) -> dict[int, str]:
    """PR number -> decision kind (reverted / held / merge-later) the PR rules derive."""
    out = {}
    kind = term("ekg:decisionKind")
    for quad in run_rules(ctx, ["pr-revert", "pr-decision"]):
        if quad.predicate == kind:
            number, _, k = quad.subject.value.rsplit("/", 1)[1].partition("-")
            out[int(number)] = k
    return out


def state_audit(ctx: RuleContext, decided: dict[int, str]) -> list[object]:
    """To merge / to close / reverted counts of one product's team PRs."""
    prs = [p for p in team_prs(ctx).values() if p.reverts is None]
    is_open = {p.number: str(p.rec.get("state", "")).casefold() == "open" for p in prs}
    to_merge = [p for p in prs if is_open[p.number] and not p.merged and p.approved and decided.get(p.number) != "held"]
    closed_approved = [p for p in prs if not is_open[p.number] and not p.merged and p.approved]
    return [
        ctx.product.name,
        len(prs),
        len(to_merge),
        len(closed_approved),
        sum(k == "held" for k in decided.values()),
        sum(k == "reverted" for k in decided.values()),
        sum(k == "merge-later" for k in decided.values()),
    ]


def reason_audit(ctx: RuleContext) -> tuple[list[object], list[str], list[str]]:
    """Why dropped PRs were dropped: thread vs revert title vs PR summary, with examples."""
    prs = team_prs(ctx)
    reverters = {p.reverts: p for p in prs.values() if p.reverts is not None and p.reverts in prs}
    counts: Counter[str] = Counter()
    examples, security = [], []
    for run in develop_conversations(ctx):
        opening = PR_NUMBER.search(run[0].text)
        target = prs.get(int(opening.group(1))) if opening else None
        if target is None or target.reverts is not None:
            continue
        kind = "reverted" if target.number in reverters else "held" if target.approved and not target.merged else None
        if kind is None:
            continue
        thread = thread_reason(run)
        counts[kind] += 1
        counts[f"thread {thread}"] += 1
        counts["from replies"] += reason_of(run[0].text) is None
        summary = reason_of(target.title + " " + str(target.rec.get("summary", "")))
        if kind == "reverted":
            revert = reverters[target.number]
            title = reason_of(revert.title + " " + str(revert.rec.get("summary", "")))
            if title and title != thread:
                counts["revert title differs"] += 1
                examples.append(
                    f"{ctx.product.name} #{target.number}: thread says {thread}; revert '{revert.title}' reads {title}"
                )
        if summary and summary != thread:
            counts["summary differs"] += 1
            if summary == "SecurityRisk":
                security.append(f"{ctx.product.name} #{target.number} '{target.title}' ({kind}): thread says {thread}")
    row = [
        ctx.product.name,
        counts["reverted"],
        counts["held"],
        counts["thread SecurityRisk"],
        counts["thread ProductDirectionChange"],
        counts["thread IntroducedBugs"],
        counts["thread None"],
        counts["from replies"],
        counts["revert title differs"],
        counts["summary differs"],
    ]
    return row, examples, security


def planning_audit(ctx: RuleContext) -> tuple[list[object], list[str]]:
    """Listing style of the planning meeting, features named, discussed ones, and the cue-only reading's."""
    meetings = dev_meetings(ctx)
    lines = spoken_lines(meetings[0])
    task_lines, labels = review_task_words(meetings[1:]), review_labels(ctx, meetings[1:])
    style, topics = listed_topics(lines)

    def unassigned(found: list[tuple[str, int, int]], listed: bool) -> list[str]:
        return [
            n
            for n, a, b in found
            if not is_assigned(
                n, task_lines, labels if listed else [], " ".join(t for _, t in lines[a:b]) if listed else ""
            )
        ]

    discussed = unassigned(topics, style != "cue")
    cue_only = unassigned(planning_topics(lines), False)
    differs = {tuple(sorted(map(str.casefold, discussed)))} != {tuple(sorted(map(str.casefold, cue_only)))}
    note = (
        [f"{ctx.product.name} ({style}): rule {discussed or 'none'}; cue-only {cue_only or 'none'}"] if differs else []
    )
    return [
        ctx.product.name,
        style,
        len(topics),
        len(discussed),
        "; ".join(discussed) or "-",
        "yes" if differs else "",
    ], note


def audit(herb: Path) -> dict[str, str]:
    """The audit's Markdown, by docs page."""
    org = load_organisation(herb)
    topics, states, reasons, plans = [], [], [], []
    topic_ex, reason_ex, security_ex, plan_ex = [], [], [], []
    for name in product_names(herb):
        product = load_product(herb, name)
        row, ex = topic_audit(RuleContext(product, org))
        topics.append(row)
        topic_ex += ex
        ctx = RuleContext(product, org)
        states.append(state_audit(ctx, decisions(ctx)))
        row, ex, sec = reason_audit(RuleContext(product, org))
        reasons.append(row)
        reason_ex += ex
        security_ex += sec
        row, ex = planning_audit(RuleContext(product, org))
        plans.append(row)
        plan_ex += ex
    bullets = lambda items: "\n".join(f"- {i}" for i in items[:EXAMPLES]) or "- none"  # noqa: E731
    prs = "\n\n".join(
        [
            "### Which PRs belong to a topic (rule `feature-tracks`)",
            "Columns: team PRs (revert PRs excluded), features derived, how each PR's assigning review part was "
            "found (`author`: one part gives the task to its author; `author+title`: several name the author "
            "equally, the PR's title words pick; `title`: no part names the author; `none`: the review has no "
            "labelled part, so the PR follows its task's title or its author's latest feature), PRs whose part "
            "differs when read by title words alone, PRs whose feature differs from their engineer's first feature "
            "('every PR of that engineer'), engineers holding two topics or more.",
            table(
                [
                    "product",
                    "PRs",
                    "features",
                    "author",
                    "author+title",
                    "title",
                    "none",
                    "≠ by title",
                    "≠ by engineer",
                    "engineers with 2+ topics",
                ],
                [*topics, total_row(topics)],
            ),
            f"Examples where the title words name another part ({sum(r[7] for r in topics)} in all):",
            bullets(topic_ex),
            "### To merge, to close, reverted",
            "Columns: team PRs (revert PRs excluded); **to merge** (open, not merged, an APPROVED review, not held); "
            "approved PRs closed without merging (never to merge); **to close** (held: approved, not merged, a "
            "develop thread on it); **reverted** (a 'Revert PR# N' exists); merge-later (delayed) decisions.",
            table(
                [
                    "product",
                    "PRs",
                    "to merge",
                    "closed unmerged approved",
                    "to close (held)",
                    "reverted",
                    "merge-later",
                ],
                [*states, total_row(states)],
            ),
            "### Why a PR was dropped (rule `pr-decision`)",
            "Columns: reverted and held PRs with a develop thread; the reason the thread gives (opener, else the "
            "next 3 replies); how many needed the replies; where the revert PR's title/summary reads another reason; "
            "where the PR's own title/summary reads another reason.",
            table(
                [
                    "product",
                    "reverted",
                    "held",
                    "security",
                    "direction",
                    "bugs",
                    "no reason",
                    "from replies",
                    "≠ revert title",
                    "≠ PR summary",
                ],
                [*reasons, total_row(reasons)],
            ),
            f"Revert titles that read another reason than the thread ({sum(r[8] for r in reasons)}):",
            bullets(reason_ex),
            f"Security PRs dropped for another reason (the case dev cannot show; {len(security_ex)}):",
            bullets(security_ex),
        ]
    )
    features = "\n\n".join(
        [
            "### Planning meetings: listing styles and discussed features (rule `feature-discussed`)",
            "Columns: the style that names the features (`list`: 'We have N main tasks: a, b and c'; `ordinal`: "
            "'First, … Second, …'; `numbered`: '1. … 2. …'; `cue`: topic cues only), features named, those no "
            "sprint review assigns (discussed, not implemented), and whether the cue-only reading finds others.",
            table(["product", "style", "features", "discussed", "discussed features", "cue-only differs"], plans),
            "Styles: "
            + ", ".join(f"{s} {n}" for s, n in Counter(r[1] for r in plans).most_common())
            + f"; products with a discussed feature: {sum(r[3] > 0 for r in plans)} of {len(plans)}.",
            f"Where the cue-only reading disagrees ({len(plan_ex)}):",
            bullets(plan_ex),
        ]
    )
    return {"docs/rules/prs.md": prs, "docs/rules/features.md": features}


# --- readings against another revision's rules ---------------------------------------------------------------
#: Each pattern of docs/rules/readings.md: the readings it changes, and what an item of them is.
PATTERNS = [
    ("R1/R2", "feature", "feature-tracks: which feature each team PR implements (by the words of its name)"),
    ("R3", "keywords", "feature-tracks: the keywords a question may name a feature by (per feature label)"),
    ("R4/R5", "component", "bug-components: the component each bug affects"),
    ("R6", "assignee", "bug-reports / bug-lifecycle: each bug's assignee"),
    ("R6", "lifecycle", "bug-lifecycle: each bug's events, state and fixing PRs"),
    ("R7", "review", "document-meetings / document-suggestions: who a meeting's review and suggestions name"),
    ("R8", "responsible", "feature-discussed: who is responsible for each discussed feature"),
]


def short(iri: str) -> str:
    return iri.removeprefix(ID).rsplit("/", 1)[-1]


def readings(herb: Path) -> dict[str, dict[str, dict[str, str]]]:
    """product -> reading -> item -> value (a string), read from the quads every rule writes."""
    org = load_organisation(herb)
    out = {}
    for name in product_names(herb):
        product = load_product(herb, name)
        quads = run_rules(RuleContext(product, org))
        by: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for q in quads:
            by[q.predicate.value][q.subject.value].append(getattr(q.object, "value", str(q.object)))
        label = {s: v[0] for s, v in by[expand("skos:prefLabel")].items()}
        feature: dict[str, str] = {}  # a feature by its name's words ("expand CRM …" = "expanding CRM …")
        for f, prs in by[expand("ekg:implementedBy")].items():
            words = " ".join(dict.fromkeys(feature_tokens(label.get(f, short(f)))))
            for pr in prs:
                feature[f"#{short(pr).rsplit('_', 1)[1]}"] = words
        bugs = {s for s, v in by[expand("rdf:type")].items() if expand("ekg:Bug") in v}
        lifecycle = defaultdict(list)
        for event, (bug,) in by[expand("ekg:eventOf")].items():
            kind = next(iter(by[expand("ekg:eventKind")].get(event, ["?"])))
            seq = int(next(iter(by[expand("ekg:sequence")].get(event, ["0"]))))
            agent = short(next(iter(by[expand("ekg:agent")].get(event, ["-"]))))
            lifecycle[bug].append((seq, f"{kind}:{agent}"))
        meetings = {str(r["id"]) for r in product.artifacts.get("meeting_transcripts", [])}
        reviews = {}
        for review in by[expand("ekg:reviewedDocument")]:
            if short(review) in meetings:  # Slack discussions are keyed by their opening message instead
                reviews[short(review)] = " ".join(sorted({short(p) for p in by[expand("ekg:reviewedBy")][review]}))
        for sug in by[expand("ekg:suggestionOn")]:
            meeting, _, index = sug.removeprefix(f"{ID}suggestion/{name}/").rpartition("/")
            if meeting in meetings:
                who = " ".join(short(p) for p in by[expand("ekg:suggestedBy")].get(sug, []))
                reviews[f"{meeting} suggestion {index}"] = who
        discussed = {s for s, v in by[expand("ekg:featureStatus")].items() if expand("ekg:Discussed") in v}
        out[name] = {
            "feature": feature,
            "keywords": {
                label.get(f, short(f)): " ".join(sorted(by[expand("ekg:keyword")].get(f, [])))
                for f in by[expand("ekg:implementedBy")]
            },
            "component": {
                short(b): next(iter(label.get(c) for c in by[expand("ekg:affectsComponent")].get(b, [])), "-") or "-"
                for b in bugs
            },
            "assignee": {short(b): " ".join(short(p) for p in by[expand("ekg:assignedTo")].get(b, [])) for b in bugs},
            "lifecycle": {
                short(b): " ".join(k for _, k in sorted(lifecycle[b]))
                + " | fixed by "
                + " ".join(sorted(short(p) for p in by[expand("ekg:fixedBy")].get(b, [])))
                for b in bugs
            },
            "review": reviews,
            "responsible": {
                label.get(f, short(f)): " ".join(sorted(short(p) for p in by[expand("ekg:responsible")].get(f, [])))
                for f in discussed
            },
        }
    return out


def readings_at(rev: str, herb: Path) -> dict[str, dict[str, dict[str, str]]]:
    """The readings of the rules at git revision `rev`: its `kg/` exported to a scratch folder and run there."""
    listed = subprocess.run(["git", "ls-tree", "--name-only", rev, "kg"], cwd=ROOT, capture_output=True, text=True)
    if not listed.stdout.strip():
        sys.exit(f"audit_rules: revision {rev} has no kg/ package (it was named ekg before); pick a later one")
    archive = subprocess.run(["git", "archive", rev, "kg"], cwd=ROOT, check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        dump = Path(tmp) / "readings.json"
        env = {**os.environ, "PYTHONPATH": tmp}
        cmd = [sys.executable, str(Path(__file__).resolve()), "--herb", str(herb), "--dump", str(dump)]
        subprocess.run(cmd, env=env, check=True, cwd=tmp)
        return json.loads(dump.read_text())


def readings_audit(before: dict, after: dict, rev: str) -> str:
    """Per pattern: items placed (with the rules here), items changed against `rev`, per product and in all,
    and every change."""
    parts = [
        f"Readings compared with the rules at `{rev}` (`python bench/audit_rules.py --before {rev}`): an item is "
        "placed when the rules here give it a reading, changed when that reading differs from the one the rules "
        "at that revision give. Every change is listed; the ones checked against the artifacts are discussed "
        "above the audit.",
    ]
    for pattern, key, what in PATTERNS:
        rows, changes = [], []
        for product in sorted(after):
            new, old = after[product].get(key, {}), before.get(product, {}).get(key, {})
            placed = sum(1 for v in new.values() if v not in ("", "-"))
            changed = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k))
            rows.append([product, placed, len(changed)])
            changes += [f"{product} `{k}`: {old.get(k, '(none)')} → {new.get(k, '(none)')}" for k in changed]
        parts += [
            f"### {pattern}: {what}",
            table(["product", "placed", "changed"], [*rows, total_row(rows)]),
            f"Changes ({len(changes)}):",
            "\n".join(f"- {c}" for c in changes) or "none",
        ]
    return "\n\n".join(parts)


def write(
    page: Path, body: str, markers: tuple[str, str] = (BEGIN, END), title: str = "Audit on all 30 products"
) -> None:
    """Replace the page's audit section (between the markers), or append one."""
    text = page.read_text() if page.exists() else ""
    begin, end = markers
    section = f"{begin}\n## {title}\n\n{body}\n{end}"
    if begin in text:
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    page.write_text(text)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--herb", type=Path, default=HERB)
    parser.add_argument("--write", action="store_true", help="replace the audit sections of the docs pages")
    parser.add_argument("--before", metavar="REV", help="also compare every reading with the rules at git REV")
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)  # readings as JSON (run by --before)
    args = parser.parse_args(argv)
    if args.dump:
        args.dump.write_text(json.dumps(readings(args.herb)))
        return 0
    pages = audit(args.herb)
    if args.before:
        pages["docs/rules/readings.md"] = readings_audit(
            readings_at(args.before, args.herb), readings(args.herb), args.before
        )
    for path, body in pages.items():
        print(body, end="\n\n")
        if args.write:
            write(ROOT / path, body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
