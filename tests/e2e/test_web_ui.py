"""The web UI in a real browser against the real API: live timeline, report, safety,
history, plan review and a phone-sized screen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import PageProblems, Server, marsa_server, store_run, watch

RUN_TIMEOUT = 90_000  # ms: a whole offline research run, with room for a slow CI machine

XSS_DOC = b"""# Tidal bores <img src=x onerror="window.__pwned=1">

A tidal bore is a wave that travels up a river against its current when a strong
incoming tide pushes into a narrow, shallow estuary. The Qiantang River in China has the
largest tidal bore in the world, up to nine metres high.
<script>window.__pwned=2</script>
Read more about tidal bores [x](javascript:window.__pwned=3) in the river guide.
"""


SOURCE = {
    "id": "S1",
    "title": "Tide office notes",
    "url": None,
    "path": "/srv/notes/office/tides.md",
    "relative_path": "office/tides.md",
    "status": "proposal",
    "server": "docs",
    "tool": "search_documents",
    "score": 0.61,
    "score_breakdown": {"domain": 0.5, "recency": 0.7, "depth": 0.6},
    "text": "**Author(s)**: the tide office. Spring tides follow the full moon.",
}


def finished_run(**result: Any) -> dict[str, Any]:
    """The result of a finished run citing SOURCE once; ``result`` overrides its fields."""
    return {
        "status": "done",
        "answer": "Spring tides follow the full moon. [1]",
        "answer_found": True,
        "report": "## Answer\n\nSpring tides follow the full moon. [1]\n\n## Sources\n\n"
        "1. Tide office notes — office/tides.md\n",
        "citations": [{"n": 1, "source_id": "S1", "quote": "Spring tides follow the full moon."}],
        "sources": [SOURCE],
        "claims": [],
        **result,
    }


def ask(
    page: Any,
    question: str,
    *,
    sources: list[str] | None = None,
    review: bool = False,
    keyboard: bool = False,
) -> None:
    """Type a question, choose sources, and press Research (or Ctrl+Enter)."""
    page.fill("#query", question)
    if sources is not None:
        toggles = page.locator("#source-toggles input[name=sources]")
        expect(toggles.first).to_be_visible()
        for i in range(toggles.count()):
            box = toggles.nth(i)
            box.set_checked(box.get_attribute("value") in sources)
    if review:
        page.check("#review-plan")
    if keyboard:
        page.press("#query", "Control+Enter")
    else:
        page.click("#ask-button")


def wait_done(page: Any) -> None:
    expect(page.locator("#status")).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(page.locator("#report a.cite").first).to_be_visible()


def tab_to(page: Any, selector: str, *, backwards: bool = False, presses: int = 80) -> None:
    """Press Tab (or Shift+Tab) until the focused element matches ``selector``."""
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(presses):
        page.keyboard.press(key)
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    focused = page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    raise AssertionError(f"{presses} presses of {key} never reached {selector}; focus: {focused}")


def focused_id(page: Any) -> str:
    return str(page.evaluate("document.activeElement.id"))


def test_the_timeline_shows_agent_events_while_the_run_is_still_running(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    server.gate.touch()  # the researcher's search on "gate" waits until the file goes
    try:
        ask(page, "When do spring tides come?", sources=["docs", "gate"])
        researching = page.locator("#timeline li.event.kind-node_start.node-researcher")
        expect(researching.first).to_be_visible(timeout=RUN_TIMEOUT)
        expect(page.locator("#timeline li.event.node-planner").first).to_be_visible()
        expect(page.locator("#status")).to_have_attribute("data-status", "running")
        expect(page.locator("#report")).to_be_hidden()
        expect(page.locator("#timeline li.event.kind-run_end")).to_have_count(0)
        run_id = page.text_content("#run-id")
        # Held by the gate: the server too says the run has not finished.
        assert server.client.get(f"/api/research/{run_id}").json()["status"] == "running"
        page.screenshot(path=str(artifacts / "live-timeline.png"), full_page=True)
    finally:
        server.gate.unlink(missing_ok=True)

    wait_done(page)
    expect(page.locator("#timeline li.event.kind-run_end")).to_have_count(1)
    expect(page.locator("#sources li.source", has_text="Gate notes: tides")).to_be_visible()
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_finished_run_shows_claims_scored_sources_and_citations_that_jump_to_them(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    ask(page, "What causes ocean tides?")

    wait_done(page)
    expect(page.locator("#timeline li.event.kind-tool_call.node-researcher").first).to_be_visible()
    expect(page.locator("#timeline li.event.kind-run_end")).to_have_count(1)

    claims = page.locator("#claims tbody tr")
    expect(claims.first).to_be_visible()
    expect(claims.first.locator(".badge.verdict")).to_have_text(
        re.compile("supported|contradicted|unverifiable")
    )
    expect(claims.first.locator(".confidence")).to_have_text(re.compile(r"^\d+%$"))

    sources = page.locator("#sources li.source")
    expect(sources.first).to_be_visible()
    expect(sources.first.locator(".score-total")).to_have_text(re.compile(r"score \d\.\d\d"))
    for part in ("domain", "recency", "depth"):
        expect(sources.first.locator(f".part-{part} .score-value")).to_have_text(
            re.compile(r"\d\.\d\d")
        )
    expect(page.locator("#citation-check")).to_contain_text("checked")
    expect(page.locator("#exports a")).to_have_count(3)

    # A citation jumps to its source and highlights it, leaving the run in the URL.
    citation = page.locator("#report a.cite").first
    target = citation.get_attribute("href")
    citation.click()
    expect(page.locator(f"#sources {target}")).to_have_class(re.compile("highlight"))
    assert page.url.endswith(f"#run={page.text_content('#run-id')}")

    page.screenshot(path=str(artifacts / "desktop-report.png"), full_page=True)
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_hostile_document_is_cited_without_running_any_of_its_markup(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    page.set_input_files(
        "#doc-file", files=[{"name": "bores.md", "mimeType": "text/markdown", "buffer": XSS_DOC}]
    )
    page.click("#doc-upload")
    expect(page.locator("#doc-status")).to_contain_text("added")
    expect(page.locator("#doc-list .doc-title", has_text="Tidal bores").first).to_be_visible()

    ask(page, "What is a tidal bore on the Qiantang River?", sources=["docs"])
    wait_done(page)

    bore = page.locator("#sources li.source", has_text="Tidal bores").first
    expect(bore).to_be_visible()
    source_id = bore.get_attribute("id")
    expect(page.locator(f'#report a.cite[href="#{source_id}"]').first).to_be_visible()
    # The markup shows as text, or not at all; it never becomes elements.
    for panel in ("#report", "#sources", "#doc-list", "#claims", "#timeline"):
        assert page.locator(f"{panel} img, {panel} script").count() == 0, panel
    assert page.locator("body img, body script").count() == 0
    expect(page.locator("#claims")).to_contain_text("Qiantang")
    assert page.locator('a[href^="javascript:"]').count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"

    page.reload()
    wait_done(page)
    expect(page.locator("#timeline li.kind-run_end")).to_have_count(1)
    expect(page.locator("#doc-list .doc-title", has_text="Tidal bores").first).to_be_visible()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    page.screenshot(path=str(artifacts / "hostile-document.png"), full_page=True)
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_history_lists_the_run_after_a_reload_and_clicking_it_shows_its_report(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    question = "How does the Bay of Fundy tidal range compare with the Mediterranean?"
    ask(page, question, sources=["docs"], keyboard=True)
    wait_done(page)
    run_id = page.text_content("#run-id")

    page.goto(server.url)  # a fresh load, without the #run= hash
    expect(page.locator("#report")).to_be_hidden()
    page.fill("#history-search", "Fundy")
    item = page.locator(f'#history-list li[data-run-id="{run_id}"]')
    expect(item).to_be_visible()
    expect(page.locator("#history-list li")).to_have_count(1)
    item.locator(".history-open").click()

    wait_done(page)
    expect(page.locator("#run-query")).to_have_text(question)
    expect(page.locator("#timeline li.event").first).to_be_visible()
    assert page.url.endswith(f"#run={run_id}")
    page.screenshot(path=str(artifacts / "history.png"), full_page=True)
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_reviewing_the_plan_runs_the_edited_sub_queries(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    ask(page, "Why are there spring tides and neap tides?", sources=["docs"], review=True)

    review = page.locator("#plan-review")
    expect(review).to_be_visible(timeout=RUN_TIMEOUT)
    expect(page.locator("#status")).to_have_attribute("data-status", "awaiting_review")
    first = review.locator("input.sq-text").first
    expect(first).to_be_visible()
    first.fill("How do the Sun and Moon make spring tides?")
    review.get_by_role("button", name="Add sub-query").click()
    review.locator("input.sq-text").last.fill("What are neap tides?")
    page.screenshot(path=str(artifacts / "plan-review.png"), full_page=True)
    review.get_by_role("button", name="Run edited plan").click()

    expect(review).to_be_hidden()
    wait_done(page)
    plan = page.locator("#run-plan-list")
    expect(plan).to_contain_text("How do the Sun and Moon make spring tides?")
    expect(plan).to_contain_text("What are neap tides?")
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_plan_being_edited_is_kept_when_the_server_closes_the_stream_and_it_reconnects(
    tmp_path: Path, page: Any, problems: PageProblems
) -> None:
    with marsa_server(tmp_path, sse_max_seconds="1") as server:
        closes: list[str] = []
        page.on("requestfinished", lambda r: "/events" in r.url and closes.append(r.url))
        page.goto(server.url)
        ask(page, "Why are there spring tides and neap tides?", sources=["docs"], review=True)
        review = page.locator("#plan-review")
        expect(review).to_be_visible(timeout=RUN_TIMEOUT)
        first = review.locator("input.sq-text").first
        first.fill("How do the Sun and Moon make spring tides?")
        # The stream is closed every second; the browser reconnects after its 2 s retry.
        for _ in range(80):
            if len(closes) > 2:
                break
            page.wait_for_timeout(250)
        assert len(closes) > 2, closes
        expect(first).to_have_value("How do the Sun and Moon make spring tides?")
        review.get_by_role("button", name="Run edited plan").click()
        wait_done(page)
        expect(page.locator("#run-plan-list")).to_contain_text("the Sun and Moon")
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_the_page_fits_a_phone_screen_without_horizontal_scrolling(
    server: Server, browser: Any, problems: PageProblems, artifacts: Path
) -> None:
    # A long unbreakable word (a URL) in the question must wrap, not widen the page.
    question = (
        "What causes ocean tides, says https://example.org/tides/moon/gravity/bulges/inertia/x?"
    )
    run_id = server.research(question, sources=["docs"])
    context = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True)
    try:
        phone = context.new_page()
        watch(phone, problems)
        phone.goto(f"{server.url}/#run={run_id}")
        wait_done(phone)
        expect(phone.locator("#claims tbody tr").first).to_be_visible()
        expect(phone.locator("#sources li.source").first).to_be_visible()
        expect(phone.locator("#query")).to_be_visible()
        box = phone.locator("#query").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 375 + 1, f"the page is {width}px wide at 375px"
        phone.screenshot(path=str(artifacts / "phone.png"), full_page=True)
    finally:
        context.close()
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_deleting_a_run_from_history_removes_it_and_clears_the_screen(
    server: Server, page: Any, problems: PageProblems
) -> None:
    run_id = server.research("Which bay has the largest tidal range?", sources=["docs"])
    page.goto(f"{server.url}/#run={run_id}")
    wait_done(page)
    problems.accept_dialogs = True
    item = page.locator(f'#history-list li[data-run-id="{run_id}"]')
    item.get_by_role("button", name="Delete").click()

    expect(item).to_have_count(0)
    expect(page.locator("#report")).to_be_hidden()
    expect(page.locator("#timeline li")).to_have_count(0)
    assert "#run=" not in page.url
    assert server.client.get(f"/api/research/{run_id}").status_code == 404
    assert problems.dialogs == ["confirm: Delete this run?"]
    assert not problems.errors and not problems.console, problems


def test_a_server_with_a_token_asks_for_it_once_and_then_streams_the_run(
    tmp_path: Path, page: Any, problems: PageProblems
) -> None:
    with marsa_server(tmp_path, api_token="tide-s3cret") as guarded:
        page.goto(guarded.url)
        expect(page.locator("#auth-form")).to_be_visible()
        page.fill("#auth-token", "tide-s3cret")
        page.click("#auth-form button[type=submit]")
        expect(page.locator("#auth-form")).to_be_hidden()
        expect(page.locator("#health-docs")).to_have_text("3")

        ask(page, "What causes ocean tides?", sources=["docs"])
        expect(page.locator("#timeline li.event").first).to_be_visible(timeout=RUN_TIMEOUT)
        wait_done(page)
        assert page.evaluate("localStorage.getItem('marsa.token')") == "tide-s3cret"

        page.reload()
        wait_done(page)
        expect(page.locator("#auth-form")).to_be_hidden()
    # The first page load was refused (401) before the token was given; nothing else failed.
    assert all("401" in message for message in problems.console), problems
    assert not problems.errors and not problems.dialogs, problems


def test_the_keyboard_alone_asks_chooses_sources_follows_a_citation_and_exports(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    toggles = page.locator("#source-toggles input[name=sources]")
    expect(toggles.first).to_be_visible()
    question = "Why is the tidal range so large in the Bay of Fundy?"

    tab_to(page, "#query")
    page.keyboard.type(question)
    expect(page.locator("#query")).to_have_value(question)
    enabled = toggles.evaluate_all("boxes => boxes.filter(b => !b.disabled).map(b => b.value)")
    others = [v for v in enabled if v != "docs"]
    assert others, "only one source: nothing to switch off"
    for name in others:
        tab_to(page, f'#source-toggles input[value="{name}"]')
        page.keyboard.press("Space")
        expect(page.locator(f'#source-toggles input[value="{name}"]')).not_to_be_checked()
    tab_to(page, "#ask-button")
    page.keyboard.press("Enter")
    wait_done(page)
    run_id = page.text_content("#run-id")
    run = server.client.get(f"/api/research/{run_id}").json()
    assert (run["query"], run["options"]["sources"]) == (question, ["docs"])

    tab_to(page, "#report a.cite")
    target = str(page.evaluate("document.activeElement.getAttribute('href')"))
    page.keyboard.press("Enter")
    expect(page.locator(f"#sources {target}")).to_have_class(re.compile("highlight"))
    assert focused_id(page) == target.removeprefix("#")

    tab_to(page, '#exports a[href$="/report.md"]', backwards=True)
    with page.expect_download() as caught:
        page.keyboard.press("Enter")
    download = caught.value
    assert download.suggested_filename == f"marsa-{run_id}-report.md"
    assert question in Path(download.path()).read_text(encoding="utf-8")
    page.screenshot(path=str(artifacts / "keyboard.png"), full_page=True)
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_servers_health_note_shows_as_text_when_reached_with_the_tab_key(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    chip = page.locator('#health-servers li[aria-label^="gate:"]')
    tip = page.locator("#health-tip-gate")
    expect(chip).to_be_visible()
    expect(tip).to_be_hidden()

    tab_to(page, '#health-servers li[aria-label^="gate:"]')
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("tools: lookup")
    expect(chip).to_have_accessible_description(re.compile("tools: lookup"))
    page.screenshot(path=str(artifacts / "health-note.png"))
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_source_that_is_off_is_a_disabled_toggle_saying_which_setting_turns_it_on(
    server: Server, page: Any, problems: PageProblems
) -> None:
    page.goto(server.url)
    scholarly = page.locator('#source-toggles input[value="scholarly"]')
    expect(scholarly).to_be_disabled()
    expect(scholarly).not_to_be_checked()
    expect(scholarly).to_have_accessible_description(re.compile("MARSA_SCHOLARLY_EMAIL"))
    expect(page.locator('#source-toggles input[value="docs"]')).to_be_enabled()
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_an_export_the_server_refuses_shows_its_status_and_reason(
    server: Server, page: Any, problems: PageProblems
) -> None:
    run_id = server.research("What is a neap tide?", sources=["docs"])
    page.goto(f"{server.url}/#run={run_id}")
    wait_done(page)
    # Deleted behind the page's back: the export now answers 404 with a JSON detail.
    assert server.client.delete(f"/api/research/{run_id}").status_code == 204

    page.locator("#exports a", has_text="report.pdf").click()
    message = page.locator("#export-error")
    expect(message).to_be_visible()
    expect(message).to_have_text(
        f"Could not download report.pdf: HTTP 404: no research run '{run_id}'; "
        "GET /api/research lists them"
    )
    # The browser logs the refused request itself; nothing else went wrong.
    assert all("404" in line for line in problems.console), problems
    assert not problems.errors and not problems.dialogs, problems


def test_a_run_the_sources_do_not_answer_says_so_in_words_above_its_report(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    question = "When does the tide office open on Sundays?"
    answer = "The sources do not say when the tide office opens. [1]"
    run_id = store_run(
        server,
        question,
        finished_run(
            answer=answer,
            answer_found=False,
            report=f"## Answer\n\n{answer}\n\n## Sources\n\n1. Tide office notes\n",
        ),
    )
    page.goto(f"{server.url}/#run={run_id}")
    wait_done(page)

    notice = page.locator("#answer-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Not found in the sources.")
    expect(notice).to_have_attribute("role", "note")
    expect(page.locator("#report")).to_have_accessible_description(
        re.compile("^Not found in the sources")
    )
    item = page.locator(f'#history-list li[data-run-id="{run_id}"]')
    expect(item.locator(".chip.not-found")).to_have_text("not found in the sources")
    page.screenshot(path=str(artifacts / "not-found.png"), full_page=True)

    # A run that found its answer shows no notice.
    found = store_run(server, "When do spring tides come?", finished_run())
    page.goto(f"{server.url}/#run={found}")
    wait_done(page)
    expect(page.locator("#run-query")).to_have_text("When do spring tides come?")
    expect(notice).to_be_hidden()
    found_item = page.locator(f'#history-list li[data-run-id="{found}"]')
    expect(found_item).to_be_visible()
    expect(found_item.locator(".chip.not-found")).to_have_count(0)
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_claims_and_evidence_show_document_text_without_its_markup(
    server: Server, page: Any, problems: PageProblems
) -> None:
    claim = (
        "**Author(s)**: the tide office says [spring tides](https://example.org/spring) "
        "follow the `full moon`. <Note>Neap tides come at the *quarter* moons.</Note>"
    )
    evidence = {"source_id": "S1", "stance": "supports", "text": "__Spring tides__ follow it."}
    run_id = store_run(
        server,
        "What does the tide office say about spring tides?",
        finished_run(
            claims=[
                {
                    "id": "c1",
                    "text": claim,
                    "source_ids": ["S1"],
                    "verdict": "supported",
                    "confidence": 0.8,
                    "evidence": [evidence],
                    "rationale": "",
                }
            ]
        ),
    )
    page.goto(f"{server.url}/#run={run_id}")
    wait_done(page)

    row = page.locator("#claims tbody tr").first
    expect(row.locator(".claim-text")).to_have_text(
        "Author(s): the tide office says spring tides follow the full moon. "
        "Neap tides come at the quarter moons."
    )
    expect(row.locator(".evidence q")).to_have_text("Spring tides follow it.")
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_source_shows_its_path_in_the_ingested_folder_and_its_status(
    server: Server, page: Any, problems: PageProblems
) -> None:
    run_id = store_run(server, "Where are the tide office notes?", finished_run())
    page.goto(f"{server.url}/#run={run_id}")
    wait_done(page)

    source = page.locator("#sources li#src-S1")
    expect(source.locator(".source-path")).to_have_text("office/tides.md")
    expect(source.locator(".source-status")).to_have_text("(proposal)")
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_a_follow_up_asked_under_a_finished_report_runs_live_and_links_back_to_it(
    server: Server, page: Any, problems: PageProblems, artifacts: Path
) -> None:
    page.goto(server.url)
    question = "What causes spring tides?"
    ask(page, question, sources=["docs"])
    wait_done(page)
    parent_id = page.text_content("#run-id")
    expect(page.locator("#run-parent")).to_be_hidden()

    form = page.locator("#follow-up-form")
    expect(form).to_be_visible()
    page.click("#follow-up-button")  # empty: refused in the page, nothing started
    expect(page.locator("#follow-up-error")).to_have_text("Type a follow-up question first.")
    page.fill("#follow-up-question", "Why is that?")
    page.click("#follow-up-button")

    expect(page.locator("#run-id")).not_to_have_text(parent_id)
    expect(page.locator("#run-query")).to_have_text("Why is that?")
    link = page.locator("#run-parent-link")
    expect(link).to_have_text(question)
    wait_done(page)
    child_id = page.text_content("#run-id")
    expect(page.locator("#timeline li.event.kind-run_start")).to_have_count(1)
    expect(page.locator("#timeline li.event.kind-run_start")).to_contain_text(parent_id)
    expect(page.locator("#timeline li.event.kind-run_end")).to_have_count(1)
    assert page.url.endswith(f"#run={child_id}")
    item = page.locator(f'#history-list li[data-run-id="{child_id}"]')
    expect(item.locator(".follow-up-chip")).to_be_visible()
    page.screenshot(path=str(artifacts / "follow-up.png"), full_page=True)

    link.click()  # back to the earlier run
    expect(page.locator("#run-id")).to_have_text(parent_id)
    expect(page.locator("#run-query")).to_have_text(question)
    expect(page.locator("#run-parent")).to_be_hidden()
    assert not problems.errors and not problems.console and not problems.dialogs, problems


def test_an_llm_runs_calls_and_the_steps_that_fell_back_are_shown(
    server: Server, page: Any, problems: PageProblems
) -> None:
    calls = (
        ("planner", "llm_call", "plan: model answered", {
            "step": "plan", "model": "gpt-test", "attempt": 1, "outcome": "valid",
            "output": "json_schema", "duration_ms": 1200, "input_tokens": 300, "output_tokens": 40,
        }),
        ("fact_checker", "llm_call", "verify: model answered", {
            "step": "verify", "model": "gpt-test", "attempt": 2, "outcome": "rejected",
            "output": "json_schema", "duration_ms": 900, "input_tokens": 500, "output_tokens": 60,
        }),
        ("fact_checker", "fallback", "verify: the offline engine did this step", {}),
    )  # fmt: skip
    run_id = store_run(
        server,
        "When do spring tides come?",
        finished_run(
            engine="llm",
            engine_steps={
                "by_model": ["plan"],
                "fell_back": ["verify"],
                "fell_back_why": ["echoed the prompt's example"],
            },
        ),
        middle=calls,
    )
    page.goto(f"{server.url}/#run={run_id}")
    wait_done(page)
    timeline = page.locator("#timeline")
    expect(timeline.locator("li.kind-llm_call")).to_have_count(2)
    first = timeline.locator("li.kind-llm_call").first
    expect(first).to_contain_text("gpt-test")
    expect(first).to_contain_text("300 in · 40 out tokens")
    expect(timeline.locator("li.kind-llm_call").nth(1).locator(".chip-error")).to_have_text(
        "rejected"
    )
    expect(page.locator("#timings .engine-steps").first).to_contain_text("model did plan")
    expect(page.locator("#timings .fell-back")).to_contain_text(
        "verify (echoed the prompt's example)"
    )
    assert not problems.errors and not problems.console and not problems.dialogs, problems
