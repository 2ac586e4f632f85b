"""Rules over pull-request links: which repository a PR belongs to."""

from __future__ import annotations

import re

from pyoxigraph import Literal

from kg.ingest.rules import RuleContext, rule
from kg.namespaces import node, term
from kg.vocab import RDF_TYPE

PR_LINK = re.compile(r"github\.com/([^/\s]+)/([^/\s]+)/pull/(\d+)")


@rule("pr-repository", "A PR link github.com/OWNER/NAME/pull/N: the PR ekg:inRepository id:repo/OWNER/NAME.")
def pr_repository(ctx: RuleContext) -> None:
    for rec in ctx.records("prs"):
        match = PR_LINK.search(str(rec.get("link", "")))
        if not match:
            continue
        repo = node("repo", f"{match.group(1)}/{match.group(2)}")
        ctx.add(repo, RDF_TYPE, term("ekg:Repository"))
        ctx.add(repo, term("rdfs:label"), Literal(f"{match.group(1)}/{match.group(2)}"))
        ctx.add(ctx.artifact(rec["id"]), term("ekg:inRepository"), repo)
