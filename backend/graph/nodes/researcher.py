"""researcher: run the new sub-queries in parallel across their servers, collect sources with
provenance, and score each source's quality."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from langgraph.runtime import Runtime

from backend.graph.context import ResearchContext
from backend.graph.documents import add_chunk
from backend.graph.nodes.common import NodeSpan, node_span
from backend.graph.sources import scored, search_calls, source_key, to_sources
from backend.graph.state import AgentState
from backend.mcp_client.session import ServerUnavailable, ToolCallError
from backend.reasoning.models import Source, SubQuery

SHOWN_QUERY = 70  # characters of a search shown in the trace
SHOWN_TAIL = 24  # of them, the most kept from its end


def shown_query(text: str) -> str:
    """A search as the trace shows it: whole, or its start and its last words (a refinement
    adds words at the end of the question: cut there, it read as the same search again)."""
    if len(text) <= SHOWN_QUERY:
        return text
    tail = text[-SHOWN_TAIL:]
    tail = tail.split(" ", 1)[1] if " " in tail else tail
    head = text[: SHOWN_QUERY - len(tail) - 2].rstrip()
    return f"{head}… {tail}"


def _found_line(added: int) -> str:
    """The trace line after a round of searches: how many documents were new to the run."""
    if added == 0:
        return "no new sources"
    return f"{added} new source{'s' if added > 1 else ''}"


async def _one_call(
    ctx: ResearchContext, span: NodeSpan, sq: SubQuery, server: str, tool: str, args: dict[str, Any]
) -> dict[str, Any]:
    started = time.perf_counter()
    record: dict[str, Any] = {
        "sub_query_id": sq.id,
        "server": server,
        "tool": tool,
        "arguments": args,
    }
    try:
        result = await ctx.hub.call(server, tool, args)
        record["sources"] = to_sources(server, tool, result.structured or {})
        record["result_count"] = len(record["sources"])
        record["retried"], record["restarted"] = result.retried, result.restarted
    except (ToolCallError, ServerUnavailable, TimeoutError) as exc:
        record["error"] = str(exc)
        record["sources"] = []
        record["result_count"] = 0
    record["duration_ms"] = round((time.perf_counter() - started) * 1000, 2)
    if "error" in record:
        outcome = f"error: {record['error']}"
    else:
        outcome = f"{record['result_count']} results"
        if record.get("restarted"):
            outcome += " (after restarting the server)"
        elif record.get("retried"):
            outcome += " (on a second try)"
    # (the search by its words: "for q1" read as the asker's own question numbers)
    asked = shown_query(sq.text)
    span.emit(
        "tool_call",
        f'{server}.{tool} "{asked}": {outcome}',
        sub_query_id=sq.id,
        server=server,
        tool=tool,
        arguments=args,
        duration_ms=record["duration_ms"],
        result_count=record["result_count"],
        error=record.get("error"),
        retried=record.get("retried", False),
        restarted=record.get("restarted", False),
    )
    return record


def _take_chunk(target: dict[str, Any], fields: dict[str, Any]) -> bool:
    """Another chunk of a document already found joins its source (in chunk order); the
    source keeps the best retrieval score of its chunks."""
    chunk_id = fields.get("chunk_id")
    if not chunk_id or not target.get("chunk_ids"):
        return False
    section = (fields.get("chunk_sections") or [""])[0]
    added = add_chunk(target, chunk_id, fields["text"], section)
    for section in fields.get("sections", []):
        if added and section not in target.get("sections", []):
            target["sections"] = [*target.get("sections", []), section]
    if added and fields.get("retrieval_score", 0.0) > target.get("retrieval_score", 0.0):
        target["retrieval_score"] = fields["retrieval_score"]
    return added


async def researcher(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    done = set(state.get("researched", []))
    todo = [
        SubQuery.model_validate(sq) for sq in state.get("sub_queries", []) if sq["id"] not in done
    ]
    with node_span(ctx, "researcher", f"researching {len(todo)} sub-queries") as span:
        jobs = [
            _one_call(ctx, span, sq, server, tool, args)
            for sq in todo
            for server in sq.sources
            for tool, args in search_calls(server, sq, ctx.results_per_call, ctx.tools_of(server))
        ]
        records = await asyncio.gather(*jobs)

        existing = {source_key(s): sid for sid, s in state.get("sources", {}).items()}
        known = dict(state.get("sources", {}))
        new_sources: dict[str, dict[str, Any]] = {}
        added: list[str] = []  # sources first found now (new_sources also holds updated ones)
        errors: list[str] = []
        # After the highest id so far: a follow-up starts with its earlier run's S1…Sn.
        next_number = max((int(sid[1:]) for sid in known if sid[1:].isdigit()), default=0) + 1
        for record in records:
            ids = []
            for fields in record.pop("sources"):
                key = source_key(fields)
                sid = existing.get(key)
                if sid is None:
                    sid = f"S{next_number}"
                    next_number += 1
                    existing[key] = sid
                    source = scored(Source(id=sid, **fields), ctx.today)
                    new_sources[sid] = source.model_dump(mode="json")
                    added.append(sid)
                target = new_sources.get(sid) or dict(known[sid])
                changed = _take_chunk(target, fields)
                if target.get("from_run") and fields.get("retrieval_score", 0.0) > target.get(
                    "retrieval_score", 0.0
                ):
                    # Carried from an earlier run, it had no retrieval score for this question.
                    target["retrieval_score"] = fields["retrieval_score"]
                    changed = True
                if record["sub_query_id"] not in target["sub_query_ids"]:
                    target["sub_query_ids"] = [*target["sub_query_ids"], record["sub_query_id"]]
                    changed = True
                if changed:
                    new_sources[sid] = target
                if sid not in ids:
                    ids.append(sid)
            # Ranked by source quality, ties in the server's own order.
            quality = {sid: (new_sources.get(sid) or known[sid])["score"] for sid in ids}
            record["source_ids"] = sorted(ids, key=lambda sid: -quality[sid])
            if "error" in record:
                errors.append(
                    f"{record['server']}.{record['tool']} ({record['sub_query_id']}): "
                    f"{record['error']}"
                )
        span.emit("info", _found_line(len(added)), source_count=len(known) + len(added))
    return {
        "research_results": records,
        "researched": [sq.id for sq in todo],
        "sources": new_sources,
        "source_scores": {
            sid: {"score": s["score"], **(s["score_breakdown"] or {})}
            for sid, s in new_sources.items()
        },
        "iteration_count": state.get("iteration_count", 0) + 1,
        "status": "checking",
        "errors": errors,
        "agent_trace": span.trace(),
    }
