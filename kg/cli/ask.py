"""`kg ask`: answer a question (or a JSONL batch) with citations, or abstain with a proof."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from pathlib import Path
from typing import IO

from kg.cli import (
    DEFAULT_JOBS,
    add_backend_options,
    add_deployment_option,
    add_force_option,
    add_jobs_option,
    add_what_if_options,
    open_args_backend,
)
from kg.cli.output import refuse_bad_jobs, refuse_together, refuse_unused
from kg.errors import KGError
from kg.paths import index_dir, open_output, output_path, store_path
from kg.qa.answer import Answer, Answerer, Fallback
from kg.qa.plain import reading
from kg.qa.textcheck import TextChecker
from kg.query.people import shown_value
from kg.query.sparql import Backend
from kg.text import plural

MAX_SHOWN_CITATIONS = 20


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ask",
        help="answer a question with citations, or abstain with a proof",
        description="Answer a question with citations, or abstain with a proof. An uncertain reading (the "
        "question's words fit no reading completely) offers readings as canonical questions; --pick N asks one "
        "of them.",
        epilog="exit status by outcome: 0 answered, 0 proved absent (the proof is an answer), 3 uncertain "
        "reading, 4 unsupported (no intent covers the wording, or it names no product), 2 error. An invalid "
        "question (empty, not text, naming two products apart, with no 'both', 'or' or 'across' joining them) "
        "and an endpoint failure are errors, never "
        "abstentions; in --batch they become error records. A batch exits with its worst outcome: 2 if any "
        "line got an error record, else 4 if any was unsupported, else 3 if any was uncertain, else 0.",
    )
    p.add_argument("question", nargs="?", help="the question; - reads it from standard input (omit with --batch)")
    add_backend_options(p)
    add_deployment_option(p)
    p.add_argument("--batch", metavar="IN.jsonl", help='answer every {"question": …} line of this file')
    p.add_argument("--out", metavar="OUT.jsonl", help="with --batch: where to write answers (default: stdout)")
    add_jobs_option(
        p,
        f"with --batch: answer in N worker processes, output in input order (default: {DEFAULT_JOBS})",
        default=None,
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="show how the question was read (cues, competing intents, free phrase) and the SPARQL that ran",
    )
    p.add_argument("--json", action="store_true", help="print the answer object as JSON")
    p.add_argument(
        "--pick",
        type=int,
        metavar="N",
        help="when the reading is uncertain, ask the N-th reading it offers (1 = the first)",
    )
    p.add_argument("--graph", metavar="OUT.svg", help="also draw the evidence subgraph as SVG (needs Graphviz)")
    p.add_argument(
        "--fallback",
        action="store_true",
        help="for questions no intent covers, answer with evidence sentences from `kg search` "
        "(needs `kg index`); off by default: without it such questions abstain",
    )
    p.add_argument(
        "--text-index",
        metavar="STORE",
        help="with --endpoint or --deployment: check each proof of absence against the search index `kg index` "
        "wrote beside this local store (a local store's own index is used without it; with neither, a proof "
        "says its text check could not run)",
    )
    add_what_if_options(p)
    add_force_option(p)
    p.set_defaults(func=run)


def fallback(args: argparse.Namespace) -> Fallback | None:
    if not args.fallback:
        return None
    if args.endpoint or args.deployment:
        given = "--endpoint" if args.endpoint else "--deployment"
        raise KGError(f"--fallback searches the local index; it cannot be combined with {given}")
    from kg.qa.fallback import search_fallback
    from kg.search.searcher import Searcher

    return search_fallback(Searcher(store_path(args.store)))


def open_answerer(args: argparse.Namespace) -> Answerer:
    backend = open_args_backend(args)
    return Answerer(backend, fallback=fallback(args), texts=text_checker(args, backend))


def text_checker(args: argparse.Namespace, backend: Backend) -> TextChecker | None:
    """The local search index proofs are checked against when the graph is read over the network: its store
    must have been indexed (`kg index`), which is said before any question runs."""
    if not getattr(args, "text_index", None):
        return None
    if not (args.endpoint or args.deployment):
        raise KGError("--text-index is for --endpoint or --deployment: a local store's own index is used already")
    path = Path(args.text_index)
    if not index_dir(path).is_dir():
        raise KGError(f"--text-index {path}: no search index beside it at {index_dir(path)} (run `kg index`)")
    return TextChecker(path, backend)


def run(args: argparse.Namespace) -> int:
    if (args.batch is None) == (args.question is None):
        raise KGError("give either a question or --batch IN.jsonl")
    refuse_unused(args, {"out": "batch", "jobs": "batch", "token": "endpoint"})
    refuse_together(args, [("explain", "batch"), ("json", "batch"), ("graph", "batch"), ("pick", "batch")])
    refuse_bad_jobs(args.jobs)
    if args.question == "-":
        args.question = sys.stdin.buffer.read()  # bytes: the answerer says so when they are not UTF-8 text
    if args.with_files or args.without_files:
        from kg.cli.whatif import run_ask_what_if

        return run_ask_what_if(args, render)
    if args.batch:
        return run_args_batch(args)
    answerer = open_answerer(args)
    answer = answerer.ask(args.question)
    if args.pick is not None:
        answer = answerer.ask(picked(answer, args.pick))
    if args.graph:
        from kg.page.evidence import write_evidence_svg

        write_evidence_svg(answer, answerer.backend, Path(args.graph), args.force)
    if args.json:
        print(json.dumps(answer.to_json(), indent=2, ensure_ascii=False))
    else:
        print(render(answer, args.explain))
    return EXIT_STATUS[answer.outcome]


#: `kg ask`'s exit status per outcome: a proof of absence is an answer (0); an uncertain reading and an
#: unsupported question are neither answers nor errors (a KGError exits 2). Ordered so that the larger is worse.
EXIT_STATUS = {"answer": 0, "absent": 0, "uncertain": 3, "unsupported": 4}


def picked(answer: Answer, pick: int) -> str:
    """The canonical question of the N-th reading an answer offers (an uncertain reading's, or a product's
    name for a slip of it)."""
    if not answer.readings:
        raise KGError(
            f"--pick chooses among the readings a question offers; this one's outcome is {answer.outcome!r}, with none"
        )
    if not 1 <= pick <= len(answer.readings):
        raise KGError(f"--pick {pick}: the question has {len(answer.readings)} reading(s) to pick from")
    return answer.readings[pick - 1]["question"]


def run_args_batch(args: argparse.Namespace) -> int:
    """Answer the batch file; exit 2 at the end if any line got an error record instead of an answer, else with
    the worst outcome's status."""
    from kg.qa.batch import COUNTED, run_batch  # with its worker pool: not for one question

    out = output_path(args.out, args.force) if args.out else None

    def open_out() -> AbstractContextManager[IO[str]]:
        return open_output(out, force=args.force) if out else nullcontext(sys.stdout)

    counts = run_batch(partial(open_answerer, args), Path(args.batch), open_out, jobs=args.jobs or DEFAULT_JOBS)
    print(", ".join(f"{v} {k}" for k, v in counts.items()), file=sys.stderr)
    if unanswered := counts["malformed"] + counts["failed"]:
        raise KGError(
            f"{unanswered} of {counts['lines']} lines got an error record instead of an answer "
            f"({counts['failed']} failed, {counts['malformed']} malformed)"
        )
    return max((EXIT_STATUS[outcome] for outcome, kind in COUNTED.items() if counts[kind]), default=0)


def understanding_lines(u: dict) -> list[str]:
    """How the question was read: its cues, each competing intent with its score, and the free phrase."""
    if not u:
        return []
    lines = ["", "cues: " + (", ".join(f"{c} ({p!r})" for c, p in u["cues"].items()) or "-")]
    for label, rows in (("competing", u["competing"]), ("near misses", u["near misses"])):
        for c in rows:
            what = f" - {c['missing']}" if "missing" in c else ""
            lines.append(f"{label}: {c['intent']} (constraints {c['score'][0]}, asked type {c['score'][1]}){what}")
            if reading := c.get("reading"):
                lines.append(f"  reads as: {reading}")
            if unexplained := c.get("unexplained"):
                left = ", ".join(unexplained["unexplained cues"]) or "-"
                asks = f"; asks for a {unexplained['asks for']}" if "asks for" in unexplained else ""
                lines.append(f"  incomplete: unexplained cues {left}{asks}")
            for other in c.get("other readings", ()):
                verdict = "complete" if other["complete"] else "incomplete"
                lines.append(f"  or reads as: {other['reading']} ({verdict})")
            if residue := c.get("residue"):
                shown = ", ".join(f"{n} {s}" for n, s in residue["candidates"]) or "none"
                verdict = "resolved" if residue["resolved"] else "unresolved"
                lines.append(f"  free phrase {residue['phrase']!r} ({residue['kind']}, {verdict}): {shown}")
    if u.get("ambiguous"):
        lines.append("ambiguous between: " + ", ".join(u["ambiguous"]))
    return lines


#: How each kind of abstention opens its line.
HEADINGS = {"absent": "ABSTAIN (proof of absence)", "unsupported": "UNSUPPORTED", "uncertain": "UNCERTAIN READING"}


def part_line(part: dict) -> str:
    """One product's answer to a question across products: its outcome, how many items, how many artifacts."""
    value, held = part["answer"], ""
    if isinstance(value, list):
        held = f" {len(value)}"
    elif part["outcome"] == "answer":
        said = str(value).splitlines()
        held = f" {value}" if len(said) == 1 else f" {len(said)} lines"
    return f"{part['product']} {part['outcome']}{held} ({plural(len(part['citations']), 'artifact')})"


def render(a: Answer, explain: bool) -> str:
    lines = [f"Q: {a.question}"]
    if a.abstain:
        reason = (a.reason or "").removeprefix("uncertain reading: ").removeprefix("unsupported question: ")
        heading = (
            "UNCERTAIN (the artifacts speak of it)" if a.outcome == "uncertain" and a.unheld else HEADINGS[a.outcome]
        )
        lines.append(f"{heading}: {reason}")
        if a.citations:
            lines.append(f"artifacts: {', '.join(a.citations)}")
        if a.readings:
            lines.append("Did you mean:")
            lines += [f"  {n}. {r['question']}" for n, r in enumerate(a.readings, start=1)]
            lines.append("(kg ask --pick N QUESTION asks reading N)")
    else:
        answers = a.answer if isinstance(a.answer, list) else (a.answer or "").splitlines()
        lines.append("A:")
        lines += [f"  {x}" if x.startswith("- ") else f"  - {shown_value(x, a.people)}" for x in answers]
        shown = ", ".join(a.citations[:MAX_SHOWN_CITATIONS])
        more = (
            f", … (+{len(a.citations) - MAX_SHOWN_CITATIONS} more; --json lists all)"
            if len(a.citations) > MAX_SHOWN_CITATIONS
            else ""
        )
        lines.append(f"evidence ({plural(len(a.citations), 'artifact')}): {shown}{more}")
    if a.outcome != "uncertain":  # an uncertain question offers its readings instead
        lines.append(f"I read this as: {reading(a)}")
    if a.cross and a.cross.get("parts"):
        lines.append("per product: " + "; ".join(part_line(p) for p in a.cross["parts"]))
    if a.cross and a.cross.get("ranked"):
        lines.append("ranked: " + ", ".join(f"{p} {n}" for p, n in a.cross["ranked"]))
    lines.append(f"intent: {a.intent or '-'}  type: {a.type}")
    if a.proof:
        lines.append(f"proof: {a.proof['query']} with {json.dumps(a.proof.get('bindings', {}))} -> {a.proof['result']}")
        if "textcheck" in a.proof:
            lines.append(f"text check: {a.proof['textcheck']['check']}")
    if a.unheld:  # the proof that ran, and why it does not stand
        lines.append(f"unheld proof: {a.unheld['query']} with {json.dumps(a.unheld['bindings'])} -> True")
        lines.append(f"text check: {a.unheld['textcheck']['check']}")
    if explain:
        lines.append(f"slots: {json.dumps(a.slots, ensure_ascii=False)}")
        lines += understanding_lines(a.understanding)
        for text in a.queries:
            lines += ["", "SPARQL:", text.rstrip()]
    return "\n".join(lines)
