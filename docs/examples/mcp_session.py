"""An agent's session with `kg mcp`, scripted: the MCP SDK's client starts `kg mcp` over stdio and makes the calls
an agent makes, printing each call and its result (long lists cut to their first items). README.md and
docs/mcp.md show its output. Run it after `kg build`:

    .venv/bin/python docs/examples/mcp_session.py [--store PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

PRODUCT = "FlowForce"
SHOWN = 3
#: The fields of an answer shown (its question, type and slots, and the proof's query text and graphs, are not).
ANSWER_FIELDS = ("abstain", "answer", "citations", "intent", "reason", "proof")
PROOF_FIELDS = ("query", "bindings", "result")


def cut(value: Any) -> Any:
    """The value with every list cut to SHOWN items (the rest counted) and long strings shortened."""
    if isinstance(value, dict):
        return {k: cut(v) for k, v in value.items()}
    if isinstance(value, list):
        return [cut(v) for v in value[:SHOWN]] + ([f"… {len(value) - SHOWN} more"] if len(value) > SHOWN else [])
    if isinstance(value, str) and len(value) > 100:
        return " ".join(value[:97].split()) + "…"
    return value


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    print(f"→ {tool}({json.dumps(arguments, ensure_ascii=False)})")
    result = await client.call_tool(tool, arguments)
    return json.loads(result.content[0].text)


def brief(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer's fields that matter to the reader of a transcript."""
    out = {k: answer[k] for k in ANSWER_FIELDS if answer.get(k) is not None}
    if "proof" in out:
        out["proof"] = {k: out["proof"][k] for k in PROOF_FIELDS}
    return out


def show(value: Any) -> None:
    print("← " + json.dumps(cut(value), ensure_ascii=False) + "\n")


async def session(store: str | None) -> None:
    args = ["-m", "kg", "mcp", *(["--store", store] if store else [])]
    async with Client(StdioServerParameters(command=sys.executable, args=args)) as client:
        question = f"Find employee IDs of the authors and key reviewers of the Market Research Report for {PRODUCT}?"
        answer = await call(client, "ask", {"question": question})
        show(brief(answer))
        show(await call(client, "people", {"eids": answer["answer"][:2]}))
        question = f"Who attended the meeting about the Product Requirements Document of {PRODUCT}?"
        show(brief(await call(client, "ask", {"question": question})))
        question = f"Which customers are still waiting on a fix in {PRODUCT}?"
        show(brief(await call(client, "ask", {"question": question})))
        listed = await call(client, "intents", {})
        wanted = next(i for i in listed["intents"] if i["intent"] == "bug_companies_by_state")
        show({"intents": [f"… {len(listed['intents'])} intents, among them:", wanted]})
        slots = {"product": PRODUCT, "state": "unresolved"}
        show(brief(await call(client, "run_intent", {"intent": "bug_companies_by_state", "slots": slots})))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="store directory (default: kg's)")
    asyncio.run(session(parser.parse_args().store))
