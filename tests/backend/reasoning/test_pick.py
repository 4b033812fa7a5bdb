"""Choosing the answering passage, and saying when the sources do not answer."""

from __future__ import annotations

import re

import pytest

from backend.reasoning.models import Plan, Source, SubQuery
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline import pick as pick_module
from backend.reasoning.offline.passages import Passage, passages, shown_for
from backend.reasoning.offline.pick import (
    _POINTER,
    _REPLACED,
    LIST_WINDOWS,
    MIN_CLOSE_COVERAGE,
    MIN_COVERAGE,
    WINDOW_PENALTY,
    Choice,
    _as_modifier,
    _bounds_asked_product,
    _by_other_means,
    _denies_what_is_asked,
    _does_the_avoided,
    _fuller_sibling_first,
    _gone_named,
    _holds_the_ask,
    _level_answer,
    _list_stands_out,
    _of_the_other_kind,
    _opposes,
    _passes_keyword,
    _points_back,
    _renames_unnamed,
    _stated_default_first,
    _stops_another_deed,
    _support_dropped,
    _uses_the_avoided,
    _valued_sibling_first,
    _way_around,
    assigned_names,
    choose,
    coverage,
    default_state,
    default_without_the_set_value,
    denies,
    identifiers,
    names_code,
    under_heading,
    unknown_names,
    window_penalty,
)
from backend.reasoning.offline.question import about_the_asker, analyse, names_wanted_type
from tests.backend.reasoning.corpus import DEFAULT_SETUP, SESSIONS, sectioned, source

TIMEOUTS = (
    "HTTPX is careful to enforce timeouts everywhere by default.\n\n"
    "The default behavior is to raise a `TimeoutException` after 5 seconds of network "
    "inactivity.\n\nYou can set timeouts for an individual request or on a client."
)
PROXIES = (
    "HTTPX supports setting up HTTP proxies via the `proxy` parameter.\n\n"
    "**Resolution**: HTTPX does not properly support HTTPS proxies at this time.\n\n"
    "Proxies can be configured for a client with the `proxy` argument."
)
POOL = (
    "You can control the connection pool size using the `limits` keyword argument.\n\n"
    "Keep-alive connections are reused for requests to the same host."
)


async def _pick(engine: OfflineEngine, question: str, sources: list[Source]):  # type: ignore[no-untyped-def]
    plan: Plan = await engine.plan(question, ["docs"])
    return choose(analyse(question), plan, sources, engine.vectors)


async def test_the_passage_holding_the_asked_value_is_chosen(engine: OfflineEngine) -> None:
    pick = await _pick(engine, "What is the default timeout?", [source("S1", "Timeouts", TIMEOUTS)])
    assert pick.found and pick.best is not None
    assert "5 seconds" in pick.best.passage.text


async def test_a_how_answer_goes_on_to_what_the_docs_offer_for_the_situation(
    engine: OfflineEngine,
) -> None:
    """requests-toolbelt's "How can I show progress while a large multipart/form-data upload
    is being sent?": the best passage sets out the situation; the sentence after it ("For
    this reason, the toolbelt provides the `MultipartEncoderMonitor`.") is the answer."""
    text = (
        "# Uploading Data\n\n"
        "If you need to stream your `multipart/form-data` upload then you're probably in the "
        "situation where it might take a while to upload the content. In these cases, it "
        "might make sense to be able to monitor the progress of the upload. For this reason, "
        "the toolbelt provides the `MultipartEncoderMonitor`. The monitor wraps an instance "
        "of a `MultipartEncoder` and is used exactly like the encoder.\n\n"
        "There are cases where you, the user, have a generator of some large quantity of "
        "data and you already know the size of that data."
    )
    question = (
        "How can I show progress while a large multipart/form-data upload is being sent "
        "with requests?"
    )
    pick = await _pick(engine, question, [source("S1", "Uploading Data", text)])
    assert pick.found and pick.best is not None
    assert pick.best.passage.text.startswith("If you need to stream")
    assert pick.best.passage.text.endswith("provides the `MultipartEncoderMonitor`.")


async def test_a_premise_that_two_things_are_the_same_is_denied_by_not_the_same(
    engine: OfflineEngine,
) -> None:
    """arrow: "Since arrow uses the same format codes as strptime, how do I pass
    '%Y-%m-%d %H:%M' to arrow.get?" / "Note that they are **not** the same as the tokens for
    strptime:", leading into the table of tokens."""
    text = (
        "# Supported Tokens\n\n"
        "Use the following tokens for parsing and formatting. Note that they are **not** the "
        "same as the tokens for strptime:\n\n"
        "- Year: Token: YYYY; Output: 2000, 2001\n"
        "- Month: Token: MM; Output: 01, 02\n\n"
        "Redundant whitespace characters can be normalized automatically by passing in the "
        "`normalize_whitespace` flag to `arrow.get`."
    )
    sources = [source("S1", "User's Guide", text)]
    question = (
        "Since arrow uses the same format codes as strptime, how do I pass '%Y-%m-%d %H:%M' "
        "to arrow.get?"
    )
    pick = await _pick(engine, question, sources)
    assert pick.denial is not None
    assert "not** the same as the tokens for strptime" in pick.denial.passage.quote
    # (said the same, it is no denial)
    agreed = text.replace("**not** the same as", "the same as")
    pick = await _pick(engine, question, [source("S1", "User's Guide", agreed)])
    assert pick.denial is None


async def test_a_passage_about_another_release_than_the_one_asked_is_no_answer(
    engine: OfflineEngine,
) -> None:
    notes = sectioned(
        "S1",
        "Changelog",
        [
            (
                "0.15.0 (2021-04-19)",
                "- Abandon support for Python 3.5. If you still require support for Python 3.5, "
                "please use pytest-asyncio v0.14 or earlier.",
            ),
            ("0.16.0 (2021-10-16)", "- Add support for Python 3.10."),
        ],
    )
    asked = (
        "Our legacy service is stuck on Python 3.9. Which pytest-asyncio release was the first "
        "to drop support for it, so we know where to pin?"
    )
    assert not (await _pick(engine, asked, [notes])).found
    asked = asked.replace("3.9", "3.5")
    pick = await _pick(engine, asked, [notes])
    assert pick.found and pick.best is not None and "3.5" in pick.best.passage.text


async def test_a_bound_on_the_asked_products_releases_speaks_of_the_asked_release(
    engine: OfflineEngine,
) -> None:
    basics = sectioned(
        "S1", "The basics", [("The basics", "AnyIO requires Python 3.10 or later to run.")]
    )
    asked = (
        "A couple of our services are still stuck on Python 3.9. Can we use the current AnyIO "
        "there, or what's the oldest Python it runs on?"
    )
    pick = await _pick(engine, asked, [basics])
    assert pick.found and pick.best is not None and "3.10 or later" in pick.best.passage.text
    # a bound on another product's releases says nothing of the one asked
    assert not _bounds_asked_product(asked, "Please use pytest-asyncio v0.14 or earlier.")
    assert not _bounds_asked_product(asked, "Requires Django 4.2 or later.")


async def test_a_passage_naming_the_asked_release_comes_before_one_about_another(
    engine: OfflineEngine,
) -> None:
    notes = sectioned(
        "S1",
        "Changelog",
        [
            ("1.0.0 (2021-02-26)", "- [CHANGE] Arrow has dropped support for Python 3.5."),
            ("1.3.0 (2023-09-30)", "- [CHANGED] Dropped support for Python 3.6 and 3.7."),
        ],
    )
    pick = await _pick(
        engine, "We're still on Python 3.7. Which Arrow release dropped support for it?", [notes]
    )
    assert pick.found and pick.best is not None
    assert pick.best.passage.section == "1.3.0 (2023-09-30)"


async def test_a_passage_from_another_named_tools_page_is_no_answer(
    engine: OfflineEngine,
) -> None:
    waitress = sectioned(
        "S1",
        "Waitress",
        [("Running", "Call `waitress-serve`, telling it how to import your application.")],
    )
    gunicorn = sectioned(
        "S2",
        "Gunicorn",
        [
            (
                "Running",
                "The `-w` option specifies the number of processes to run. The default is only "
                "1 worker, which is probably not what you want.",
            )
        ],
    )
    asked = "How many worker processes does Waitress start by default?"
    pick = await _pick(engine, asked, [waitress, gunicorn])
    assert pick.best is not None and pick.best.passage.source.title == "Gunicorn"
    assert not pick.found
    pick = await _pick(engine, asked.replace("Waitress", "Gunicorn"), [waitress, gunicorn])
    assert pick.found


async def test_no_passage_with_the_value_means_not_found(engine: OfflineEngine) -> None:
    pick = await _pick(
        engine, "What is the default maximum number of connections?", [source("S1", "Pool", POOL)]
    )
    assert not pick.found


async def test_a_question_naming_what_no_source_mentions_is_not_found(
    engine: OfflineEngine,
) -> None:
    sources = [source("S1", "Proxies", PROXIES)]
    pick = await _pick(engine, "How do I use a proxy with Kerberos authentication?", sources)
    assert not pick.found
    assert unknown_names("How do I use a proxy with Kerberos?", sources) == ["Kerberos"]


async def test_a_name_only_the_scene_of_the_question_uses_does_not_make_it_unanswered(
    engine: OfflineEngine,
) -> None:
    sources = [source("S1", "Proxies", PROXIES)]
    question = "Our CI runs behind Zscaler. How do I configure a proxy for a client?"
    pick = await _pick(engine, question, sources)
    assert pick.found and pick.best is not None
    assert "configured for a client" in pick.best.passage.text


async def test_a_premise_the_sources_deny_is_caught(engine: OfflineEngine) -> None:
    pick = await _pick(
        engine, "How do I enable HTTPS proxies in HTTPX?", [source("S1", "Proxies", PROXIES)]
    )
    assert pick.denial is not None
    assert "does not properly support HTTPS proxies" in pick.denial.passage.text


async def test_a_premise_is_denied_by_its_own_clause_with_the_verb_negated(
    engine: OfflineEngine,
) -> None:
    """schedule: "Since schedule catches exceptions raised inside job functions and keeps
    running, how do I change how it logs those caught exceptions?" / "Schedule doesn't catch
    exceptions that happen during job execution." (a contraction negates as "not" does)."""
    text = (
        "# Exception Handling\n\n"
        "Schedule doesn't catch exceptions that happen during job execution. Therefore any "
        "exceptions thrown during job execution will bubble up and interrupt schedule's "
        "run_xyz function.\n\n"
        "If you want to guard against exceptions you can wrap your job function in a "
        "decorator that logs them."
    )
    question = (
        "Since schedule catches exceptions raised inside job functions and keeps running, how "
        "do I change how it logs those caught exceptions?"
    )
    pick = await _pick(engine, question, [source("S1", "Exception Handling", text)])
    assert pick.denial is not None
    assert pick.denial.passage.quote.startswith("Schedule doesn't catch exceptions")
    # (said without the negation, it agrees)
    agreed = text.replace("doesn't catch", "catches")
    pick = await _pick(engine, question, [source("S1", "Exception Handling", agreed)])
    assert pick.denial is None
    # (a negation in a clause of its own denies nothing: huey's "Tasks whose result you never
    # read should return `None`." against "… so result reads return faster")
    results = "# Results\n\nTasks whose result you never read should return `None`."
    question = (
        "We turned on notify_result so result reads return faster. How long does the "
        "result-ready list live?"
    )
    pick = await _pick(engine, question, [source("S1", "Results", results)])
    assert pick.denial is None


WATCHDOG_QUICKSTART = (
    "# Quickstart\n\n"
    "Below we present a simple example that monitors the current directory recursively "
    "(which means, it will traverse any sub-directories) to detect changes.\n\n"
    "By default, an `watchdog.observers.Observer` instance will not monitor sub-directories. "
    "By passing `recursive=True` in the call to `schedule` monitoring entire directory trees "
    "is ensured.\n\n"
    "Linux 2.6+: Linux kernel version 2.6 and later come with an API called inotify that "
    "programs can use to monitor file system events."
)


async def test_a_premise_is_denied_by_a_word_of_the_same_meaning_negated(
    engine: OfflineEngine,
) -> None:
    """watchdog: "Since a watchdog Observer watches subdirectories by default, …" / "… will
    not monitor sub-directories"."""
    question = (
        "Since a watchdog Observer watches subdirectories by default, how do I turn that "
        "recursive behaviour off?"
    )
    pick = await _pick(engine, question, [source("S1", "Quickstart", WATCHDOG_QUICKSTART)])
    assert pick.denial is not None
    assert "will not monitor sub-directories" in pick.denial.passage.quote


async def test_a_premise_that_a_call_raises_is_denied_by_one_saying_it_does_not(
    engine: OfflineEngine,
) -> None:
    """peewee: "Since calling close() on a peewee database that is already closed raises an
    OperationalError, …" / "… will not result in an exception, but will return `False`:"."""
    text = (
        "# Connection management\n\n"
        "Peewee opens a connection to the database when one is needed. A peewee database "
        "object keeps one connection per thread. If you call `connect()` on an already-open "
        "database, an `OperationalError` is raised. To close a connection, use the "
        "`Database.close()` method.\n\n"
        "Calling `close()` on an already-closed connection will not result in an exception, "
        "but will return `False`:\n\n"
        "```pycon\n>>> db.close()  # Is already closed.\nFalse\n```\n"
    )
    question = (
        "Since calling close() on a peewee database that is already closed raises an "
        "OperationalError, what is the recommended way to avoid that exception in request "
        "teardown code?"
    )
    pick = await _pick(engine, question, [source("S1", "Database", text)])
    assert pick.denial is not None
    assert "will not result in an exception" in pick.denial.passage.quote
    said = text.replace("will not result in an exception, but will return `False`", "fails")
    pick = await _pick(engine, question, [source("S1", "Database", said)])
    assert pick.denial is None


PEEWEE_POOL = (
    "# Connection Pooling\n\n"
    "In multi-threaded or web applications, each thread gets its own connection. The pool "
    "maintains up to `max_connections` open connections at any time.\n\n"
    "## PooledDatabase\n\n"
    "`PooledDatabase(database, max_connections=20, stale_timeout=None, timeout=None, "
    "**kwargs)`: Common mixin class used for specific backend implementations.\n\n"
    "Parameter `max_connections` (int): Maximum number of concurrent connections. Pass `None` "
    "for no limit.\n\n"
    "Parameter `timeout` (int): Seconds to block when all connections are in use.\n\n"
    "## PooledPostgresqlDatabase\n\n"
    "`PooledPostgresqlDatabase(database, max_connections=20, stale_timeout=None, timeout=None, "
    "**kwargs)`: Pool implementation for Postgresql databases."
)


async def test_asked_a_default_the_signature_of_what_is_named_shows_it(
    engine: OfflineEngine,
) -> None:
    """peewee: a parameter's default is its value in the signature of the class asked of."""
    question = (
        "If I create a PooledPostgresqlDatabase in peewee and don't pass any connection cap, "
        "what is the maximum number of connections the pool will hold open?"
    )
    pick = await _pick(engine, question, [source("S1", "Database Tooling", PEEWEE_POOL)])
    assert pick.found and pick.best is not None
    assert "max_connections=20" in pick.best.passage.quote
    # (nor a class the question does not name, nor a parameter it does not spell out)
    from backend.reasoning.offline.pick import _signature_default

    signature = [p for p in passages(source("S1", "T", PEEWEE_POOL)) if "Pool impl" in p.text]
    assert _signature_default(signature[0], question)
    assert not _signature_default(signature[0], question.replace("Postgresql", "MySQL"))
    assert not _signature_default(signature[0], question.replace("connection", "client"))


APSCHEDULER_MISFIRE = (
    "# User guide\n\n"
    "Note: If the execution of a job is delayed due to no threads or processes being available "
    "in the pool, the executor may skip it due to it being run too late (compared to its "
    "originally designated run time).\n\n"
    "By default, only one instance of each job is allowed to be run at the same time."
)


async def test_asked_whether_there_is_a_limit_a_passage_stating_none_does_not_answer(
    engine: OfflineEngine,
) -> None:
    """APScheduler: "Is there a per-job execution time limit …?" was answered with the
    misfire note, which states no limit of any kind."""
    question = (
        "Every few weeks one of our jobs hangs on a network call and sits in the thread pool "
        "forever. Is there a per-job execution time limit in APScheduler after which the "
        "running job gets killed or cancelled?"
    )
    sources = [source("S1", "User guide", APSCHEDULER_MISFIRE)]
    assert not (await _pick(engine, question, sources)).found
    said = APSCHEDULER_MISFIRE + (
        "\n\nAPScheduler sets a per-job execution time limit with `max_runtime`: a running "
        "job that exceeds it gets cancelled, and a hung job is killed."
    )
    assert (await _pick(engine, question, [source("S1", "User guide", said)])).found
    from backend.reasoning.offline.pick import _ASKS_LIMIT, _STATES_LIMIT

    assert _ASKS_LIMIT.search(question)
    assert _ASKS_LIMIT.search("Is there a hard upper limit on the number of tasks in a chord?")
    assert not _ASKS_LIMIT.search("Is there a setting to change that level?")
    assert not _STATES_LIMIT.search(APSCHEDULER_MISFIRE)
    assert _STATES_LIMIT.search("FileHuey supports task priorities, limited to 0 to 65535.")
    assert _STATES_LIMIT.search("The pool keeps up to `max_connections` open connections.")


async def test_how_much_of_a_thing_is_not_answered_by_a_passage_never_naming_it(
    engine: OfflineEngine,
) -> None:
    """watchdog: a number near the question's other words (the kernel's version) is no
    measure of the memory it asks about."""
    question = (
        "Roughly how much kernel memory does each inotify watch that watchdog creates use on Linux?"
    )
    sources = [source("S1", "Quickstart", WATCHDOG_QUICKSTART)]
    assert not (await _pick(engine, question, sources)).found
    said = WATCHDOG_QUICKSTART + "\n\nEach inotify watch uses about 1 KB of kernel memory."
    assert (await _pick(engine, question, [source("S1", "Quickstart", said)])).found


FROZEN_COST = (
    "# How Does It Work?\n\n"
    "Slotted classes are more complicated. Here it uses `object.__setattr__` to set your "
    "attributes. This is (still) slower than a plain assignment:\n\n"
    "```none\n$ pyperf timeit -s \"C = attr.make_class('C', ['x'], slots=True)\" \"C(1)\"\n"
    "Mean +- std dev: 228 ns +- 18 ns\n"
    "$ pyperf timeit -s \"C = attr.make_class('C', ['x'], slots=True, frozen=True)\" \"C(1)\"\n"
    "Mean +- std dev: 425 ns +- 16 ns\n```\n\n"
    "So on a laptop computer the difference is about 200 nanoseconds (1 second is "
    "1,000,000,000 nanoseconds).\n"
)


async def test_a_sentence_after_an_example_is_read_with_the_example_it_speaks_of(
    engine: OfflineEngine,
) -> None:
    """attrs: "So on a laptop computer the difference is about 200 nanoseconds" says what the
    two `pyperf` runs before it show: with them it holds the question's words."""
    question = (
        "Per attrs' own pyperf numbers, roughly how much longer does it take to create one "
        "frozen slotted instance than an unfrozen slotted one?"
    )
    pick = await _pick(engine, question, [source("S1", "How Does It Work?", FROZEN_COST)])
    assert pick.found and pick.best is not None
    assert pick.best.passage.quote.startswith("So on a laptop computer the difference")
    # (a sentence going on to something else after the example is read alone)
    other = FROZEN_COST.replace("So on a laptop", "On a laptop")
    pick = await _pick(engine, question, [source("S1", "How Does It Work?", other)])
    assert not pick.found


async def test_a_value_asked_of_a_named_call_is_read_off_a_session_calling_it(
    engine: OfflineEngine,
) -> None:
    """humanize: "What text does humanize return for 1,000,000 bytes if I ask naturalsize for
    binary (IEC) units?" / `>>> humanize.naturalsize(1_000_000, binary=True)` `'976.6 KiB'`
    under its heading. ("IEC", in brackets after the words it glosses, is the asker's.)"""
    doc = sectioned("S1", "humanize", SESSIONS)
    question = (
        "What text does humanize return for 1,000,000 bytes if I ask naturalsize for binary "
        "(IEC) units?"
    )
    pick = await _pick(engine, question, [doc])
    assert pick.found and pick.best is not None
    assert "binary=True) → '976.6 KiB'" in " ".join(pick.best.passage.code)
    # (a call the question does not name is no answer to it)
    pick = await _pick(engine, question.replace("naturalsize", "filesize"), [doc])
    assert pick.best is None or not pick.best.passage.code


POOL_LIMIT = (
    "By default every connection instance has a limit of 10 connections. You can change this "
    "limit using `kombu.pools.set_limit`. You are able to grow the pool at runtime, but you "
    "can't shrink it, so it is best to set the limit as early as possible after your "
    "application starts.\n\n"
    "Kombu ships with two global pools: one connection pool, and one producer pool."
)


async def test_a_denial_beside_the_scenes_code_denies_the_ask_its_remedy_for_the_scene(
    engine: OfflineEngine,
) -> None:
    # the scene's `set_limit` is named by the sentence before; the advice after "so" is about
    # setting the limit, no way to shrink the pool
    question = (
        "At startup we call kombu.pools.set_limit(100). During quiet hours I'd like to shrink "
        "the pools back down to 20 connections at runtime. Which call shrinks them?"
    )
    pick = await _pick(
        engine, question, [source("S1", "Connection and Producer Pools", POOL_LIMIT)]
    )
    assert pick.denial is not None
    assert "you can't shrink it" in pick.denial.passage.text


SHARED_STORE = (
    "Long answer: Sharing a persistent job store among two or more processes will lead to "
    "incorrect scheduler behavior like duplicate execution or the scheduler missing jobs, etc. "
    "This is because APScheduler does not currently have any interprocess synchronization and "
    "signalling scheme that would enable the scheduler to be notified when a job has been "
    "added, modified or removed from a job store.\n\n"
    "Workaround: Run the scheduler in a dedicated process and connect to it via some sort of "
    "remote access mechanism like RPyC, gRPC or an HTTP server."
)


async def test_an_option_to_turn_on_what_the_sources_say_is_not_there_is_denied(
    engine: OfflineEngine,
) -> None:
    question = (
        "We run four gunicorn workers, each starting its own BackgroundScheduler against the "
        "same SQLAlchemyJobStore table. Which option turns on APScheduler's cross-process "
        "locking so each job runs in only one worker?"
    )
    faq = source("S1", "Frequently Asked Questions", SHARED_STORE)
    pick = await _pick(engine, question, [faq])
    assert pick.denial is not None and "interprocess" in pick.denial.passage.quote
    # … not an option for what the sources do have
    there = source("S1", "FAQ", SHARED_STORE.replace("does not currently have any", "has an"))
    assert (await _pick(engine, question, [there])).denial is None


@pytest.mark.parametrize(
    ("sentence", "terms", "dropped"),
    [
        ("*WSGI* support has been dropped, as well as gunicorn wsgi support.", ["wsgi"], True),
        ("Support for Python 2 was removed in 3.0.", ["python", "2", "version"], True),
        ("Windows is no longer supported.", ["windows", "worker"], True),
        ("WSGI support has been dropped.", ["aiohttp", "wrapper"], False),  # not what is asked
        ("WSGI support has been added.", ["wsgi"], False),
    ],
)
def test_support_said_dropped_for_a_feature_the_ask_names(
    sentence: str, terms: list[str], dropped: bool
) -> None:
    assert _support_dropped(sentence, terms) is dropped


JSON_RESPONSE = (
    "## WebSocket utilities\n\n"
    "`json`: Returns parsed JSON data of a WebSocket message.\n\n"
    "## ClientResponse\n\n"
    "If data is not still available a `read` call will be done. If response's "
    "`content-type` does not match `content_type` parameter `aiohttp.ContentTypeError` get "
    "raised. To disable content type check pass `None` value.\n"
)


async def test_a_passage_naming_the_error_the_asker_meets_comes_first_for_a_how(
    engine: OfflineEngine,
) -> None:
    question = (
        "A third-party service returns a perfectly valid JSON body but labels it Content-Type: "
        "text/html, so await resp.json() raises ContentTypeError. How do I get it parsed "
        "anyway, without reading the text and calling json.loads myself?"
    )
    reference = source("S1", "Client Reference", JSON_RESPONSE)
    pick = await _pick(engine, question, [reference])
    assert pick.best is not None and "pass `None`" in pick.best.passage.quote


UNIX_SOCKET = (
    "- `unix_socket`: Path of Unix socket (string). If a socket path is specified, a Unix "
    "domain socket is made instead of the usual inet domain socket. Not available on Windows. "
    "Default: `None`\n"
    "- `unix_socket_perms`: Octal permissions to use for the Unix domain socket (string). "
    "Default: `'600'`\n"
)


async def test_a_denial_with_the_named_setting_as_its_unsaid_subject_denies_the_ask(
    engine: OfflineEngine,
) -> None:
    question = (
        "On our Windows Server host a local proxy should talk to waitress over a Unix domain "
        "socket. What path format does waitress's unix_socket setting expect on Windows?"
    )
    arguments = source("S1", "Arguments to waitress.serve", UNIX_SOCKET)
    pick = await _pick(engine, question, [arguments])
    assert pick.denial is not None and "Not available on Windows" in pick.denial.passage.quote
    # … not when the ask is about something else the setting does not say
    question = "What path format does waitress's unix_socket setting expect on Linux?"
    assert (await _pick(engine, question, [arguments])).denial is None


PUSH_NOTE = (
    "Note: Server Push (PUSH_PROMISE) is not implemented. This is an optional HTTP/2 feature "
    "that is being deprecated in HTTP/3 and is rarely used in practice."
)
HTTP2_SETTINGS = (
    "`http2_max_concurrent_streams`: Default: 100; Maximum concurrent streams per connection\n\n"
    "Gunicorn supports HTTP 103 Early Hints, allowing servers to send resource hints before "
    "the final response. This enables browsers to preload CSS and JavaScript."
)


def push_sources() -> list[Source]:
    """HTTP/2's settings, and the note that server push is not implemented."""
    return [source("S1", "HTTP/2", HTTP2_SETTINGS), source("S2", "RFC Compliance", PUSH_NOTE)]


async def test_a_setting_to_enable_what_is_not_implemented_is_denied_whatever_the_scene(
    engine: OfflineEngine,
) -> None:
    # The scene's words ("turned", "CSS", "HTML") are rarer than the subject's ("push").
    question = (
        "We've turned on HTTP/2 in gunicorn and want to use server push to send our CSS and "
        "JS along with the HTML. Which setting enables push?"
    )
    sources = push_sources()
    pick = await _pick(engine, question, sources)
    assert pick.denial is not None and "not implemented" in pick.denial.passage.quote
    there = source("S2", "RFC Compliance", PUSH_NOTE.replace("is not implemented", "is on"))
    assert (await _pick(engine, question, [sources[0], there])).denial is None


EXECUTOR_DUTIES = (
    "The responsibilities of an executor are as follows:\n\n"
    "- Performing any initialization when `start()` is called\n"
    "- Releasing any resources when `shutdown()` is called\n"
    "- Keeping track of the number of instances of each job running on it, and refusing to run "
    "more than the maximum\n"
    "- Notifying the scheduler of the results of the job\n"
)
STORES = (
    "Job stores house the scheduled jobs. The default job store simply keeps the jobs in "
    "memory.\n\nTriggers contain the scheduling logic."
)


async def test_a_list_that_stands_out_answers_a_list_question_whatever_the_scene(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm writing a custom executor that hands jobs to our cluster. What duties is my "
        "executor expected to take on?"
    )
    duties = source("S1", "Custom executors", EXECUTOR_DUTIES)
    pick = await _pick(engine, question, [duties, source("S2", "Basic concepts", STORES)])
    assert pick.best is not None and pick.best.passage.is_list
    assert pick.best.coverage < MIN_COVERAGE and pick.found


def test_a_list_stands_out_only_well_ahead_of_every_other_section() -> None:
    listed = next(p for p in passages(source("S1", "Custom executors", EXECUTOR_DUTIES)))
    assert listed.is_list
    other = passages(source("S2", "Basic concepts", STORES))[0]
    item = next(
        p for p in passages(source("S1", "Custom executors", EXECUTOR_DUTIES)) if not p.is_list
    )

    def ranked(top: Passage, second: float) -> list[Choice]:
        return [Choice(top, 0.6, 0.7, 0.11, True), Choice(other, second, 0.5, 0.1, True)]

    assert _list_stands_out(ranked(listed, 0.5))
    assert not _list_stands_out(ranked(listed, 0.55))  # another section about as good
    assert not _list_stands_out(ranked(item, 0.3))  # not a list


def test_a_value_asked_for_comes_from_a_close_passage_of_the_same_section_that_holds_one() -> None:
    text = (
        "`SqliteDatabase(database, pragmas=None, timeout=5)`: Sqlite database implementation."
        "\n\n`timeout`: Get or set the busy timeout (seconds)."
    )
    found = passages(source("S1", "SqliteDatabase", text))
    valued = next(p for p in found if "timeout=5" in p.quote and len(p.sentences) == 1)
    bare = next(p for p in found if p.quote.startswith("`timeout`") and len(p.sentences) == 1)
    elsewhere = passages(source("S2", "Pools", "The pool holds 20 connections at most."))[0]

    def ranked(second: Passage, score: float) -> list[Choice]:
        return [Choice(bare, 0.62, 0.7, 0.8, False), Choice(second, score, 0.6, 0.3, True)]

    assert _valued_sibling_first(ranked(valued, 0.6))[0].passage is valued
    assert _valued_sibling_first(ranked(valued, 0.5))[0].passage is bare  # not close
    assert _valued_sibling_first(ranked(elsewhere, 0.61))[0].passage is bare  # another section


def test_a_sentence_that_only_sends_the_reader_elsewhere_is_recognised() -> None:
    # (marked down when ranked: "See the uWSGI documentation for more details." answers nothing)
    for sentence in (
        "See the uWSGI documentation for more details.",
        "For more information, see the deployment guide.",
        "Refer to the API reference.",
        "Usage of the adapter registry is documented in adapter-registry.",
        "The hooks are described in the plugin guide",
    ):
        assert _POINTER.match(sentence)
    assert not _POINTER.match("See the `--enable-threads` switch, which re-enables threads.")
    assert not _POINTER.match("Seeing the log helps.")
    assert not _POINTER.match("The registry is documented in detail, and it is thread-safe.")
    assert not _POINTER.match("Each adapter is described in terms of its interfaces: A to B.")


async def test_one_shared_word_is_not_enough_to_deny_a_premise(engine: OfflineEngine) -> None:
    pick = await _pick(engine, "What does HTTPX do with each?", [source("S1", "Proxies", PROXIES)])
    assert pick.denial is None


async def test_a_question_asking_whether_is_not_a_denied_premise(engine: OfflineEngine) -> None:
    pick = await _pick(
        engine, "Does HTTPX support HTTPS proxies?", [source("S1", "Proxies", PROXIES)]
    )
    assert pick.denial is None


RQ_DECODING = (
    "RQ needs a Redis connection.\n\n"
    "The encoding and decoding of Redis objects occur in multiple locations within the "
    "codebase, which means that the `decode_responses=True` argument of the Redis connection "
    "is not currently supported."
)


async def test_code_the_scene_of_a_yes_no_question_uses_said_unsupported_denies_it(
    engine: OfflineEngine,
) -> None:
    sources = [source("S1", "Connections", RQ_DECODING)]
    question = (
        "We turned on decode_responses=True on the Redis client we pass to our queues. Do we "
        "also need to tell the worker about it?"
    )
    pick = await _pick(engine, question, sources)
    assert pick.denial is not None
    assert "not currently supported" in pick.denial.passage.text
    # Asked whether it is supported, "not supported" is the answer, not a denied premise.
    pick = await _pick(engine, "Does RQ support decode_responses=True?", sources)
    assert pick.denial is None


CONVERTORS = (
    "Paths can use URI templating style to capture path components.\n\n"
    "You can use convertors to modify what is captured. The available convertors are:\n\n"
    "* `str` returns a string, and is the default.\n"
    "* `int` returns a Python integer.\n"
    "* `float` returns a Python float.\n"
    "* `uuid` return a Python `uuid.UUID` instance.\n"
    "* `path` returns the rest of the path.\n\n"
    "Path parameters are exposed as a dictionary on the request."
)


async def test_a_list_question_is_answered_by_the_list_whatever_its_length(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "Which path parameter convertors does the router support out of the box?",
        [source("S1", "Routing", CONVERTORS)],
    )
    assert pick.found and pick.best is not None
    assert pick.best.passage.is_list
    assert all(f"`{name}`" in pick.best.passage.text for name in ("str", "int", "uuid", "path"))


async def test_a_sentence_is_about_its_section_heading(engine: OfflineEngine) -> None:
    """ "this middleware class" under a heading naming it: a denied premise."""
    text = (
        "Enforces that all incoming requests must be https.\n\n"
        "There are no configuration options for this middleware class."
    )
    doc = source("S1", "middleware", text).model_copy(
        update={
            "chunks": [text],
            "chunk_sections": ["HTTPSRedirectMiddleware"],
            "chunk_ids": ["d:0"],
        }
    )
    other = source(
        "S2", "responses", "Returns an HTTP redirect. Uses a 307 status code by default."
    )
    pick = await _pick(
        engine,
        "Which option of HTTPSRedirectMiddleware sets the redirect status code?",
        [doc, other],
    )
    assert pick.denial is not None
    assert "no configuration options" in pick.denial.passage.text


async def test_a_negation_under_another_settings_name_denies_nothing_of_a_named_setting(
    engine: OfflineEngine,
) -> None:
    # The two names share "CACHE" and "SHARED"; only the asked one's entry speaks of it
    # (Flask's "What is the default value of SESSION_COOKIE_SAMESITE?" was "denied" by
    # "`SESSION_COOKIE_HTTPONLY`: Browsers will not allow JavaScript access …").
    listing = (
        "- `CACHE_SHARED_MEMORY`: By default, workers will not allow others to read a shared "
        "cached value.\n- `CACHE_DIR`: Where the cache lives on disk."
    )
    entry = "How long a shared cached value is kept, in seconds.\n\nDefault: `300`"
    doc = sectioned(
        "S1",
        "Configuration",
        [("Builtin Configuration Values", listing), ("`CACHE_SHARED_TTL`", entry)],
    )
    pick = await _pick(engine, "What is the default value of CACHE_SHARED_TTL?", [doc])
    assert pick.denial is None
    assert pick.found and pick.best is not None and "300" in pick.best.passage.quote


SSL_ERRORS = (
    "By default httpx will verify HTTPS connections, and raise an error for invalid SSL "
    'cases...\n\n```pycon\n>>> httpx.get("https://expired.badssl.com/")\nhttpx.ConnectError: '
    "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has expired\n```"
)
RETRIES = (
    "Connection retries are also available via this interface. Requests will be retried the "
    "given number of times in case an `httpx.ConnectError` or an `httpx.ConnectTimeout` "
    "occurs, allowing smoother operation under flaky networks.\n\n```pycon\n>>> transport = "
    "httpx.HTTPTransport(retries=1)\n```"
)


async def test_a_how_to_is_answered_by_a_passage_that_speaks_of_the_action_asked(
    engine: OfflineEngine,
) -> None:
    # httpx's docs: the SSL passage holds "failed", "connections" and "httpx", not "retry".
    pick = await _pick(
        engine,
        "How do I retry failed connections in httpx?",
        [source("S1", "Transports", RETRIES), source("S2", "SSL", SSL_ERRORS)],
    )
    assert pick.best is not None and "retr" in pick.best.passage.quote


def test_what_the_asker_never_needs_to_do_is_denied_only_for_their_kind_of_thing() -> None:
    never = (
        "You never need to use `super()` with attrs classes that inherit from other attrs classes."
    )
    assert denies(never)
    assert denies("There is no need to call `close()` yourself.")
    assert not denies("The package does not need to be installed.")  # a fact, not the asker
    # "non-attrs" is the other kind of class: the sentence is not about it
    assert _of_the_other_kind(never, "My class derives from a non-attrs framework class.")
    assert not _of_the_other_kind(never, "My attrs class subclasses another attrs class.")
    assert not _of_the_other_kind("Only non-attrs classes need it.", "a non-attrs base class")


def test_a_word_family_counts_but_a_longer_identifier_does_not() -> None:
    idf = {"": 1.0}
    assert coverage(["configuration"], "How to configure it.", "", idf) == 1.0
    assert coverage(["websocketexception"], "Close the websocket.", "", idf) == 0.0
    assert coverage(["websocketexception"], "`await websocket.close(code=1000)`", "", idf) == 0.0
    assert coverage(["websocketexception"], "", "WebSocketException", idf) == 0.5  # title: half


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        ("click.argument does not take a `help` parameter.", True),
        ("There are no configuration options for this middleware class.", True),
        (
            "Show the prompt only if the flag is given, instead of if the option is not provided.",
            False,
        ),
        ("Unless the feature is not supported by the server, it is used.", False),
        ("Click does not auto correct parameters, unlike argparse.", True),
        ("So Click does not attempt to be magical about this.", True),
        ("Click does not print anything here.", False),
        ("HTTPX does *not* support HTTPS proxies.", True),  # emphasis is markup
        ("It will happily write one for you, however it will **not** do so by default.", True),
        ("If you do not do so, the run fails.", False),
        # what follows from a condition is no statement that something is absent
        ("If you don't set `kw_only=True`, then there is no valid attribute ordering.", False),
        # not that way, or not there; a rule on the value or on use is no denial
        ("This option cannot be specified in the `pyproject.toml` config.", True),
        ("`allow_origins` cannot be set to `*` when credentials are allowed.", False),
        ("`--check` cannot be used in combination with `--diff`.", False),
        ("Isolation level cannot be specified for nested `atomic()` blocks.", True),
    ],
)
def test_a_denial_inside_a_condition_is_no_denial(sentence: str, denied: bool) -> None:
    assert denies(sentence) is denied


def test_identifiers_are_code_names_not_surnames() -> None:
    assert identifiers("How wide is the bar click.progressbar draws?") == ["click.progressbar"]
    assert identifiers("What max_age does CORSMiddleware use?") == ["max_age", "CORSMiddleware"]
    assert identifiers("When was Les McCann born, and when was LaGuardia built?") == []
    # three humps are code however short the first ("Web"): Starlette's WebSocketException
    assert identifiers("Which close code does WebSocketException use?") == ["WebSocketException"]


URLLIB3_MIGRATION = (
    "## What are the important changes?\n\n"
    "- Changed the default minimum TLS version to TLS 1.2 (previously was TLS 1.0).\n"
    "- Removed support for verifying certificate hostnames via `commonName`, now only "
    "`subjectAltName` is used.\n"
    "- Removed the default set of TLS ciphers."
)


async def test_a_camel_case_name_the_sources_say_is_removed_denies_the_premise(
    engine: OfflineEngine,
) -> None:
    assert identifiers("matching against the commonName on my iPhone") == ["commonName"]
    # "with no SAN" says what the asker's certificates lack; the question negates nothing
    question = (
        "Our internal CA issues server certificates with the hostname only in the CN field, "
        "with no SAN. Which option makes urllib3 2.x keep matching hostnames against the "
        "commonName?"
    )
    pick = await _pick(engine, question, [source("S1", "v2.0 Migration Guide", URLLIB3_MIGRATION)])
    assert pick.denial is not None and "commonName" in pick.denial.passage.quote


def test_a_line_of_code_in_the_question_names_the_code_in_it() -> None:
    # rq's docs deprecate "the use of <code>Connection</code> context manager": the question
    # quotes the whole statement, the sentence names the class it calls.
    question = (
        "Since the `with Connection(...)` context manager is RQ's recommended way to manage "
        "Redis connections, how do I nest two of them?"
    )
    assert "Connection" in identifiers(question)
    assert _gone_named(
        "The use of <code>Connection</code> context manager is deprecated.", identifiers(question)
    )
    assert identifiers("Old code does `from urllib3.connectionpool import X`.") == [
        "from urllib3.connectionpool import X",
        "urllib3.connectionpool",
    ]
    assert identifiers("I wrote `y = attr.ib()` there.") == ["y = attr.ib", "attr.ib"]
    assert identifiers("Can it run `async def` tests?") == ["async def"]  # no name in it


def test_a_name_that_only_says_which_kind_of_thing_is_gone_is_not_gone() -> None:
    # WTForms' "Deprecated API's": a definition's term run into its text denied three
    # questions naming WTForms ("The sources contradict the question's premise: WTForms
    # Extensions All the extensions are being deprecated.")
    said = "WTForms Extensions All the extensions are being deprecated."
    assert not _gone_named(said, ["WTForms"])
    assert _gone_named("WTForms was removed.", ["WTForms"])
    assert _gone_named("The WTForms extension is deprecated.", ["WTForms"])


def test_a_setting_given_a_value_in_code_is_denied_only_where_named_in_code() -> None:
    question = "I put `note = nightly build` under [run]. How do I read the note back?"
    assert assigned_names(question) == ["note"]
    assert assigned_names("Is `--fail-under=85` enough?") == ["--fail-under"]
    assert assigned_names("Is `https://example.org` or `std::vector` a setting?") == []
    assert _gone_named("The `[run] note` setting has been deprecated.", ["note"], in_code=True)
    # "Note that …" names no setting
    assert not _gone_named("Note that support for Python 2 was removed in 6.0.", ["note"], True)


def test_no_longer_doing_something_is_a_change_not_a_removal() -> None:
    # python-dotenv's change log: the function is still there, it does less
    cached = (
        "Cache the parsed result for empty `.env` files so repeated `dotenv_values`/"
        "`load_dotenv` calls no longer re-read the file."
    )
    assert not _gone_named(cached, ["load_dotenv"])
    assert not _gone_named("`dotenv get` no longer exits with code 1 for empty values.", ["get"])
    # what stops is the thing itself
    assert _gone_named("`load_dotenv` is no longer supported.", ["load_dotenv"])
    assert _gone_named("The `verbose` flag no longer has any effect.", ["verbose"])
    assert _gone_named("`load_dotenv` no longer exists; use `dotenv_values`.", ["load_dotenv"])


DOTENV_NOTES = (
    "## Load configuration\n\n"
    "python-dotenv reads key-value pairs from a `.env` file and can set them as environment "
    "variables.\n\n"
    "By default, `load_dotenv` does not override existing environment variables. "
    "Pass `override=True` to override existing variables.\n\n"
    "## Changes\n\n"
    "- Cache the parsed result for empty `.env` files so repeated `dotenv_values`/"
    "`load_dotenv` calls no longer re-read the file."
)
DOTENV_QUESTION = (
    "My shell already exports DATABASE_URL, but I want the value from my .env file to win "
    "when I call load_dotenv. What do I pass?"
)


async def test_a_deed_no_longer_done_denies_only_a_question_about_that_deed(
    engine: OfflineEngine,
) -> None:
    cached = "Repeated `load_dotenv` calls no longer re-read the file."
    assert _stops_another_deed(cached, analyse(DOTENV_QUESTION).terms)
    assert not _stops_another_deed(cached, analyse("Why does it re-read the file?").terms)
    # a need lifted denies the premise that it holds
    lifted = "A test marked with `loop_scope` no longer requires a class surrounding the test."
    assert not _stops_another_deed(lifted, analyse("Why does it only work in a class?").terms)
    assert not _stops_another_deed("`load_dotenv` is no longer supported.", ["value"])
    pick = await _pick(engine, DOTENV_QUESTION, [source("S1", "python-dotenv", DOTENV_NOTES)])
    assert pick.denial is None


def test_asked_what_to_pass_a_keyword_argument_shown_answers() -> None:
    assert _passes_keyword(DOTENV_QUESTION, "Pass `override=True` to override variables.")
    assert _passes_keyword("What should I pass?", "Call `connect(timeout=5)`.")
    # (one the question names already, or asked for the value of one it names)
    assert not _passes_keyword("What do I pass besides override=True?", "Pass `override=True`.")
    assert not _passes_keyword("What can I pass as the timeout?", "Use `timeout=5`.")
    assert not _passes_keyword("What does it return?", "Pass `override=True`.")


MORE_ITERTOOLS_NOTES = (  # more-itertools 11.2.1's docs/versions.rst, cut short
    "## 11.0.0\n\n"
    "- Python 3.9 support was dropped, since it went EOL on 2025-10-31\n"
    "- `zip_equal` was removed. Applications should use the standard library function `zip` "
    "with `strict=True` as a replacement.\n"
    "- `callback_iter` is deprecated. It will be removed in a future major release.\n"
    "- Parameter names for `flatten` and `prepend` have been changed.\n\n"
    "## 10.0.0\n\n- `batched` now yields tuples.\n"
)


async def test_asked_what_to_use_instead_the_successor_of_the_removed_code_answers(
    engine: OfflineEngine,
) -> None:
    question = (
        "After upgrading, a helper that did more_itertools.zip_equal(names, values) to catch "
        "length mismatches now dies with AttributeError. What am I supposed to use instead?"
    )
    pick = await _pick(engine, question, [source("S1", "Version History", MORE_ITERTOOLS_NOTES)])
    assert pick.found and pick.best is not None
    assert "strict=True" in pick.best.passage.quote
    # (asked nothing about a replacement, the same passage is no answer for it alone)
    asked = "After upgrading, zip_equal(names, values) dies. How long are the names allowed to be?"
    pick = await _pick(engine, asked, [source("S1", "Version History", MORE_ITERTOOLS_NOTES)])
    assert not pick.found


BACKEND_OPTIONS = (
    "## Backend specific options\n\n"
    "The asyncio backend accepts the `debug`, `loop_factory` and `use_uvloop` options.\n\n"
    "Changed in version 4.0.0: The `policy` option was replaced with `loop_factory`."
)


async def test_a_setting_named_in_words_is_denied_where_it_was_replaced(
    engine: OfflineEngine,
) -> None:
    question = (
        "We pass a custom event loop policy to run(). How do I also turn on debug mode "
        "alongside that policy option?"
    )
    assert assigned_names(question) == ["policy"]
    assert assigned_names("Which option turns it on?") == []  # no setting named
    replaced = "The `policy` option was replaced with `loop_factory`."
    assert _gone_named(replaced, ["policy"], True, said=_REPLACED)
    assert not _gone_named(replaced, ["policy"], True)  # (replaced is not removed, alone)
    assert not _gone_named(replaced, ["loop_factory"], True, said=_REPLACED)  # its successor
    pick = await _pick(engine, question, [source("S1", "The basics", BACKEND_OPTIONS)])
    assert pick.denial is not None
    assert "was replaced" in pick.denial.passage.quote


@pytest.mark.parametrize(
    ("text", "name", "named"),
    [
        ("Use the `progressbar` function.", "click.progressbar", True),
        ("Context.invoke merely invokes another command", "ctx.invoke", True),
        ("click.argument does not take a `help` parameter.", "click.argument", True),
        ("Each argument is positional.", "click.argument", False),  # a plain word
        ("Set `max_age` to a number of seconds.", "max_age", True),
        ("Remove dependency on require.js (#1218).", "Node.js", False),  # a suffix, no member
        ("`aiohttp.ContentTypeError` get raised.", "ContentTypeError", True),  # by its module
        ("`aiohttp.contenttypeerror` get raised.", "contenttypeerror", False),  # no class name
    ],
)
def test_a_code_name_is_named_as_code_not_as_a_plain_word(
    text: str, name: str, named: bool
) -> None:
    assert names_code(text, name) is named


HELP = (
    "The default behavior of Click is to rewrap text based on the width of the terminal, to a "
    "maximum 80 characters.\n\nHelp pages are generated from docstrings."
)
PROGRESS = (
    "Click provides the `progressbar` function to show progress.\n\n"
    "The bar is drawn on standard output and updated as items are consumed."
)


async def test_a_value_for_another_thing_than_the_one_named_is_not_found(
    engine: OfflineEngine,
) -> None:
    sources = [source("S1", "Help texts", HELP), source("S2", "Utilities", PROGRESS)]
    question = "How many characters wide is the bar that click.progressbar draws by default?"
    pick = await _pick(engine, question, sources)
    assert not pick.found


def test_a_dotted_name_is_held_by_the_same_member_of_another_object() -> None:
    idf = {"": 1.0}
    assert coverage(["ctx.invoke"], "Context.invoke invokes a command.", "", idf) == 1.0
    assert coverage(["ctx.invoke"], "You can invoke a command.", "", idf) == 0.0
    # … and by its last part written as code: `fields.Method` is "A `Method` field"
    text = "A `Method` field will serialize to the value returned by a method of the Schema."
    assert coverage(["fields.Method"], text, "", idf) == 1.0
    assert coverage(["fields.Method"], "Call a method of the Schema.", "", idf) == 0.0


def test_the_scene_of_a_question_weighs_half_of_what_it_asks() -> None:
    idf = {"": 1.0}
    terms, focus = ["testing", "clirunner", "prompts"], ("prompts",)
    assert coverage(terms, "testing with clirunner", "", idf, focus) == 0.5
    assert coverage(terms, "answering prompts", "", idf, focus) == 0.5
    assert coverage(terms, "testing with clirunner", "", idf) > 0.6


def test_a_synonym_counts_towards_coverage() -> None:
    idf = {"": 1.0}
    held = coverage(["throws", "entries"], "The following processor drops every entry.", "", idf)
    assert held > 0.5  # "drops" stands for "throws … away"
    unrelated = coverage(["throws", "entries"], "Every entry gets a timestamp.", "", idf)
    assert unrelated < held
    # "doubling the delay" is what "exponential backoff" does
    text = "It's hard to beat exponential backoff when retrying remote endpoints."
    assert coverage(["doubling", "delay"], text, "", idf) > 0.3
    # stages are phases
    assert coverage(["stages"], "Coverage.py works in three phases:", "", idf) > 0.5
    # blinker: "run in the same sequence I connected them in" / "in order of registration"
    held = coverage(["sequence", "connected"], "Call receivers in order of registration.", "", idf)
    assert held > 0.5
    assert coverage(["handler"], "It invokes the receiver function.", "", idf) > 0.5
    # attrs: "when I assign a new value to a field" / "validators run … on attribute setting"
    text = "Validators run on initialization and on attribute setting."
    assert coverage(["assign"], text, "", idf) > 0.5
    # aiohttp: "Is that a built-in cap?" / "a maximum of 100 connections"
    text = "The session holds a connector with a maximum of 100 connections."
    assert coverage(["cap"], text, "", idf) > 0.5
    # waitress: "What file mode does it give the socket?" / "Octal permissions to use"
    assert coverage(["mode"], "Octal permissions to use for the socket.", "", idf) > 0.5
    assert coverage(["mode"], "Octal digits to use for the socket.", "", idf) == 0.0
    # aiohttp: "What is the overall deadline by default?" / "a total 300 seconds timeout"
    text = "By default aiohttp uses a total 300 seconds timeout."
    assert coverage(["overall", "deadline"], text, "", idf) > 0.5


def test_the_opposite_of_what_is_asked_speaks_of_it() -> None:
    idf = {"": 1.0}
    text = "The `TimeDelta` field now preserves float values."
    # "does the fraction still get thrown away?" is answered by "preserves"
    assert coverage(["fraction", "thrown"], text, "", idf) == pytest.approx(0.4)
    assert coverage(["fraction", "thrown"], "The field parses strings.", "", idf) == 0.0
    # … but the scene's complaint ("Black keeps it spread out") is no word of the answer
    lost = "Such expressions are reformatted, so this whitespace is lost."
    assert coverage(["keeps", "collapsed"], lost, "", idf, focus=("collapsed",)) == 0.0
    assert coverage(["keeps", "collapsed"], lost, "", idf) > 0.0


def test_without_configuration_covers_a_question_about_the_default_setup() -> None:
    terms = analyse("I haven't configured structlog at all. Which logger writes my lines?").terms
    assert "default" in terms
    idf = {"": 1.0}
    text = "Calling `get_logger` without configuration gives you a `PrintLogger`."
    assert coverage(["default"], text, "", idf) > 0.5


def test_british_spelling_in_the_question_meets_american_in_the_docs() -> None:
    idf = {"": 1.0}
    assert coverage(["colours"], "NO_COLOR disables colors.", "", idf) == 1.0


async def test_which_logger_prefers_a_passage_naming_a_logger_class(engine: OfflineEngine) -> None:
    text = (
        "Let's start with the convenience function that relies on configuration: "
        "`structlog.get_logger`.\n\n"
        "Calling `structlog.get_logger` without configuration gives you a perfectly useful "
        "`structlog.PrintLogger`."
    )
    pick = await _pick(
        engine,
        "I haven't configured structlog. Which logger ends up writing my log lines?",
        [source("S1", "Configuration", text)],
    )
    assert pick.best is not None and "PrintLogger" in pick.best.passage.text


async def test_which_environment_variable_prefers_one_the_question_does_not_name(
    engine: OfflineEngine,
) -> None:
    text = (
        "The default configuration uses colors if standard out is a TTY.\n\n"
        "`NO_COLOR` disables colors, regardless of the value of `FORCE_COLOR`."
    )
    pick = await _pick(
        engine,
        "Our CI sets FORCE_COLOR, but I want no colours. Which environment variable wins?",
        [source("S1", "Console Output", text)],
    )
    assert pick.best is not None and "NO_COLOR" in pick.best.passage.text


def test_ctrl_c_is_held_by_a_keyboard_interrupt() -> None:
    idf = {"": 1.0}
    text = "In there it handles the standard EOFError and KeyboardInterrupt exceptions."
    assert coverage(["ctrl-c"], text, "", idf) > 0.5


async def test_a_negated_sentence_on_the_scenes_words_is_no_denied_premise(
    engine: OfflineEngine,
) -> None:
    # A question's scene ("structlog stays silent until it is configured") is not checked
    # against negated sentences that share its words: over seven question sets that reading
    # was right once in nine times (docs/journal/answers.md, "Tenth pass"); the ask is answered.
    text = (
        "Calling `get_logger` without configuration gives you a perfectly useful "
        "`PrintLogger`.\n\nWe don't believe silent loggers are a sensible default.\n\n"
        "To have consistent output, configure structlog before any logging is done.\n\n"
        "structlog works with standard library logging, and logging works with structlog.\n\n"
        "Once structlog is configured, standard library logging can be configured too."
    )
    question = (
        "Like logging, structlog stays silent until it is configured. What is the smallest "
        "configure() call that makes it print anything?"
    )
    pick = await _pick(engine, question, [source("S1", "Configuration", text)])
    assert pick.denial is None


async def test_a_scene_the_sources_only_qualify_is_not_denied(engine: OfflineEngine) -> None:
    text = (
        "You can use `wrap_logger` to wrap a logger without any global state.\n\n"
        "And you don't want to see log entries from function `f`.\n\n"
        "The `CallsiteParameterAdder` adds the function name to the event dict."
    )
    question = (
        "One chatty function floods the info log. How can I suppress just the entries that "
        "come from that function?"
    )
    pick = await _pick(engine, question, [source("S1", "Recipes", text)])
    assert pick.denial is None


async def test_a_scene_reporting_trouble_is_no_premise_to_deny(engine: OfflineEngine) -> None:
    text = (
        "All the decorators are implemented using an object that is returned by the call to "
        "`attrs.field`.\n\n"
        "Attributes that only carry a class annotation do not have that object so trying to "
        "call a method on it will inevitably fail.\n\n"
        "If you really need to monkeypatch an instance in your tests, you can always subclass "
        "a slotted class as a dict class."
    )
    other = (  # makes "test" and "instance" common words, "method" the scene's rarest
        "Every test makes an instance.\n\nA test saying which instance it uses is clearer."
        "\n\nDefine the test instance once."
    )
    question = (
        "A test has to mock.patch.object a method on one instance of a @define class, but it "
        "fails saying the attribute is read-only. How can the test do it without changing the "
        "production class?"
    )
    sources = [source("S1", "Glossary", text), source("S2", "Testing", other)]
    pick = await _pick(engine, question, sources)
    assert pick.denial is None
    assert pick.best is not None and "subclass" in pick.best.passage.text


async def test_a_negation_about_something_else_than_the_premise_denies_nothing(
    engine: OfflineEngine,
) -> None:
    text = (
        "Support for `__slots__` has only been added to dataclasses in Python 3.10, but it "
        "doesn't do cell rewriting.\n\n"
        "Slotted classes are the default in attrs."
    )
    question = (
        "Since 3.10, dataclasses can generate __slots__ as well. What do slotted classes "
        "still get right?"
    )
    pick = await _pick(engine, question, [source("S1", "Why not", text)])
    assert pick.denial is None


SETUP = DEFAULT_SETUP + "\nThe timestamps of the console output are easy on the eye and colorful."


async def test_the_default_setup_in_code_answers_what_the_defaults_are(
    engine: OfflineEngine,
) -> None:
    question = "Out of the box, what format do the timestamps have, and are they in UTC?"
    pick = await _pick(engine, question, [source("S1", "Getting started", SETUP)])
    assert pick.best is not None and pick.best.passage.is_defaults
    assert "utc=False" in pick.best.passage.text


async def test_the_default_setup_in_code_does_not_answer_other_questions(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(engine, "How do I add a timestamp?", [source("S1", "Guide", SETUP)])
    assert pick.ranked and not any(c.passage.is_defaults for c in pick.ranked)


def test_a_sentence_that_adds_the_questions_words_earns_half_its_place_in_a_window() -> None:
    terms = ["cache", "logger", "capture", "logs", "configuration", "tests"]
    idf = {"": 1.0}
    answer = "If you have cache_logger_on_first_use enabled, cached loggers are not affected."
    adds = "Note: `capture_logs()` relies on changing the configuration."
    idle = "The console output comes in nice colors."

    def penalty(sentences: list[str]) -> float:
        whole = coverage(terms, " ".join(sentences), "", idf)
        return window_penalty(sentences, whole, terms, "", idf)

    assert penalty([answer]) == 0.0
    assert penalty([adds, answer]) == pytest.approx(WINDOW_PENALTY / 2)
    assert penalty([answer, idle]) == pytest.approx(WINDOW_PENALTY)


IMMUTABLE = (
    "Bound loggers are immutable, so it's not possible to modify a context directly.\n\n"
    "The context can only be modified by creating a new bound logger using its `bind()` and "
    "`unbind()` methods.\n\n"
    "Processors are called with the logger, the method name and the event dictionary.\n\n"
    "A bound logger wraps the logger that writes the log lines."
)


async def test_the_nearest_sentence_saying_it_cannot_be_done_denies_in_other_words(
    engine: OfflineEngine,
) -> None:
    # "in place" against "immutable … not possible to modify": no word of the question's own
    question = (
        "How do I add a key to an existing bound logger's context in place, so every piece "
        "of code holding that same logger object sees it?"
    )
    pick = await _pick(engine, question, [source("S1", "Glossary", IMMUTABLE)])
    assert pick.denial is not None and "not possible" in pick.denial.passage.text


async def test_a_far_sentence_saying_something_cannot_be_done_denies_nothing(
    engine: OfflineEngine,
) -> None:
    question = "How do I pass the event dictionary to my processors?"
    pick = await _pick(engine, question, [source("S1", "Glossary", IMMUTABLE)])
    assert pick.denial is None


@pytest.mark.parametrize(
    ("term", "text"),
    [
        ("integer", "x = field(converter=int)"),
        ("string", "def f(x: str) -> None: ..."),
        ("turn", "Attributes can have a `converter` function."),
    ],
)
def test_an_everyday_word_is_held_by_pythons_own_name_for_it(term: str, text: str) -> None:
    assert coverage([term], text, "", {"": 1.0}) > 0.5


def test_a_sentences_first_word_and_an_abbreviation_are_no_unknown_names() -> None:
    sources = [source("S1", "Proxies", PROXIES)]
    question = "How old is HTTPX, i.e. when was it released? Apart from that, does Zscaler work?"
    assert unknown_names(question, sources) == ["Zscaler"]
    assert identifiers("How old is it, i.e. when was it released, e.g. in 2015?") == []


def test_a_class_the_sources_name_by_its_module_is_no_unknown_name() -> None:
    """boltons' changelog writes `iterutils.GUIDerator`; "the smallest size GUIDerator
    accepts" names what the sources know. A file's extension names no thing."""
    sources = [
        source(
            "S1",
            "Changelog",
            "Fixed [`iterutils.GUIDerator`][iterutils.GUIDerator] error text to reflect the "
            "inclusive minimum size of 20. The coverage report is written to `report.html`.",
        )
    ]
    assert unknown_names("What is the smallest size GUIDerator accepts?", sources) == []
    assert unknown_names("Which HTML escaping does it use?", sources) == ["HTML"]


def test_a_function_named_with_its_module_the_sources_name_apart_is_no_unknown_name() -> None:
    """simplejson 4.3.0's docs, read by a new user: headed "`simplejson` --- JSON encoder and
    decoder", they document ".. function:: loads(…)"; "simplejson.loads" is what they know."""
    sources = [
        source(
            "S1",
            "`simplejson` --- JSON encoder and decoder",
            "simplejson exposes an API familiar to users of the standard library.\n\n"
            ".. function:: loads(s, encoding='utf-8', cls=None, object_hook=None)\n\n"
            "Deserialize *s* to a Python object. If *use_decimal* is true (default: "
            "``False``) then *parse_float* is set to :class:`decimal.Decimal`.",
        )
    ]
    question = "How do I get simplejson.loads to give me Decimal values instead?"
    assert unknown_names(question, sources) == []
    # (a function the module does not have is still unknown)
    assert unknown_names("What does simplejson.load_lines return?", sources) == [
        "simplejson.load_lines"
    ]


def test_a_hyphenated_name_written_with_a_code_span_is_no_unknown_name() -> None:
    """configobj 5.0.9's docs write "`ConfigParser`-style interpolation"; a new user's
    "How do ConfigParser-style and Template-style string interpolation differ …?" was told
    the documents do not answer it."""
    sources = [
        source(
            "S1",
            "Reading and Writing Config Files",
            "Note that `ConfigParser`-style interpolation and `Template`-style interpolation "
            "are mutually exclusive. Pick one and stick to it.",
        )
    ]
    question = "How do ConfigParser-style and Template-style string interpolation differ?"
    assert unknown_names(question, sources) == []
    assert unknown_names("How does INI-style interpolation work?", sources) == ["INI-style"]


def test_an_error_named_with_its_message_answers_which_exception_comes_back() -> None:
    from dataclasses import replace

    from backend.reasoning.offline.passages import passages

    shown = (
        "Removing an interface that is provided through the class is not possible: "
        "`noLongerProvides(c, I1)` `ValueError: Can only remove directly provided interfaces.`"
    )
    question = "In a test I call noLongerProvides(obj, IThing). What exception comes back?"
    # (the ask's own words, as a later ask of a question carries them: "back" read as return)
    asked = replace(analyse(question), focus=("exception", "comes", "return"))
    passage = passages(source("S1", "README", shown))[0]
    assert _holds_the_ask(asked, Choice(passage, 0.5, 0.3, 0.2, True), {"": 1.0}, question)
    # the kind asked for must be there: a sentence naming no exception does not hold the ask
    said = passages(source("S2", "README", "Removing it is not possible; it comes back."))[0]
    assert not _holds_the_ask(asked, Choice(said, 0.5, 0.3, 0.2, True), {"": 1.0}, question)


def test_a_property_in_a_compound_word_the_sources_never_use_is_unknown() -> None:
    sources = [source("S1", "Proxies", PROXIES)]
    asked = "Is the proxy support thread-safe, or do I need a lock?"
    assert unknown_names(asked, sources) == ["thread-safe"]
    # a compound whose words the sources use, or one that says how rather than what, is known
    assert (
        unknown_names("Is there a built-in proxy for long-running HTTPS requests?", sources) == []
    )
    assert unknown_names("Can the proxy-url be set per request?", sources) == []
    # a word that only says how new or how fixed (tomlkit: "add a brand-new table")
    assert unknown_names("How do I add a brand-new proxy to a session?", sources) == []
    assert unknown_names("Can I pass a hard-coded proxy to each request?", sources) == []


def test_the_parts_of_a_url_or_path_the_asker_writes_are_no_unknown_names() -> None:
    sources = [source("S1", "Proxies", PROXIES)]
    question = (
        'Our requests to "https://api.example.com/v2" come back from /users/v3. Does Zscaler '
        "keep the /v2 prefix?"
    )
    assert unknown_names(question, sources) == ["Zscaler"]


def test_a_sentence_is_compared_with_the_question_under_its_heading() -> None:
    described = source("S1", "Settings", "Serve files through the web server.")
    described.chunks = ["Serve files through the web server."]
    described.chunk_sections = ["`USE_X_SENDFILE`"]
    assert under_heading(described, "Serve files through the web server.") == (
        "`USE_X_SENDFILE`: Serve files through the web server."
    )
    untitled = source("S2", "Sending files", "It streams the file.")
    assert under_heading(untitled, "It streams the file.") == "Sending files: It streams the file."


async def test_a_list_answers_a_list_question_as_one_unit_without_a_window_penalty(
    engine: OfflineEngine,
) -> None:
    sources = [source("S1", "Routing", CONVERTORS)]
    asked_list = await _pick(
        engine, "Which path parameter convertors does the router support?", sources
    )
    not_list = await _pick(
        engine, "What does the router do with path parameter convertors?", sources
    )
    assert asked_list.ranked is not None and not_list.ranked is not None
    as_list = next(c for c in asked_list.ranked if c.passage.is_list)
    again = next(c for c in not_list.ranked if c.passage.quote == as_list.passage.quote)

    def rest(choice: Choice) -> float:  # the score beyond similarity, coverage and cue
        return choice.score - 0.40 * choice.similarity - 0.35 * choice.coverage - 0.20 * choice.cue

    # Asked for a list, the list pays nothing for its length; asked otherwise, it does.
    assert rest(as_list) - rest(again) == pytest.approx(WINDOW_PENALTY * LIST_WINDOWS, abs=1e-3)


async def test_the_nearest_sentence_saying_something_was_removed_denies_nothing_unnamed(
    engine: OfflineEngine,
) -> None:
    # "was removed" is said of a named thing; near in meaning, it denies nothing else.
    text = (
        "The previously built-in search functionality has been removed and wrapped in a "
        "plugin with no changes in behavior.\n\n"
        "By default searches shorter than 3 chars in length are ignored."
    )
    plugins = (  # the corpus speaks of search and plugins everywhere
        "The search plugin builds an index of every page.\n\nEach plugin has its own "
        "settings.\n\nA plugin may add a search box to the theme.\n\nPlugins are listed in "
        "the plugins setting, and the search plugin is one of them."
    )
    question = "What is the shortest search term the search plugin accepts by default?"
    sources = [source("S1", "Release notes", text), source("S2", "Plugins", plugins)]
    pick = await _pick(engine, question, sources)
    assert pick.denial is None
    assert denies(text.split("\n\n")[0]) and not denies(text.split("\n\n")[0], gone=False)


TO_BOOL = (
    "Converters\n\n"
    "Converters are run before validators.\n\n"
    "`to_bool(val)` converts common strings to booleans. For example:\n\n"
    "```\n"
    ">>> @define\n"
    "... class C:\n"
    "...     x = field(converter=to_bool)\n"
    '>>> C("yes")\n'
    "C(x=True)\n"
    '>>> C("norway")\n'
    "Traceback (most recent call last):\n"
    "ValueError: Cannot convert value to bool: norway\n"
    "```\n"
)


async def test_an_example_running_the_input_the_question_quotes_answers_it(
    engine: OfflineEngine,
) -> None:
    # Not a "how do I": code would not be a candidate, but it shows what happens to "norway".
    question = 'A field uses to_bool. What happens if someone passes a string like "norway"?'
    pick = await _pick(engine, question, [source("S1", "Converters", TO_BOOL)])
    assert pick.found and pick.best is not None and pick.best.passage.is_code
    unquoted = await _pick(
        engine,
        "A field uses to_bool. What happens if someone passes a strange string?",
        [source("S1", "Converters", TO_BOOL)],
    )
    assert unquoted.best is not None and not unquoted.best.passage.is_code


def test_a_sentence_leaning_on_the_one_before_costs_a_window_nothing() -> None:
    idf = {"": 1.0}
    terms = ["trim", "field", "pre_load"]
    leaning = ["Pass `pre_load` callables to fields.", "This is useful for simple changes."]
    idle = ["Pass `pre_load` callables to fields.", "Hooks run in order."]
    assert window_penalty(leaning, 0.0, terms, "", idf) == 0.0
    assert window_penalty(idle, 0.0, terms, "", idf) == pytest.approx(WINDOW_PENALTY)
    # A biography's next fact is no continuation: "He won five titles." is a fact of its own.
    facts = ["Ruben Bagger is a Danish football player.", "He won five titles with Brøndby."]
    assert window_penalty(facts, 0.0, ["club"], "", idf) == pytest.approx(WINDOW_PENALTY)


@pytest.mark.parametrize(
    ("question", "history"),
    [
        ("What is the intended way to build the object?", True),
        ("What replaced make_object?", False),  # asks about the change itself
        ("Which method was deprecated for building objects?", False),
    ],
)
def test_what_was_deprecated_is_history_unless_the_question_asks_about_a_change(
    question: str, history: bool
) -> None:
    from backend.reasoning.offline.passages import passages
    from backend.reasoning.offline.pick import _only_history

    text = "The make_object method was deprecated from the Schema API.\n\nUse a post_load method."
    gone, use = [p for p in passages(source("S1", "Upgrading", text)) if len(p.sentences) == 1]
    assert _only_history(gone, question) is history
    assert not _only_history(use, question)


@pytest.mark.parametrize(
    ("sentence", "gone"),
    [
        ("`fields.FormattedString` field is removed.", True),
        ("- Remove `ujson` support.", True),
        ("The session cookie is removed when the browser closes.", False),  # a mechanism
        ("`max_age` is removed from the response headers for expired cookies.", False),
        ("`Schema.context` is removed in 4.0.", True),
    ],
)
def test_a_thing_named_in_code_is_removed(sentence: str, gone: bool) -> None:
    assert denies(sentence) is gone


async def test_a_sentence_saying_the_named_code_is_removed_denies_the_premise(
    engine: OfflineEngine,
) -> None:
    text = (
        "Upgrading to 4.0\n\n"
        "`fields.FormattedString` field is removed.\n\n"
        "Use fields.Function or fields.Method instead.\n\n"
        "Schemas serialize objects to dictionaries and back.\n\n"
        "Each field has its own options for output formatting."
    )
    sources = [source("S1", "Upgrading", text)]
    question = 'How do I configure fields.FormattedString to output "{first} {last}" as a name?'
    pick = await _pick(engine, question, sources)
    assert pick.denial is not None and "is removed" in pick.denial.passage.quote
    # Said of another thing, it denies nothing about fields.Function.
    other = await _pick(engine, "How do I configure fields.Function to output a name?", sources)
    assert other.denial is None


def test_a_hyphenated_word_is_held_by_its_parts_written_apart() -> None:
    text = "You can also use `copy.replace` from the standard library."
    assert coverage(["standard-library"], text, "", {"": 1.0}) == 1.0
    assert coverage(["standard-deviation"], text, "", {"": 1.0}) == 0.0


def test_a_number_with_its_unit_run_together_is_held_by_the_number() -> None:
    text = "The task below is retried after 10 seconds, then 20, then 40."
    assert coverage(["10s", "20s", "40s"], text, "", {"": 1.0}) == 1.0
    assert coverage(["30s"], text, "", {"": 1.0}) == 0.0


SERVING = (
    "The development server reloads the code when a file changes. "
    "Some browsers try to access ipv6 first and then ipv4, which can be slow.\n\n"
    "At the current time the integrated webserver does not support ipv6 and ipv4 at the same "
    "time and for better portability ipv4 is the default.\n\n"
    "Pass `threaded=True` to handle each request in a thread."
)


QUICKSTART = (
    "Start the development server with `run_simple`. The development server is not for "
    "production. Configure the development server with a host name and a port. The server "
    "restarts at any time a module changes. It can listen on any port you choose."
)
DEBUGGING = (
    "The development server can show an interactive debugger. Configure it with "
    "`use_debugger=True`. The debugger runs in the server process."
)


async def test_a_denial_holding_two_of_the_three_rarest_words_denies_the_premise(
    engine: OfflineEngine,
) -> None:
    # "listen", the rarest word, is not in the denial; "ipv4" and "ipv6" said together are.
    pick = await _pick(
        engine,
        "How do I configure the development server to listen on IPv4 and IPv6 at the same time?",
        [
            source("S1", "Serving", SERVING),
            source("S2", "Quickstart", QUICKSTART),
            source("S3", "Debugging", DEBUGGING),
        ],
    )
    assert pick.denial is not None
    assert "does not support ipv6 and ipv4" in pick.denial.passage.text


INSTALLING = (
    "We recommend using the latest version of Python. Jinja supports Python 3.7 and newer. "
    "Install the most recent Jinja version using pip."
)
DESIGN = (
    "Jinja doesn't allow arbitrary Python code in templates, or every feature available in "
    "the Python language. Templates are kept apart from the program's logic."
)


async def test_two_rare_words_of_a_short_question_do_not_make_a_denial_about_it(
    engine: OfflineEngine,
) -> None:
    # Four words: "Python" and "Jinja" in a denial are chance, not the subject asked about.
    pick = await _pick(
        engine,
        "What's the oldest Python version I can run Jinja on?",
        [source("S1", "Introduction", INSTALLING), source("S2", "Design", DESIGN)],
    )
    assert pick.denial is None
    assert pick.best is not None and "3.7" in pick.best.passage.text


MACROS = (
    "Template inheritance lets child templates override blocks of a base layout. "
    "Due to how scopes work in Jinja, a macro in a child template does not override a macro "
    "in a parent template. Macros can be imported from other templates."
)


async def test_a_premise_the_question_states_is_denied_in_its_own_words(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "Since redefining a macro in a child template overrides the parent layout's macro of "
        "the same name, what's the cleanest way to customize a layout macro per page?",
        [source("S1", "Template Designer Documentation", MACROS)],
    )
    assert pick.denial is not None
    assert "does not override a macro" in pick.denial.passage.text


UNITTEST = (
    "pytest supports running unittest-based tests out of the box. "
    "Note: `unittest.TestCase` methods cannot directly receive fixture arguments as "
    "implementing that is likely to inflict on the ability to run general unittest suites. "
    "Autouse fixtures can be used instead."
)


async def test_what_cannot_be_done_denies_the_premise_whatever_the_verb(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "In my unittest.TestCase subclass, how do I have the tmp_path fixture passed in as an "
        "argument to a test method?",
        [source("S1", "How to use unittest-based tests", UNITTEST), source("S2", "Intro", DESIGN)],
    )
    assert pick.denial is not None
    assert "cannot directly receive fixture arguments" in pick.denial.passage.text
    assert not denies("You cannot only read it but also write it.")
    assert not denies("However, the result can not always be serialized.")


SALT = (
    "The salt is combined with the secret key to derive a unique key for each context. "
    "Unlike the secret key, the salt doesn't have to be random, and can be saved in code. "
    "It only has to be unique between contexts, not private."
)
SECRET = (
    "The secret key should be a long random string. This value must be kept secret and "
    "should not be saved in source code or committed to version control."
)


async def test_a_premise_that_something_must_be_is_denied_by_need_not(
    engine: OfflineEngine,
) -> None:
    # The ask holds a negation ("so it isn't in my source code"); the premise does not.
    pick = await _pick(
        engine,
        "Since the salt has to be kept secret just like the secret key, where should I store "
        "the salt so it isn't in my source code?",
        [source("S1", "The Salt", SALT), source("S2", "The Secret Key", SECRET)],
    )
    assert pick.denial is not None
    assert "the salt doesn't have to be random" in pick.denial.passage.text


CANONICAL = (
    "This function takes a string representing a package version (or a Version instance), and "
    "returns the normalized form of it. By default, it strips trailing zeros from the release "
    "segment."
)
WHEEL = (
    "This function takes the filename of a wheel file, and parses it, returning a tuple of "
    "name, version, build number, and tags."
)


async def test_a_why_question_takes_its_ask_for_granted(engine: OfflineEngine) -> None:
    # "Why does X keep trailing zeros?" assumes it keeps them; the docs say it strips them.
    pick = await _pick(
        engine,
        "Why does canonicalize_version keep the trailing zeros of a version like 1.4.0.0?",
        [source("S1", "Utilities", CANONICAL), source("S2", "Wheels", WHEEL)],
    )
    assert pick.denial is not None
    assert "strips trailing zeros" in pick.denial.passage.text
    # Asked why it strips them, the same sentence agrees: nothing is denied.
    agreed = await _pick(
        engine,
        "Why does canonicalize_version strip the trailing zeros of a version like 1.4.0.0?",
        [source("S1", "Utilities", CANONICAL), source("S2", "Wheels", WHEEL)],
    )
    assert agreed.denial is None


def test_a_versioned_name_no_source_mentions_is_unknown() -> None:
    sources = [source("S1", "Serving", "The server speaks HTTP/1.1 and supports IPv6 and HTTP.")]
    assert unknown_names("Does the development server support HTTP/2?", sources) == ["HTTP/2"]
    assert unknown_names("Does the development server support HTTP/1.1?", sources) == []
    assert unknown_names("Does the server speak HTTP?", sources) == []


MATRIX_NAMES = (
    "## Name formatting\n\n"
    "You can set the `matrix-name-format` option to modify how each variable part is "
    "formatted.\n\nBy default this option is set to `{value}`."
)


async def test_an_acronym_only_the_scene_carried_into_a_later_ask_is_no_unknown_name(
    engine: OfflineEngine,
) -> None:
    sources = [source("S1", "Environment matrix", MATRIX_NAMES)]
    ask = "What is it set to by default?"
    # ("CI" is an acronym of the trade, no name: "TAP" is one)
    query = f"Our matrix names are hard to read in TAP logs. option changes part written {ask}"
    plan: Plan = await engine.plan(query, ["docs"])
    asked = analyse(query)
    assert not choose(asked, plan, sources, engine.vectors).found  # "TAP": unknown
    assert choose(asked, plan, sources, engine.vectors, ask=ask).found
    # … but an acronym the ask itself says still is
    ask = "What is its TAP default?"
    plan = await engine.plan(f"Our matrix names are hard to read. {ask}", ["docs"])
    asked = analyse(plan.query)
    assert not choose(asked, plan, sources, engine.vectors, ask=ask).found


def test_a_phrase_of_code_no_source_says_is_unknown() -> None:
    sources = [source("S1", "Fixtures", "Define a fixture with `def` and request it by name.")]
    question = "How do I write my tests as `async def` coroutines and have pytest await them?"
    assert unknown_names(question, sources) == ["async def"]
    assert unknown_names("How do I write a fixture with `def`?", sources) == []
    # a hyphenated name in backticks is the asker's own
    assert unknown_names("What does the `test-ci` environment run?", sources) == []


EXIT_STATUS = """Don't write the files back, just return the status. The formatter will exit with:

- code 0 if nothing would change;
- code 1 if some files would be reformatted; or
- code 123 if there was an internal error

If used in combination with `--quiet` then only the exit code will be returned, unless there \
was an internal error.
"""


async def test_a_list_item_is_read_with_its_lists_lead_in(engine: OfflineEngine) -> None:
    # "code 123 if there was an internal error" says nothing of an exit status on its own.
    question = "What exit status does the formatter return when it hits an internal error?"
    asked = analyse(question)
    pick = await _pick(engine, question, [source("S1", "The basics", EXIT_STATUS)])
    assert pick.ranked is not None and pick.idf is not None
    item = next(c for c in pick.ranked if c.passage.text.startswith("code 123"))
    alone = coverage(asked.terms, item.passage.quote, "The basics", pick.idf)
    assert item.coverage > alone + 0.2  # "exit" and "formatter" are the lead-in's
    # Asked for a list, the whole list answers: its items are not read as answers alone.
    listed = await _pick(
        engine,
        "Which exit codes can the formatter return?",
        [source("S1", "The basics", EXIT_STATUS)],
    )
    assert listed.ranked is not None and listed.idf is not None
    again = next(c for c in listed.ranked if c.passage.text.startswith("code 123"))
    words = analyse("Which exit codes can the formatter return?").terms
    assert again.coverage == pytest.approx(
        coverage(words, again.passage.quote, "The basics", listed.idf), abs=1e-3
    )


WARNINGS = """## Execution

In Python 3.12 and above, you can try an experimental core based on the new \
`sys.monitoring` module by defining a `COVERAGE_CORE=sysmon` environment variable.

## Warnings

The possible warnings include:

- Trace function changed (trace-changed): measurement depends on a Python setting called \
the trace function.
- No sysmon (no-sysmon): you requested the sys.monitoring measurement core on an older Python.
- Module never imported (module-not-imported): you asked to measure a module never imported.
- No data (no-data-collected): the program ran, but no lines were measured as executed.
"""


async def test_a_long_list_covers_what_its_best_item_covers(engine: OfflineEngine) -> None:
    question = (
        "We're on Python 3.12 and I'd like to try the measurement core built on sys.monitoring "
        "instead of the trace function. What exactly do I set to turn it on?"
    )
    pick = await _pick(engine, question, [source("S1", "Command line usage", WARNINGS)])
    assert pick.ranked is not None and pick.idf is not None
    listed = next(c for c in pick.ranked if c.passage.is_list)
    asked = analyse(question)
    everything = coverage(
        asked.terms, listed.passage.quote, "Command line usage", pick.idf, asked.focus
    )
    assert listed.coverage < everything - 0.05  # no single warning holds all of those words
    assert pick.best is not None and not pick.best.passage.is_list


@pytest.mark.parametrize(
    ("stated", "sentence", "opposed"),
    [
        (
            "After coverage combine the files are left lying around because combine keeps its "
            "inputs by default.",
            "The original input data files are deleted once they've been combined.",
            True,
        ),
        (
            "Branch coverage is enabled in every run",
            "Branch coverage is disabled by default.",
            True,
        ),
        # what the asker did or wants is no statement about the tool
        (
            "I enabled branch coverage in my config",
            "Branch coverage is disabled by default.",
            False,
        ),
        ("I want to show hidden files", "Hidden files are never shown.", False),
        # the sentence says both of the pair, or only what may be done
        (
            "The formatter keeps trailing commas",
            "Trailing commas are kept by the formatter, but redundant parentheses are removed.",
            False,
        ),
        (
            "Autoescaping is enabled for HTML templates.",
            "Autoescaping is enabled for .html templates. To disable autoescaping for a block, "
            "use the autoescape tag.",
            False,
        ),
        # "switch branches on CI" turns nothing on
        ("The runners switch branches on CI", "Branches are disabled on CI runners.", False),
        # what the verb is done to is not what the sentence speaks of
        (
            "A base class keeps a registry of its subclasses",
            "The `type.__subclasses__` attribute needs a collection run for the original class "
            "to be removed.",
            False,
        ),
        # "turns … on" is enabling; two sentences may say it
        (
            "Since Jinja turns HTML autoescaping on by default",
            "Jinja provides a feature that can be enabled to escape HTML syntax in rendered "
            "templates. However, it is disabled by default.",
            True,
        ),
        # "enable and disable" names both ways and opposes nothing
        (
            "Since Jinja turns HTML autoescaping on by default",
            "This makes it possible to enable and disable autoescaping for HTML templates.",
            False,
        ),
        # a thing kept is opposed by turning it off; it is the last word of what is kept
        (
            "set_testing(True) keeps the full exponential backoff, so our tests still sleep.",
            "For this use-case, stamina comes with a dedicated testing mode that turns off "
            "backoff and caps retries: `stamina.set_testing`.",
            True,
        ),
        (
            "set_testing(True) keeps the full exponential backoff",
            "The testing mode turns off logging: `stamina.set_testing`.",
            False,
        ),
        # the sentence negates: it says no opposite
        (
            "combine keeps its inputs by default",
            "The input files are not deleted when combined.",
            False,
        ),
        # two things one verb is done to are one clause, and when it is done is not what is
        # done (tomlkit's docs)
        (
            "Since tomlkit throws away comments and whitespace when it parses a file,",
            "It includes a parser that preserves all comments, indentations, whitespace and "
            "internal element ordering.",
            True,
        ),
        (
            "Since tomlkit throws away comments and whitespace when it parses a file,",
            "It includes a parser that preserves the order of tables.",
            False,
        ),
    ],
)
def test_a_premise_is_opposed_by_the_opposite_done_to_the_same_thing(
    stated: str, sentence: str, opposed: bool
) -> None:
    assert _opposes(stated, sentence) is opposed


def test_a_command_line_flag_is_held_only_as_written() -> None:
    assert coverage(["-h"], "It changes the parameters to `-h` and `--help`.", "", {"": 1.0}) == 1.0
    assert coverage(["-h"], "Press h for help, or pass --help-all.", "", {"": 1.0}) == 0.0
    assert coverage(["--help"], "Pass `--help-all` to see more.", "", {"": 1.0}) == 0.0


HELP_PAGES = (
    "By default it's called `--help`, but this can be changed. This example changes the "
    "default parameters to `-h` and `--help` instead of just `--help`:\n\n"
    "```python\nCONTEXT_SETTINGS = dict(help_option_names=['-h', '--help'])\n\n"
    "@click.command(context_settings=CONTEXT_SETTINGS)\ndef cli():\n    pass\n```"
)
WHY_CLICK = (
    "Docopt, and many tools like it, are cool in how they work, but very few of these tools "
    "deal with nesting of commands. Docopt acts by parsing your help pages. While docopt does "
    "support dispatching to subcommands, it does not directly support any kind of automatic "
    "subcommand enumeration or make subcommands work in a consistent way.\n\n"
    "The upside of docopt is that it gives you strong control over your help page; the "
    "downside is that it cannot rewrap your output for the current terminal width, and it "
    "makes translations hard."
)


async def test_the_flags_a_question_names_find_the_passage_that_shows_them(
    engine: OfflineEngine,
) -> None:
    # Click 8.1.7: the question's words ("make", "work", "help", "commands") were all in the
    # page on docopt, which also "does not support" something: it had been read as a denial.
    pick = await _pick(
        engine,
        "How do I make -h work as well as --help for my commands?",
        [source("S1", "Documenting Scripts", HELP_PAGES), source("S2", "Why Click?", WHY_CLICK)],
    )
    assert pick.denial is None
    assert pick.found and pick.best is not None
    assert "help_option_names" in pick.best.passage.text


CHAINING = (
    "All you have to do is to pass `chain=True` to your multicommand. When using multi "
    "command chaining you can only have one command (the last) use `nargs=-1` on an "
    "argument.\n\nNote: It is currently not possible for chain commands to be nested. This "
    "will be fixed in future versions of Click.\n\n"
    "The handling of subcommands happens one after another so the exact subcommands are not "
    "yet available when the callback fires."
)


async def test_one_group_inside_another_is_denied_by_nesting_being_impossible(
    engine: OfflineEngine,
) -> None:
    # "another" is no word of the subject (it had made "one after another … not yet
    # available" the denial); "inside" and "nested" say the same.
    pick = await _pick(
        engine,
        "How do I put one chained group inside another chained group?",
        [source("S1", "Commands and Groups", CHAINING)],
    )
    assert pick.denial is not None
    assert "not possible for chain commands to be nested" in pick.denial.passage.text


def test_a_change_log_line_opening_with_removed_denies_the_named_module() -> None:
    named = ["urllib3.contrib.ntlmpool"]
    assert _gone_named("Removed the `urllib3.contrib.ntlmpool` module.", named)
    # What replaces the removed thing is not gone.
    assert not _gone_named(
        "Removed `NTLMConnectionPool` in favor of `urllib3.contrib.ntlmpool`.", named
    )
    assert not _gone_named("Deprecated `x`; use `urllib3.contrib.ntlmpool` instead.", named)


NOX_USAGE = (
    "You can use `--stop-on-first-error` to make Nox abort as soon as the first session "
    "fails.\n\nYou can use `--error-on-external-run` to make Nox fail the session if it uses "
    "any external program without passing `external=True` into `session.run`.\n\n"
    "By default, Nox will only show output of commands that fail."
)


async def test_a_close_passage_holding_almost_none_of_the_words_does_not_answer(
    engine: OfflineEngine,
) -> None:
    # nox's docs say nothing of a timeout; "abort as soon as the first session fails" is
    # near the question in meaning but holds almost none of its words.
    pick = await _pick(
        engine,
        "One of our integration sessions sometimes hangs forever on CI. How do I give "
        "session.run a timeout so nox kills the command after, say, ten minutes?",
        [source("S1", "Command-line usage", NOX_USAGE)],
    )
    assert pick.best is not None and pick.best.coverage < MIN_CLOSE_COVERAGE
    assert not pick.found


COOKBOOK = (
    "If you use a tool like `uv` to lock your dependencies, you can use that inside a nox "
    "session. Here's an example:\n\n"
    '```python\n@nox.session(venv_backend="uv")\ndef tests(session):\n'
    '    session.run_install("uv", "sync", '
    'env={"UV_PROJECT_ENVIRONMENT": session.virtualenv.location})\n```\n\n'
    "Other useful flags might include `--frozen` (won't touch the lockfile)."
)
BACKENDS = (
    "You can also set this option with the `NOX_DEFAULT_VENV_BACKEND` environment variable, "
    "or in the Noxfile with `nox.options.default_venv_backend`."
)


async def test_an_environment_variable_named_only_in_code_can_answer(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "I run `uv sync` from inside a nox session. Which environment variable makes uv sync "
        "into the session's virtualenv instead of the project's own .venv?",
        [source("S1", "Cookbook", COOKBOOK), source("S2", "Usage", BACKENDS)],
    )
    assert pick.best is not None and "UV_PROJECT_ENVIRONMENT" in pick.best.passage.text


HOST_MATCHING = (
    "## Host Matching\n\nStarting with Werkzeug 0.7 it's also possible to do matching on the "
    "whole host names instead of just the subdomain. To enable this feature you need to pass "
    "`host_matching=True` to the `Map` constructor and provide the `host` argument to all "
    "routes:\n\n```python\nurl_map = Map([Rule('/', endpoint='www_index', "
    "host='www.example.com')], host_matching=True)\n```\n"
)
ROUTING_INTRO = (
    "## Quickstart\n\nRouting is the process of matching and parsing the URL to something we "
    "can use. Inside the WSGI application we bind the url_map to the current request which "
    "will return a new `MapAdapter`."
)


async def test_a_sentence_saying_how_to_enable_this_is_read_with_what_this_is(
    engine: OfflineEngine,
) -> None:
    # "To enable this feature …" alone holds few of the question's words; with the sentence
    # that says what the feature is, it answers.
    pick = await _pick(
        engine,
        "My WSGI app serves two sites at the same paths. I want the URL map to match the whole "
        "host name rather than a subdomain. What do I have to switch on in the routing setup?",
        [source("S1", "URL Routing", HOST_MATCHING), source("S2", "Routing", ROUTING_INTRO)],
    )
    assert pick.found and pick.best is not None
    assert pick.best.passage.sentences[0].startswith("Starting with Werkzeug 0.7")
    assert "host_matching=True" in pick.best.passage.text


def test_a_name_the_sources_spell_longer_is_known() -> None:
    sources = [source("S1", "Batch", "Batch mode on PostgreSQL recreates the table.")]
    assert unknown_names("What do I pass to make it do that on Postgres?", sources) == []
    assert unknown_names("What do I pass to make it do that on Oracle?", sources) == ["Oracle"]


DEPENDENCIES = (
    "## Dependencies\n\nAlembic will work with SQLAlchemy as of version 2.0.0. Support for "
    "SQLAlchemy older than 2.0.0 was dropped. Alembic supports Python versions 3.10 and above."
)


async def test_asked_for_the_oldest_version_a_dropped_support_line_denies_nothing(
    engine: OfflineEngine,
) -> None:
    question = "What is the oldest SQLAlchemy version Alembic will work with?"
    pick = await _pick(engine, question, [source("S1", "Front Matter", DEPENDENCIES)])
    assert pick.denial is None and pick.found and pick.best is not None
    assert "2.0.0" in pick.best.passage.text
    # Taking the old version for granted, it is denied.
    denied = await _pick(
        engine,
        "How do I run Alembic against SQLAlchemy 1.4 older than 2.0.0?",
        [source("S1", "Front Matter", DEPENDENCIES)],
    )
    assert denied.denial is not None


LOGGING = (
    '## Logging\n\nWerkzeug uses standard Python `logging`. The logger is named `"werkzeug"`.\n\n'
    "If the level is not set, it will be set to `INFO` on first use."
)
REQUEST_LINES = (
    "## Serving\n\nThe development server prints a line for each request it serves, with its "
    "status code."
)


async def test_a_passage_holding_the_asking_part_answers_whatever_the_scene(
    engine: OfflineEngine,
) -> None:
    question = (
        "The development server floods my console with one line per request, and our ops team "
        "wants those shipped into our central pipeline instead of the terminal. Which logger "
        "does Werkzeug log them to?"
    )
    pick = await _pick(
        engine,
        question,
        [source("S1", "Utilities", LOGGING), source("S2", "Serving", REQUEST_LINES)],
    )
    assert pick.ranked is not None and pick.idf is not None
    asked = analyse(question)
    named = next(c for c in pick.ranked if "is named" in c.passage.text)
    assert named.coverage < 0.25  # few of the scene's words …
    assert _holds_the_ask(asked, named, pick.idf)  # … but all of the ask's
    level = next(c for c in pick.ranked if c.passage.text.startswith("If the level"))
    assert not _holds_the_ask(asked, level, pick.idf)


VALIDATION = (
    "# Validation\n\n_cattrs_ has a detailed validation mode since version 22.1.0, and this mode "
    "is enabled by default. When running under detailed validation, the structuring hooks are "
    "slightly slower but produce richer and more precise error messages.\n\n"
    "## Transforming errors\n\nA useful pattern is wrapping the default "
    "`cattrs.v.format_exception` function to change the messages."
)


async def test_a_premise_saying_it_is_off_is_denied_by_enabled_by_default(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "Since detailed validation is off by default in cattrs, how do I switch it on to get "
        "per-field error messages?",
        [source("S1", "Validation", VALIDATION)],
    )
    assert pick.denial is not None
    assert "this mode is enabled by default" in pick.denial.passage.text
    agreed = await _pick(
        engine,
        "Since detailed validation is on by default in cattrs, how do I read its per-field "
        "error messages?",
        [source("S1", "Validation", VALIDATION)],
    )
    assert agreed.denial is None


TLS_VERSIONS = (
    "## TLS minimum and maximum versions\n\nWhen the configured TLS versions by urllib3 aren't "
    "compatible with the TLS versions that the server is willing to use you'll likely see an "
    "error like this one:\n\n```\nSSLError(1, '[SSL: UNSUPPORTED_PROTOCOL] unsupported "
    "protocol (_ssl.c:1124)')\n```\n\nFor example if the server requires TLS 1.0 you'd "
    "configure urllib3 like so:\n\n```python\nhttp = urllib3.PoolManager(\n"
    "    ssl_minimum_version=ssl.TLSVersion.TLSv1\n)\n```\n"
)


async def test_asked_how_the_error_the_asker_already_sees_is_not_the_answer(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        'Requests to an old device fail with "[SSL: UNSUPPORTED_PROTOCOL] unsupported '
        'protocol". The device only speaks TLS 1.0. How do I get urllib3 to talk to it again?',
        [source("S1", "Advanced Usage", TLS_VERSIONS)],
    )
    assert pick.best is not None and "ssl_minimum_version" in pick.best.passage.quote


# marshmallow's quickstart: the warning answers; the sentence before it only names dump_only.
READ_ONLY = (
    "# Quickstart\n\n## Read-only and write-only fields\n\n"
    "In the context of a web API, the `dump_only` and `load_only` parameters are conceptually "
    'equivalent to "read-only" and "write-only" fields, respectively.\n\n'
    "Warning: When loading, dump-only fields are considered unknown. If the `unknown` option "
    "is set to `INCLUDE`, values with keys corresponding to those fields are therefore loaded "
    "with no validation."
)


def _choice(text: str, score: float, coverage: float = 0.3) -> Choice:
    passage = next(p for p in passages(source("S1", "Quickstart", READ_ONLY)) if p.quote == text)
    return Choice(passage, score, 0.5, coverage, True)


def test_a_passage_level_with_the_best_answers_in_its_place_when_it_holds_more() -> None:
    opening = next(p.quote for p in passages(source("S1", "Quickstart", READ_ONLY)))
    warning = "Warning: When loading, dump-only fields are considered unknown."
    asked = analyse("What happens to dump-only fields when loading?")
    best = _choice(opening, 0.500, coverage=0.15)
    behind = Choice(_choice(warning, 0.495).passage, 0.495, 0.55, 0.3, True)  # nearer, more
    assert _level_answer([best, behind], asked, {"": 1.0}, "q", lambda c: True) is behind
    # … not when it is further behind, holds too little, or does not answer
    far = Choice(behind.passage, 0.480, 0.55, 0.3, True)
    assert _level_answer([best, far], asked, {"": 1.0}, "q", lambda c: True) is None
    thin = Choice(behind.passage, 0.495, 0.55, 0.2, True)
    assert _level_answer([best, thin], asked, {"": 1.0}, "q", lambda c: True) is None
    assert _level_answer([best, behind], asked, {"": 1.0}, "q", lambda c: False) is None
    # … nor when it is further in meaning and holds no more of what the ask says
    vague = Choice(behind.passage, 0.495, 0.45, 0.3, True)
    assert _level_answer([best, vague], asked, {"": 1.0}, "q", lambda c: True) is None


CRON = (
    "# cron\n\n## Introduction\n\nTrigger alias for `add_job`: `cron`\n\n"
    "Unlike with crontab expressions, you can omit fields that you don't need. For example, "
    "`day=1, minute=20` is equivalent to `day=1, hour='*', minute=20`. The job will then "
    "execute on the first day of every month at 20 minutes of every hour."
)


def test_a_passage_showing_the_askers_own_call_values_answers_when_level_with_the_best() -> None:
    question = (
        "I added a job with add_job(func, 'cron', day=1, minute=20), expecting it to run once "
        "a month. When does the cron trigger actually run it?"
    )
    asked = analyse(question)
    found = list(passages(source("S1", "cron", CRON)))
    label = next(p for p in found if p.quote.startswith("Trigger alias"))
    example = next(p for p in found if p.quote.startswith("For example"))
    best = Choice(label, 0.530, 0.53, 0.22, True)
    behind = Choice(example, 0.525, 0.41, 0.30, True)
    assert _level_answer([best, behind], asked, {"": 1.0}, question, lambda c: True) is behind
    # … not one showing other values ("day=10" is not "day=1")
    other = next(
        p
        for p in passages(
            source("S2", "cron", CRON.replace("day=1", "day=10").replace("=20", "=5"))
        )
        if p.quote.startswith("For example")
    )
    elsewhere = Choice(other, 0.525, 0.41, 0.30, True)
    assert _level_answer([best, elsewhere], asked, {"": 1.0}, question, lambda c: True) is None


def test_a_sibling_close_behind_holding_more_of_the_question_comes_first() -> None:
    terms = ["unknown", "include", "dump_only", "field", "load"]
    opening = "In the context of a web API, the `dump_only` and `load_only` parameters"
    names = next(
        p.quote
        for p in passages(source("S1", "Quickstart", READ_ONLY))
        if p.quote.startswith(opening) and "Warning" not in p.quote
    )
    warning = next(
        p.quote
        for p in passages(source("S1", "Quickstart", READ_ONLY))
        if p.quote.startswith("Warning: When loading") and "no validation" in p.quote
    )
    top, sibling = _choice(names, 0.51), _choice(warning, 0.48)
    assert _fuller_sibling_first([top, sibling], terms)[0] is sibling
    # not when it is further behind, nor when it holds nothing the best does not
    assert _fuller_sibling_first([top, _choice(warning, 0.4)], terms)[0] is top
    assert _fuller_sibling_first([top, sibling], ["dump_only", "field"])[0] is top
    # nor when what it holds is too little to answer by itself
    assert _fuller_sibling_first([top, _choice(warning, 0.48, 0.2)], terms)[0] is top
    # a longer window round the best holds more of its words but is the same passage
    both = next(
        p.quote
        for p in passages(source("S1", "Quickstart", READ_ONLY))
        if p.quote.startswith(names) and "no validation" in p.quote
    )
    assert _fuller_sibling_first([top, _choice(both, 0.5)], terms)[0] is top


# Starlette's middleware page: every option of SessionMiddleware speaks of the session cookie.
SESSION_OPTIONS = (
    "Adds signed cookie-based HTTP sessions. Session information is readable but not "
    "modifiable.\n\nThe following arguments are supported:\n\n"
    "* `secret_key` - Should be a random string.\n"
    '* `session_cookie` - Defaults to "session".\n'
    "* `max_age` - Session expiry time in seconds. Defaults to 2 weeks. If set to `None` then "
    "the cookie will last as long as the browser session.\n"
    "* `same_site` - SameSite flag prevents the browser from sending session cookie along with "
    "cross-site requests. Defaults to `'lax'`.\n"
    "* `path` - The path set for the session cookie. Defaults to `'/'`.\n"
    "* `https_only` - Indicate that Secure flag should be set (can be used with HTTPS only). "
    "Defaults to `False`.\n"
)


async def test_the_option_holding_the_word_no_other_option_holds_answers(
    engine: OfflineEngine,
) -> None:
    doc = sectioned("S1", "Middleware", [("SessionMiddleware", SESSION_OPTIONS)])
    pick = await _pick(
        engine, "Which SessionMiddleware option marks the session cookie Secure?", [doc]
    )
    assert pick.best is not None and "`https_only`" in pick.best.passage.quote
    # the words every option shares decide nothing; asked about the path, `path` still answers
    pick = await _pick(
        engine, "Which SessionMiddleware option sets the session cookie's path?", [doc]
    )
    assert pick.best is not None and pick.best.passage.quote.startswith("`path`")


# Jinja's docs: "like in Python" and a loop over `user.get_created_pages()` hold two of the
# question's filler words; the Escaping section holds what it asks.
METHOD_CALLS = (
    "In Jinja, using parentheses is required for calls, like in Python. This allows you to "
    "pass variables to the method, which is not possible in Django. This syntax is also used "
    "for calling macros.\n\n```\n{% for page in user.get_created_pages() %}\n...\n"
    "{% endfor %}\n```\n"
)
ESCAPING = (
    "It is sometimes desirable -- even necessary -- to have Jinja ignore parts it would "
    "otherwise handle as variables or blocks.\n\nFor bigger sections, it makes sense to mark a "
    "block `raw`. For example, to include example Jinja syntax in a template, you can use this "
    "snippet:\n\n```\n{% raw %}\n<ul>\n{% for item in seq %}\n<li>{{ item }}</li>\n"
    "{% endfor %}\n</ul>\n{% endraw %}\n```\n"
)


async def test_need_and_like_say_nothing_of_what_is_asked(engine: OfflineEngine) -> None:
    question = (
        "I need to show literal Jinja syntax like {{ user }} and {% for %} on a page that is "
        "itself rendered by Jinja. How do I stop Jinja from processing that part?"
    )
    assert not {"need", "like"} & set(analyse(question).terms)
    pick = await _pick(
        engine,
        question,
        [
            sectioned(
                "S1", "Switching From Other Template Engines", [("Method Calls", METHOD_CALLS)]
            ),
            sectioned("S2", "Template Designer Documentation", [("Escaping", ESCAPING)]),
        ],
    )
    assert pick.best is not None and "{% raw %}" in pick.best.passage.quote


async def test_a_parameters_default_said_as_behaviour_answers(engine: OfflineEngine) -> None:
    # httpx's docs: `follow_redirects` is named where no value is given; its default is said
    # in words ("does not follow redirects by default").
    quickstart = sectioned(
        "S1",
        "QuickStart",
        [
            (
                "Redirection and History",
                "You can modify the default redirection handling with the `follow_redirects` "
                "parameter:\n\n```python\n>>> r = httpx.get('http://github.com/', "
                "follow_redirects=True)\n```\n",
            )
        ],
    )
    compatibility = sectioned(
        "S2",
        "Requests Compatibility",
        [
            (
                "Redirects",
                "Unlike `requests`, HTTPX does **not follow redirects by default**.\n\n"
                "You can still enable behaviour to automatically follow redirects, but you need "
                "to do so explicitly...\n\n```python\nclient = httpx.Client(follow_redirects=True)"
                "\n```\n",
            )
        ],
    )
    pick = await _pick(
        engine,
        "What is the default value of follow_redirects on a Client?",
        [quickstart, compatibility],
    )
    assert pick.found and pick.best is not None
    assert "not follow redirects by default" in pick.best.passage.text


# marshmallow's upgrading guide: how release 2 did it, then how it is done now.
DATEUTIL = (
    "In marshmallow 2, `python-dateutil` was used to deserialize RFC or ISO 8601 datetimes if "
    "it was installed. In marshmallow 3, datetime deserialization is done with no additional "
    "dependency.\n\n`python-dateutil` is no longer used by marshmallow."
)


async def test_how_an_older_release_did_it_is_history(engine: OfflineEngine) -> None:
    pick = await _pick(
        engine,
        "Do I have to install python-dateutil for marshmallow to parse ISO 8601 datetime strings?",
        [
            sectioned(
                "S1", "Upgrading to newer releases", [("`python-dateutil` recommended", DATEUTIL)]
            )
        ],
    )
    assert pick.best is not None and "no additional dependency" in pick.best.passage.quote


async def test_a_denial_speaks_of_the_thing_asked_for(engine: OfflineEngine) -> None:
    # uvicorn's release notes: "no longer … as default" holds "uvicorn" and "default", the
    # product's name being rare among sentences, but denies nothing of a log level.
    notes = sectioned(
        "S1",
        "release-notes",
        [
            (
                "Changed",
                "Uvicorn no longer ships extra dependencies `uvloop`, `websockets` and "
                "`httptools` as default.\nTo install these dependencies use `uvicorn[standard]`.",
            )
        ],
    )
    settings = sectioned(
        "S2",
        "Settings",
        [
            (
                "Logging",
                "* `--log-config <path>` - Logging configuration file.\n"
                "* `--log-level <str>` - Set the log level. **Options:** *'critical', 'error', "
                "'warning', 'info', 'debug', 'trace'.* **Default:** *'info'*.\n"
                "* `--no-access-log` - Disable access log only, without changing log level.\n",
            )
        ],
    )
    behaviour = sectioned(
        "S3",
        "Server Behavior",
        [("Server Errors", "Server errors will be logged at the `error` log level.")],
    )
    pick = await _pick(
        engine, "What log level does uvicorn use by default?", [notes, settings, behaviour]
    )
    assert pick.denial is None


async def test_a_denial_of_other_code_denies_nothing_asked(engine: OfflineEngine) -> None:
    # stamina's docs: the warning under *structlog* is about a logger the question never names.
    instrumentation = sectioned(
        "S1",
        "Instrumentation",
        [
            (
                "*structlog*",
                "If *structlog* instrumentation is active, scheduled retries are logged using a "
                "*structlog* logger at warning level with the following keys:\n\n"
                "- `callable`: The name of the decorated callable.\n"
                "- `retry_num`: The number of the current *retry*.\n\n"
                "Warning: *structlog* integration does **not** work with the deprecated "
                "`structlog.stdlib.AsyncBoundLogger` because it won't await log method calls.",
            )
        ],
    )
    pick = await _pick(
        engine,
        "At which log level does stamina log scheduled retries with structlog?",
        [instrumentation],
    )
    assert pick.denial is None


def test_the_thing_whose_existence_is_asked_is_unknown_when_no_source_says_it() -> None:
    tutorial = source(
        "S1",
        "Tutorial",
        "If you want to retry just one function or method call, *stamina* comes with an even "
        "easier way in the shape of `stamina.RetryingCaller`.",
    )
    asked = "Does stamina come with a circuit breaker that stops calling a service?"
    assert unknown_names(asked, [tutorial]) == ["circuit breaker"]
    # said in the sources, it is known, and "Do I have to …" asks for no thing
    index = source("S2", "HTTPX", "`socksio` - SOCKS proxy support.")
    assert unknown_names("Does httpx support SOCKS proxies?", [index]) == []
    assert unknown_names("Do I have to install a circuit breaker?", [tutorial]) == []


# Werkzeug's "Testing WSGI Applications", as retrieved by a question and a bridge hop to the page.
TEST_CLIENT = [
    (
        "Test Client",
        "Werkzeug provides a `Client` to simulate requests to a WSGI application without "
        "starting a server.",
    ),
    (
        "Request Body",
        "A shortcut when testing JSON APIs is to pass a dict to `json` instead of using "
        "`data`. This will automatically call `json.dumps()` and set the content type to "
        "`application/json`.",
    ),
    (
        "Environment Building",
        "The client has methods for making different types of requests and managing "
        "cookies across requests.",
    ),
]


async def test_a_question_about_the_askers_setup_is_not_scored_by_a_bridge_hop(
    engine: OfflineEngine,
) -> None:
    question = (
        "In my tests I keep calling json.dumps and setting the Content-Type header by hand "
        "before client.post('/api', ...). Is there a client argument that does this for me?"
    )
    plan: Plan = await engine.plan(question, ["docs"])
    bridge = SubQuery(
        id="q9",
        text="Testing WSGI Applications tests keep header hand client.post client argument",
        sources=["docs"],
        hop=2,
        purpose="bridge: Testing WSGI Applications",
    )
    plan = plan.model_copy(update={"kind": "multi_hop", "sub_queries": [*plan.sub_queries, bridge]})
    doc = sectioned("S1", "Testing WSGI Applications", TEST_CLIENT)
    doc.sub_query_ids = [plan.sub_queries[0].id, "q9"]
    pick = choose(analyse(question), plan, [doc], engine.vectors)
    assert pick.best is not None and "`json`" in pick.best.passage.quote
    # A chain of facts about names, asked by nobody in particular, is still scored by its hop.
    assert not about_the_asker(
        'Singer Eddie Fisher, who produced the album "I\'m in the Mood for Love" in 1952, later '
        "had a scandalous affair with what actress?"
    )
    assert about_the_asker("Our CI only lets us set environment variables. Which one is read?")


# coverage.py's docs: a FAQ entry whose heading asks what the user asks, and the quick start.
COVERAGE_FAQ = [
    (
        "Quick start",
        "Coverage doesn't distinguish between tests and the code being tested. We recommend "
        "that you include your tests in coverage measurement.\nTo limit coverage measurement "
        "to code in the current directory, and also find files that weren't executed at all, "
        "add the `--source=.` argument to your coverage command line.",
    ),
    (
        "Q: Can I find out which tests ran which lines?",
        "Yes! Coverage.py has a feature called dynamic contexts which can collect this "
        "information.\n\nAdd this to your .coveragerc file:\n\n```ini\n[run]\n"
        "dynamic_context = test_function\n```",
    ),
]


async def test_a_heading_that_asks_what_the_question_asks_marks_the_answer(
    engine: OfflineEngine,
) -> None:
    question = (
        "For a flaky line I'd like to know which of my tests actually executed it. How do I "
        "get coverage to record that per test?"
    )
    doc = sectioned("S1", "Coverage.py", COVERAGE_FAQ)
    pick = await _pick(engine, question, [doc])
    assert pick.best is not None and "dynamic_context" in pick.best.passage.quote


# urllib3's "Decrypting Captured TLS Sessions with Wireshark": the step, and the step after it.
WIRESHARK = [
    (
        "Decrypting Captured TLS Sessions with Wireshark",
        "Python supports logging of TLS pre-master secrets.\nWith these secrets tools like "
        "Wireshark can decrypt captured network traffic.\n\nTo enable this simply define "
        "environment variable `SSLKEYLOGFILE`:\n\n```bash\nexport "
        "SSLKEYLOGFILE=/path/to/keylogfile.txt\n```\n\nThen configure the key logfile in "
        "Wireshark, see Wireshark TLS Decryption for instructions.",
    ),
]


async def test_a_later_step_does_not_answer_in_place_of_the_step_before_it(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm chasing a TLS problem and want to inspect urllib3's HTTPS traffic decrypted in "
        "Wireshark. How do I get the session secrets out of my Python process?"
    )
    pick = await _pick(engine, question, [sectioned("S1", "Advanced Usage", WIRESHARK)])
    assert pick.best is not None and "SSLKEYLOGFILE" in pick.best.passage.quote


# Alembic's cookbook on `--name`, for a question whose scene says what "still" happens.
NAMED_SECTIONS = [
    (
        "Run Multiple Alembic Environments from one .ini file",
        "A simple approach was added to support this, the `--name` flag on the commandline. "
        "This flag allows named sections within the `alembic.ini` file to be present (but "
        "note it does not apply to `pyproject.toml` configuration, where only the "
        "`[tool.alembic]` section is used).",
    ),
    (
        "Using pyproject.toml for configuration",
        "Within the `pyproject.toml` file, the default section generated looks mostly like the "
        "`alembic.ini` file, with the welcome exception that lists of values are supported "
        "directly.",
    ),
]


async def test_a_scene_saying_what_still_happens_does_not_stop_a_denial(
    engine: OfflineEngine,
) -> None:
    question = (
        "We moved our Alembic config into pyproject.toml and added a [tool.alembic.reporting] "
        "table next to [tool.alembic], the way we used to have [reporting] in alembic.ini. "
        '"alembic --name reporting upgrade head" still uses the main settings. What\'s the '
        "correct way to name that pyproject section so --name picks it up?"
    )
    pick = await _pick(engine, question, [sectioned("S1", "Cookbook", NAMED_SECTIONS)])
    assert pick.denial is not None
    assert "does not apply to `pyproject.toml`" in pick.denial.passage.quote
    assert denies("It does not apply to `pyproject.toml` configuration.")
    # … while a question whose ask is about the change itself is not denied by it
    asked = "Our pyproject.toml has a [tool.alembic.reporting] table. When was --name removed?"
    pick = await _pick(engine, asked, [sectioned("S1", "Cookbook", NAMED_SECTIONS)])
    assert pick.denial is None


# Alembic's tutorial: the templates are listed only in a command's output.
TEMPLATES = [
    (
        "Creating an Environment",
        "The above layout is produced using a layout template called `generic`. Alembic also "
        "includes other environment templates. These can be listed out using the "
        "`list_templates` command:\n\n```\n$ alembic list_templates\nAvailable templates:\n\n"
        "generic - Generic single-database configuration.\npyproject - pep-621 compliant "
        "configuration that includes pyproject.toml\nasync - Generic single-database "
        "configuration with an async dbapi.\nmultidb - Rudimentary multi-database "
        "configuration.\n```",
    ),
    (
        "The Migration Environment",
        "The directory includes these directories/files:\n\n- `alembic.ini` - this is "
        "Alembic's main configuration file which is generated by all templates.\n- "
        "`env.py` - This is a Python script that is run whenever the alembic migration tool "
        "is invoked.\n- `versions/` - This directory holds the individual version scripts.",
    ),
]


async def test_a_list_question_is_answered_by_a_listing_in_code_output(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm about to run alembic init for a new project and don't want the default layout "
        "without knowing what else exists. Which environment templates does Alembic ship with?"
    )
    doc = sectioned("S1", "Tutorial", TEMPLATES)
    pick = await _pick(engine, question, [doc])
    assert pick.best is not None and pick.best.passage.is_code
    shown = shown_for(pick.best.passage, analyse(question).terms).block
    assert all(name in shown for name in ("generic", "pyproject", "async", "multidb"))


def test_the_tail_of_a_version_is_no_unknown_name() -> None:
    versioning = source(
        "S1",
        "Versioning",
        "Here are the supported segments and how they would influence an existing version of "
        "`1.0.0`: `release`, `major`, `minor`, `micro`, `a`, `b`, `c`, `rc`, `pre`, `post`.",
    )
    question = "Which segment names turn 1.0.0 into the release candidate 1.0.0rc0?"
    assert unknown_names(question, [versioning]) == []
    # nor is the tail of a file name after a hyphen
    hook = "What hook id goes in .pre-commit-config.yaml for the segments?"
    assert unknown_names(hook, [versioning]) == []
    # a name the sources never say is still unknown, however it is written
    assert unknown_names("Does it write a __deepcopy__ or use Kerberos?", [versioning]) == [
        "deepcopy__",
        "Kerberos",
    ]


PYTEST_PLUGIN = (
    "Pytest does not natively support running asynchronous test functions, so they have to "
    "be marked for the AnyIO pytest plugin to pick them up.\n\n"
    "If you need to run a single test on a specific backend, you can use "
    "`@pytest.mark.parametrize` with the `anyio_backend` parameter."
)


async def test_a_denial_giving_the_way_the_question_takes_denies_nothing(
    engine: OfflineEngine,
) -> None:
    question = "With the AnyIO pytest plugin, how do I make one test run only on asyncio?"
    pick = await _pick(engine, question, [source("S1", "Testing", PYTEST_PLUGIN)])
    assert pick.denial is None
    terms = analyse(question).terms
    assert _way_around(PYTEST_PLUGIN.split("\n")[0], terms)
    # no remedy of its own, or one holding none of the question's words: a denial stands
    assert not _way_around("AnyIO events cannot be reused, and must be replaced instead.", terms)
    assert not _way_around(
        "It is not possible to run one AnyIO pytest plugin test on asyncio.", terms
    )


def test_a_rename_denies_only_a_question_using_the_old_name() -> None:
    renamed = (
        "Renamed the `cancellable` argument in `anyio.to_thread.run_sync()` to "
        "`abandon_on_cancel` (and deprecated the old parameter name)"
    )
    assert _renames_unnamed(renamed, ["to_thread.run_sync"])
    assert not _renames_unnamed(renamed, ["cancellable"])
    # the function holding the renamed argument is not what is gone
    assert not _gone_named(renamed, ["to_thread.run_sync"])
    # the first code a change line removes is what is gone, not what holds it
    named = ["TestClient"]
    assert not _gone_named("Remove deprecated `app` argument passed to `TestClient`.", named)
    assert _gone_named(
        "Remove deprecated `allow_redirects` argument from `TestClient`.", ["allow_redirects"]
    )


async def test_a_value_on_the_page_that_named_the_code_before_it_answers(
    engine: OfflineEngine,
) -> None:
    page = sectioned(
        "S1",
        "Using subprocesses",
        [
            (
                "Running functions in worker processes",
                "CPU intensive work is best run in worker processes. This is done by using "
                "`to_process.run_sync`.",
            ),
            (
                "Technical details",
                "Worker processes terminate after 5 minutes of inactivity, or when the event "
                "loop is finished.",
            ),
        ],
    )
    notes = source(
        "S2",
        "Version history",
        "Fixed processes spawned by `anyio.to_process()` being lost to the pool when processes "
        "that have idled over 5 minutes are pruned as part of the `to_process.run_sync()` call.",
    )
    question = (
        "How long does an idle worker process started by to_process.run_sync stay alive "
        "before it exits?"
    )
    pick = await _pick(engine, question, [notes, page])
    assert pick.found and pick.best is not None
    assert pick.best.passage.text.startswith("Worker processes terminate after 5 minutes")


def test_a_method_the_question_calls_is_denied_by_its_removal_note() -> None:
    question = "How do I call clear() on an anyio Event so I can reuse the same event object?"
    named = identifiers(question)
    assert named == ["clear"]  # a call is code, however plain its word
    assert names_code("Call `Event.clear()` to reset it.", "clear")
    tagged = "BACKWARDS INCOMPATIBLE Removed the `Event.clear()` method."
    assert _gone_named(tagged, named)
    assert not _gone_named("BACKWARDS INCOMPATIBLE Removed the `Event.wait()` method.", named)


POOLS = (
    "The `PoolManager` class automatically handles creating `ConnectionPool` instances for each "
    "host as needed. By default, it will keep a maximum of 10 `ConnectionPool` instances. If "
    "you're making requests to many different hosts it might improve performance to increase "
    "this number.\n\n```python\nimport urllib3\n\nhttp = urllib3.PoolManager(num_pools=50)\n```\n\n"
    "However, keep in mind that this does increase memory and socket consumption."
)


POOLS_LIMIT = (
    "Note: The `block=True` here means that the acquire call will block until a connection is "
    "available in the pool. Note that this will block forever in case there is a deadlock in "
    "your code where a connection is not released. There is a `timeout` argument you can use "
    "to safeguard against this.\n\n"
    "If blocking is disabled and there aren't any connections left in the pool an "
    "`kombu.exceptions.ConnectionLimitExceeded` exception will be raised."
)


async def test_a_name_in_code_written_as_one_of_the_kind_asked_for_answers(
    engine: OfflineEngine,
) -> None:
    question = (
        "I call acquire(block=False) on a connection pool from kombu.pools so a request handler "
        "fails fast instead of hanging. If every connection in the pool is already checked "
        "out, which exception should my handler catch?"
    )
    asked = analyse(question)
    assert names_wanted_type(asked, "an `kombu.exceptions.Limit` exception is raised", question)
    assert not names_wanted_type(asked, "an exception is raised when the `pool` is full", question)
    pick = await _pick(
        engine, question, [source("S1", "Connection and Producer Pools", POOLS_LIMIT)]
    )
    assert pick.found and pick.best is not None
    assert "ConnectionLimitExceeded" in pick.best.passage.text


async def test_a_list_of_builtin_things_answers_what_comes_out_of_the_box(
    engine: OfflineEngine,
) -> None:
    from tests.backend.reasoning.test_passages import COMPRESSION

    question = (
        "Our task payloads are large text blobs and I'd like to compress messages. Which "
        "compression schemes does Celery support out of the box?"
    )
    pick = await _pick(engine, question, [source("S1", "Calling Tasks", COMPRESSION)])
    assert pick.found and pick.best is not None and pick.best.passage.is_list
    assert "`bzip2`" in pick.best.passage.text


FAILOVER = (
    "`Connection` also accepts failover_strategy parameter which defines the strategy of "
    "trying the nodes.\n\n"
    "The current list of available failover strategies is defined in kombu.connection "
    "module:\n\n"
    "```python\n>>> import kombu\n>>> kombu.connection.failover_strategies\n"
    "{'round-robin': <class 'itertools.cycle'>, 'shuffle': <function shufflecycle>}\n```\n"
)


async def test_asked_for_a_list_the_code_a_lead_in_calls_the_list_answers(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm passing several broker URLs to one Connection and want to choose how the nodes "
        "are tried. Which failover_strategy values does Kombu ship with?"
    )
    pick = await _pick(engine, question, [source("S1", "Automatic Failover", FAILOVER)])
    assert pick.best is not None and pick.best.passage.is_code
    assert "round-robin" in pick.best.passage.quote


async def test_asked_which_argument_the_code_passing_it_answers(engine: OfflineEngine) -> None:
    question = (
        "Our service talks to 40 partner APIs through one PoolManager. Which constructor "
        "argument raises the number of per-host connection pools it keeps?"
    )
    asked = analyse(question)
    assert names_wanted_type(asked, "http = urllib3.PoolManager(num_pools=50)", question)
    assert not names_wanted_type(asked, "The `PoolManager` class creates pools.", question)
    pick = await _pick(engine, question, [source("S1", "Advanced Usage", POOLS)])
    assert pick.found and pick.best is not None
    assert "num_pools=50" in pick.best.passage.text


def test_a_stated_bound_or_one_means_ruled_out_is_no_denial() -> None:
    assert not denies(
        "_msgpack_ doesn't support integers less than -9223372036854775808, and greater than "
        "18446744073709551615."
    )
    assert denies("_msgspec_ doesn't support PyPy.")
    ruled_out = (
        "Here, builtin customizations such as rename are insufficient - _cattrs_ cannot "
        "structure both `old_field` and `new_field` into a single field using `rename`."
    )
    assert _by_other_means(ruled_out, "How can cattrs structure both versions into one field?")
    assert not _by_other_means(ruled_out, "How do I structure both with `rename`?")


FORBID = (
    "Sometimes it may be desirable to enforce a stricter contract, and to raise an error when "
    "unknown keys are present - in particular when fields have default values this may help "
    "with catching typos. `forbid_extra_keys` can also be enabled (or disabled) on a per-class "
    "basis when creating structure hooks with `make_dict_structure_fn()`.\n\n```\n"
    ">>> from cattrs.gen import make_dict_structure_fn\n>>>\n>>> @define\n"
    "... class TestClass:\n...    number: int = 1\n>>>\n"
    ">>> c = cattrs.Converter(forbid_extra_keys=True)\n"
    '>>> c.structure({"nummber": 2}, TestClass)\nTraceback (most recent call last):\n...\n'
    "ForbiddenExtraKeyError: Extra fields in constructor for TestClass: nummber\n"
    ">>> hook = make_dict_structure_fn(TestClass, c, _cattrs_forbid_extra_keys=False)\n"
    ">>> c.register_structure_hook(TestClass, hook)\n"
    '>>> c.structure({"nummber": 2}, TestClass)\nTestClass(number=1)\n```'
)


async def test_asked_which_exception_the_traceback_shown_names_it(engine: OfflineEngine) -> None:
    question = (
        "We turned on forbid_extra_keys so typos fail loudly. What exception class does cattrs "
        "raise when an unknown key shows up?"
    )
    pick = await _pick(engine, question, [source("S1", "Customizing", FORBID)])
    assert pick.best is not None and pick.best.passage.is_code
    shown = shown_for(pick.best.passage, analyse(question).terms).block
    assert "ForbiddenExtraKeyError" in shown


# stamina's tutorial says testing helpers exist; its testing page names the one to call.
STAMINA_TUTORIAL = (
    "# Tutorial\n\n## Testing\n\n"
    "Testing software with retries can be tricky, so *stamina* comes with dedicated testing "
    "helpers to make your life easier.\n\n"
    "You can *globally* turn them off altogether, remove backoff, and limit the number of "
    "retries.\n\nCheck out testing to learn more!\n"
)
STAMINA_TESTING = (
    "# Testing\n\n## Turn off retries\n\n"
    "The easiest way is to turn off retries using `stamina.set_active`:\n\n"
    "```python\nimport pytest\nimport stamina\n\n"
    '@pytest.fixture(autouse=True, scope="session")\ndef deactivate_retries():\n'
    "    stamina.set_active(False)\n```\n\n"
    "This is a great approach when you're only using our decorator-based API.\n"
)


async def test_asked_how_a_passage_naming_the_way_beats_one_saying_it_can_be_done(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "How do I turn off retries in my tests?",
        [
            source("S1", "Tutorial", STAMINA_TUTORIAL),
            source("S2", "Testing", STAMINA_TESTING),
        ],
    )
    assert pick.best is not None and "set_active" in pick.best.passage.quote


@pytest.mark.parametrize(
    ("question", "passage", "avoided"),
    [
        (
            "How do I let options Click doesn't recognise go through instead of raising an error?",
            "Starting with Click 2.0, you can also raise the `BadParameter` error.",
            True,
        ),
        (
            "How do I unregister the blueprint without restarting the process?",
            "You can restart the server with `--reload`.",
            True,
        ),
        (
            "How do I let options Click doesn't recognise go through instead of raising an error?",
            "You can set `ignore_unknown_options` in the context settings.",
            False,
        ),
        ("How do I raise an error?", "You can raise `UsageError`.", False),
    ],
)
def test_a_way_doing_what_the_question_wants_to_do_without_is_not_the_way(
    question: str, passage: str, avoided: bool
) -> None:
    assert _does_the_avoided(analyse(question).avoided, passage) is avoided


@pytest.mark.parametrize(
    ("passage", "avoided"),
    [
        ("The next best option is to use the `pytest.mark.anyio` marker:", True),
        ("The marker is applied to each test function.", False),  # no way offered
        ("Apply the marker with `pytestmark`.", True),
        ("You can use a marker to select the tests.", True),  # (the thing, then more words)
        ("Use the `pytest.mark.anyio` marker on each test.", True),
        ("Setting the `anyio_mode` option in the pytest configuration", False),
    ],
)
def test_a_way_using_what_the_question_wants_to_do_without_is_not_the_way(
    passage: str, avoided: bool
) -> None:
    asked = analyse("How can I make the plugin pick up all our async tests without a marker?")
    assert asked.avoided_things == ("marker",)
    assert _uses_the_avoided(asked.avoided_things, passage) is avoided


def test_a_thing_to_do_without_is_read_through_the_deed_and_its_modifier() -> None:
    """towncrier 26.9, read by a new user: "… pin the release date … without adding a
    command-line flag?" got "You can change this with the `--date` flag"."""
    asked = analyse(
        "For reproducible builds, how can our CI pin the release date that towncrier writes "
        "into the news file without adding a command-line flag?"
    )
    assert asked.avoided_things == ("flag",)
    assert _uses_the_avoided(asked.avoided_things, "You can change this with the `--date` flag:")
    assert not _uses_the_avoided(
        asked.avoided_things, "Set a static build timestamp in the `SOURCE_DATE_EPOCH` variable."
    )


TEST_MODES = (
    "# Testing with AnyIO\n\n## Creating asynchronous tests\n\n"
    "Pytest does not natively support running asynchronous test functions, so they have to be "
    "marked for the AnyIO pytest plugin to pick them up. This can be done in one of two ways:\n\n"
    '1. Setting the `anyio_mode = "auto"` option in the pytest configuration\n'
    "2. Using the `pytest.mark.anyio` marker\n\n"
    "Note: This does not work if `pytest-asyncio` is installed and configured to use its own "
    "`auto` mode, as it will conflict with the AnyIO plugin.\n\n"
    "In case your AnyIO tests need to coexist with other async test plugins, the next best "
    "option is to use the `pytest.mark.anyio` marker."
)


async def test_asked_how_to_do_without_a_thing_the_way_using_it_is_not_chosen(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm tired of decorating every async test with @pytest.mark.anyio. How can I make "
        "the AnyIO pytest plugin pick up all our async tests without a marker?"
    )
    pick = await _pick(engine, question, [source("S1", "Testing with AnyIO", TEST_MODES)])
    assert pick.best is not None and pick.ranked is not None
    assert "next best option" not in pick.best.passage.quote
    marker = next(c for c in pick.ranked if "next best option" in c.passage.quote)
    mode = next(c for c in pick.ranked if c.passage.quote.startswith("Setting the `anyio_mode"))
    assert marker.similarity > mode.similarity  # nearer in meaning, but the way ruled out


UNKNOWN_FIELDS = [
    (
        "Handling unknown fields",
        "By default, `load` will raise a `ValidationError` if it encounters a key with no "
        "matching `Field` in the schema.\n\n"
        "If the `unknown` option is set to `INCLUDE`, values with keys corresponding to "
        "dump-only fields are loaded with no validation.",
    )
]


async def test_what_happens_by_default_is_not_what_happens_with_the_value_the_asker_set(
    engine: OfflineEngine,
) -> None:
    question = (
        "Our schema sets unknown=INCLUDE and has a dump-only id field. If a client sends an id, "
        "what happens to it when we load?"
    )
    pick = await _pick(engine, question, [sectioned("S1", "Quickstart", UNKNOWN_FIELDS)])
    assert pick.best is not None and pick.ranked is not None
    assert "INCLUDE" in pick.best.passage.quote
    said = "By default, `load` will raise a `ValidationError`."
    assert default_without_the_set_value(question, said)
    assert not default_without_the_set_value("What happens to unknown keys on load?", said)
    assert not default_without_the_set_value(question, "If `unknown` is `INCLUDE`, it loads.")


@pytest.mark.parametrize(
    ("sentence", "terms", "denied"),
    [
        (
            "Workers share a queue, and `LISTEN` wakes an idle worker, so there is no polling "
            "latency.",
            ["postgres", "connections", "consumer", "hold"],
            False,
        ),
        (
            "Bound loggers are immutable, so it's not possible to modify a context directly.",
            ["modify", "context", "place"],
            True,
        ),
        (
            "This option cannot be specified in the `pyproject.toml` config.",
            ["line-ranges", "pyproject.toml"],
            True,
        ),
        # (a comma or "and" inside the clause does not cut its subject off)
        ("Proxies over HTTPS and SOCKS are not supported.", ["https", "proxy"], True),
        ("HTTPS proxies, unfortunately, are not supported.", ["https", "proxy"], True),
    ],
)
def test_what_is_said_not_to_be_must_be_what_the_question_asks_about(
    sentence: str, terms: list[str], denied: bool
) -> None:
    assert denies(sentence, gone=False)
    assert _denies_what_is_asked(sentence, terms) is denied


CONSUMER_OPTIONS = [
    (
        "Options for the consumer",
        "`-d`, `--delay`: When using a polling queue backend, this is the number of seconds to "
        "wait when polling the backend. Default is 0.1 seconds.\n\n"
        "`-w`, `--workers`: Number of worker threads. Default is 1.",
    ),
    (
        "Troubleshooting",
        "`RedisHuey` reacts instantly to new messages. `SqliteHuey` and `FileHuey` poll.\n\n"
        "The default scheduler interval is 1 second, which is the lowest value accepted.",
    ),
]


async def test_a_value_need_not_name_code_only_the_scene_names(engine: OfflineEngine) -> None:
    question = (
        "On SqliteHuey, tasks enqueued after a quiet period sit for seconds before a worker "
        "picks them up. What is the consumer's default polling delay?"
    )
    docs = [sectioned("S1", "Consuming Tasks", CONSUMER_OPTIONS)]
    pick = await _pick(engine, question, docs)
    assert pick.found and pick.best is not None
    assert "0.1 seconds" in pick.best.passage.quote
    # … but a name the ask points back to is the ask's own ("that backend")
    back = "We run SqliteHuey. What is the default polling delay of that backend?"
    pick = await _pick(engine, back, docs)
    assert pick.best is not None and not (pick.found and "0.1" in pick.best.passage.quote)


DETAILED_VALIDATION = [
    (
        "Validation",
        "cattrs has a detailed validation mode since version 22.1.0, and this mode is enabled "
        "by default. When running under detailed validation, the structuring hooks are "
        "slightly slower but produce richer and more precise error messages.",
    ),
    (
        "Transforming exceptions",
        "`cattrs.transform_error` turns an exception group into a list of error messages, "
        "each with the path to the field, like `$.a_list[0]`.",
    ),
]


async def test_a_premise_that_a_thing_was_dropped_is_denied_by_its_being_on(
    engine: OfflineEngine,
) -> None:
    question = (
        "Since cattrs dropped detailed validation in 25.x, how do I still get every field's "
        "error with its path?"
    )
    docs = [sectioned("S1", "Validation", DETAILED_VALIDATION)]
    pick = await _pick(engine, question, docs)
    assert pick.denial is not None
    assert "enabled by default" in pick.denial.passage.quote
    # the asker's own words: the release it was "dropped" in is not what a denial must say
    said = (
        "Since cattrs dropped detailed validation in the 25.x releases, structuring errors now "
        "just bubble up one at a time. What's the recommended way now to get a list of all "
        "field errors with their paths?"
    )
    denied = (await _pick(engine, said, docs)).denial
    assert denied is not None and "enabled by default" in denied.passage.quote
    # … nor by another release's support, nor by what is merely "on" a roadmap
    other = [("Python", "Python 3 support is available since attrs 17.1.")]
    two = "Since attrs dropped Python 2 support, how do I keep my old code running?"
    assert (await _pick(engine, two, [sectioned("S2", "Python", other)])).denial is None
    roadmap = [("Storage", "The Redis storage backend is on the roadmap for removal.")]
    redis = "Since huey dropped the Redis storage backend, which one should I move to?"
    assert (await _pick(engine, redis, [sectioned("S3", "Storage", roadmap)])).denial is None
    # … and not a premise that keeps it
    kept = "Since cattrs has detailed validation, how do I get every field's error with its path?"
    assert (await _pick(engine, kept, docs)).denial is None


def test_a_notes_label_does_not_hide_that_it_points_back() -> None:
    assert _points_back("Note: This does not work if `pytest-asyncio` is installed.")
    assert not _points_back("Note: Windows does not support the `SIGTERM` signal.")


# Click's docs: validation callbacks raise errors; forwarding unknown options avoids one.
CLICK_VALIDATION = (
    "# Options\n\n## Callbacks for Validation\n\n"
    "If you want to apply custom validation logic, you can do this in the parameter callbacks. "
    "These callbacks can both modify values as well as raise errors if the validation does not "
    "work. The callback runs after type conversion. It is called for all sources, including "
    "prompts.\n\n"
    "In Click 1.0, you can only raise the `UsageError` but starting with Click 2.0, you can "
    "also raise the `BadParameter` error, which has the added advantage that it will "
    "automatically format the error message to also contain the parameter name.\n"
)
CLICK_FORWARDING = (
    "# Advanced Patterns\n\n## Forwarding Unknown Options\n\n"
    "In some situations it is interesting to be able to accept all unknown options for further "
    "manual processing. The support for this is provided through a parser flag called "
    "`ignore_unknown_options` which will instruct the parser to collect all unknown options "
    "and to put them to the leftover argument instead of triggering a parsing error.\n\n"
    "You can use `pass_context` to get the context passed. This will only work if in addition "
    "to `ignore_unknown_options` you also set `allow_extra_args` as otherwise the command will "
    "abort with an error that there are leftover arguments.\n"
)


async def test_asked_how_to_do_without_something_a_way_doing_it_is_not_chosen(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine,
        "My command wraps another program. How do I let options Click doesn't recognise go "
        "through to it instead of raising an error?",
        [
            source("S1", "Options", CLICK_VALIDATION),
            source("S2", "Advanced Patterns", CLICK_FORWARDING),
        ],
    )
    assert pick.best is not None and "ignore_unknown_options" in pick.best.passage.quote


# blackd's docs: the status codes it answers with, one per condition.
BLACKD_CODES = (
    "# blackd\n\n## Usage\n\nblackd only accepts `POST` requests at the `/` path. The body of "
    "the request should contain the python source code to be formatted.\n\n"
    "The response codes are:\n\n"
    "- `HTTP 200`: If the input was formatted.\n"
    "- `HTTP 204`: If the input is already well-formatted.\n"
    "- `HTTP 400`: If the input contains a syntax error.\n"
)


async def test_an_ask_of_only_the_kind_asked_for_is_held_by_a_passage_naming_one(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm writing an editor plugin that POSTs the buffer to blackd. When the code is already "
        "fine and nothing needs changing, what HTTP status do I get back?"
    )
    asked = analyse(question)
    assert names_wanted_type(asked, "`HTTP 204`: If the input is already well-formatted.", question)
    assert not names_wanted_type(asked, "The body should contain the source code.", question)
    pick = await _pick(engine, question, [source("S1", "blackd", BLACKD_CODES)])
    assert pick.best is not None and "204" in pick.best.passage.text
    assert pick.best.coverage < 0.25  # few of the scene's words, and the ask says only
    assert _holds_the_ask(asked, pick.best, pick.idf or {}, question)  # "get back" a status
    assert pick.found


# Jinja's template docs: the loop variable's attributes, one line each.
LOOP_ATTRIBUTES = (
    "# Template Designer Documentation\n\n## For\n\n"
    "Inside of a for-loop block, you can access some special variables:\n\n"
    "- `loop.index`: The current iteration of the loop. (1 indexed)\n"
    "- `loop.index0`: The current iteration of the loop. (0 indexed)\n"
    "- `loop.first`: True if first iteration.\n"
)


async def test_asked_which_attribute_of_a_thing_a_member_of_it_named_holds_the_ask(
    engine: OfflineEngine,
) -> None:
    question = (
        "Inside a for loop I need a zero-based counter rather than the usual 1-based one. "
        "Which loop attribute gives me that?"
    )
    asked = analyse(question)
    assert names_wanted_type(asked, "`loop.index0`: The current iteration of the loop.", question)
    assert not names_wanted_type(asked, "`cycler.next()`: Goes one item ahead.", question)
    pick = await _pick(engine, question, [source("S1", "Templates", LOOP_ATTRIBUTES)])
    assert pick.best is not None and "index0" in pick.best.passage.text
    assert pick.found


# Starlette's routing docs: the route-order advice shows the very paths a user asks about.
ROUTING = (
    "# Routing\n\n## Route priority\n\n"
    "Incoming paths are matched against each `Route` in order.\n\n"
    "In cases where more that one route could match an incoming path, you should\n"
    "take care to ensure that more specific routes are listed before general cases.\n\n"
    "For example:\n\n```python\n# Don't do this: `/users/me` will never match incoming requests.\n"
    "routes = [\n    Route('/users/{username}', user),\n"
    "    Route('/users/me', current_user),\n]\n\n"
    "# Do this: `/users/me` is tested first.\nroutes = [\n    Route('/users/me', current_user),\n"
    "    Route('/users/{username}', user),\n]\n```\n\n"
    "## Working with Router instances\n\n"
    "If you're working at a low-level you might want to use a plain `Router`\n"
    "instance, rather that creating a `Starlette` application. This gives you\n"
    "a lightweight ASGI application that just provides the application routing,\n"
    "without wrapping it up in any middleware.\n\n"
    "```python\napp = Router(routes=[\n    Route('/', homepage),\n    Mount('/users', routes=[\n"
    "        Route('/', users, methods=['GET', 'POST']),\n        Route('/{username}', user),\n"
    "    ])\n])\n```\n"
)


async def test_code_showing_the_paths_the_question_writes_out_is_preferred(
    engine: OfflineEngine,
) -> None:
    question = (
        "My /users/me route never gets called because /users/{username} catches it. "
        "How do I fix that?"
    )
    assert analyse(question).quoted == ("/users/me", "/users/{username}")
    pick = await _pick(engine, question, [source("S1", "Routing", ROUTING)])
    assert pick.best is not None and "listed before general cases" in pick.best.passage.quote


def test_what_a_tool_never_does_is_denied_but_a_rule_with_never_is_no_denial() -> None:
    assert denies(
        "pytest is single-threaded, executing its tests always in the same thread, "
        "sequentially, never spawning any threads itself."
    )
    assert denies("The worker never retries a failed job.")
    assert not denies("It has never been easier to configure.")
    assert not denies("The client never needs more than one pool.")


async def test_a_premise_that_the_tool_does_what_it_never_does_is_denied(
    engine: OfflineEngine,
) -> None:
    threads = (
        "# Flaky tests\n\nA test may pass or fail depending on the order or the timing.\n\n"
        "## Thread-safety\n\npytest is single-threaded, executing its tests always in the "
        "same thread, sequentially, never spawning any threads itself. Tests that use "
        "threads themselves may still be flaky."
    )
    question = (
        "pytest runs my tests across several threads by default, so how do I cap the number "
        "of worker threads it uses?"
    )
    pick = await _pick(engine, question, [source("S1", "Flaky tests", threads)])
    assert pick.denial is not None
    assert "never spawning any threads" in pick.denial.passage.text


async def test_an_ask_to_grab_a_thing_is_held_by_the_passage_naming_it(
    engine: OfflineEngine,
) -> None:
    logging_page = (
        '# Logging\n\nWerkzeug uses standard Python logging. The logger is named `"werkzeug"`. '
        "If the logger level is not set, it will be set to `INFO` on first use.\n\n"
        "## Handlers\n\nA handler that writes to the terminal is added when none is configured."
    )
    question = (
        "The dev server spams my console with a log line per request and I want to route "
        "those into my own logging setup. Which logger should I grab?"
    )
    pick = await _pick(engine, question, [source("S1", "Logging", logging_page)])
    assert pick.best is not None and "named" in pick.best.passage.text
    assert pick.found


def test_a_name_leading_a_dotted_code_name_is_known_but_a_file_extension_is_not() -> None:
    api = source(
        "S1",
        "API",
        "# Policies\n\n`json.dumps_kwargs`: Keyword arguments to be passed to the dump "
        "function. The default is `{'sort_keys': True}`. The report is written to `report.html`.",
    )
    question = "What keyword arguments does Jinja pass to the JSON dump function?"
    assert "JSON" not in unknown_names(question, [api])
    assert unknown_names("How do I get an HTML report?", [api]) == ["HTML"]


def test_a_thing_said_fully_removed_is_gone() -> None:
    sentence = (
        "We currently support a compatibility argument `strict_exception_groups=False` to "
        "`trio.run`, which restores the old behavior (although `MultiError` itself has been "
        "fully removed)."
    )
    assert _gone_named(sentence, ["trio.MultiError", "MultiError"])
    assert not _gone_named(sentence.replace("removed", "documented"), ["MultiError"])
    assert not _gone_named(sentence, ["trio.run"])  # named before, in another clause


SUBPROCESS = (
    "`communicate` is not provided as a method on `Process` objects; call `run_process` "
    "normally for simple capturing, or write the loop yourself if you have unusual needs.\n\n"
    "`run_process` runs a process to completion and can capture its output."
)


async def test_code_the_ask_uses_said_not_provided_denies_a_question_with_a_negation(
    engine: OfflineEngine,
) -> None:
    question = (
        "A child process we start with open_process sometimes hangs. What's the right way to "
        "pass a timeout to its communicate() method so we don't wait on it forever?"
    )
    pick = await _pick(engine, question, [source("S1", "Subprocesses", SUBPROCESS)])
    assert pick.denial is not None
    assert "is not provided" in pick.denial.passage.text
    # a method the ask does not use, said not provided, denies nothing
    other = SUBPROCESS.replace("`communicate` is", "`kill_tree` is")
    pick = await _pick(engine, question, [source("S1", "Subprocesses", other)])
    assert pick.denial is None


ALIASES = (
    "Type aliases are supported on Python 3.12+ and are handled according to the rules for "
    "their underlying type.\n\n"
    "Warning: Type aliases using `typing.TypeAlias` aren't supported since there is no way at "
    "runtime to distinguish them from their underlying types.\n\n"
    "Hooks for any type are registered with `register_structure_hook()`."
)


async def test_the_scene_code_the_ask_points_back_to_said_unsupported_denies_it(
    engine: OfflineEngine,
) -> None:
    question = (
        "I declared `UserId: TypeAlias = int` with typing.TypeAlias and want a dedicated "
        "structure hook for UserId, separate from plain int. Which registration method should "
        "I call for that alias?"
    )
    pick = await _pick(engine, question, [source("S1", "Built-in Hooks", ALIASES)])
    assert pick.denial is not None
    assert "aren't supported" in pick.denial.passage.text
    # (an ask that does not point back at the scene's code is not denied by it)
    plain_ask = question.replace("for that alias?", "for a new type?")
    pick = await _pick(engine, plain_ask, [source("S1", "Built-in Hooks", ALIASES)])
    assert pick.denial is None


CLEANUP = (
    "Now suppose that the remote server stops responding, so our call to "
    "`await conn.send_hello_msg()` hangs forever, and the goodbye call in the finally block "
    "is cancelled too.\n\n"
    "If you really want to make another blocking call in your cleanup handler, create a new "
    "scope and set its `shield` attribute to `True`, with a timeout of its own."
)


async def test_a_trouble_the_documents_suppose_is_not_how_to_get_past_it(
    engine: OfflineEngine,
) -> None:
    question = (
        "Our wrapper does `await conn.send_goodbye_msg()` in a finally block. When the timeout "
        "fires, the goodbye call is cancelled too. How do I let that cleanup call actually run?"
    )
    pick = await _pick(engine, question, [source("S1", "Cancellation", CLEANUP)])
    assert pick.best is not None
    assert pick.best.passage.text.startswith("If you really want")  # not after the trouble


SOCKETS = (
    "Trio socket objects are similar to the standard library's, with these differences.\n\n"
    "The following methods are identical to their equivalents in `socket.socket`:\n\n"
    "- `family`\n- `fileno`\n- `getsockname`\n- `setsockopt`\n\n"
    "The following socket methods are not supported:\n\n"
    "- `setblocking`\n- `settimeout`\n- `makefile`\n- `sendall`\n"
)


async def test_a_list_of_what_is_not_answers_which_ones_wont_be_there(
    engine: OfflineEngine,
) -> None:
    question = (
        "I'm porting a client from the stdlib socket module. Which socket methods won't be "
        "available on Trio's socket objects?"
    )
    assert analyse(question).denied
    pick = await _pick(engine, question, [source("S1", "Sockets", SOCKETS)])
    assert pick.found and pick.best is not None
    assert "setblocking" in pick.best.passage.text
    assert "fileno" not in pick.best.passage.text


@pytest.mark.parametrize(
    "question",
    [
        "Which processors does structlog run by default, in order, when I don't configure "
        "anything?",
        "Which global functions can I call in any template, without registering anything?",
        "Which socket methods are available on Trio's socket objects?",
    ],
)
def test_a_negation_in_the_asks_condition_is_no_list_of_what_is_not(question: str) -> None:
    assert analyse(question).kind == "list"
    assert not analyse(question).denied


def test_asked_for_a_kind_of_thing_a_denial_names_that_kind() -> None:
    asked = analyse(
        "We keep a per-machine config file outside the repo. Which environment variable tells "
        "invoke where to find that runtime config file?"
    )
    soft = (
        "Environment variables are a bit different from other configuration-setting methods, "
        "since they don't provide a clean way to nest configuration keys."
    )
    assert not _denies_what_is_asked(soft, asked.terms, asked.wants)
    plain_no = "There is no environment variable for the runtime config file."
    assert _denies_what_is_asked(plain_no, asked.terms, asked.wants)


def test_a_method_of_a_documented_class_is_no_unknown_name() -> None:
    docs = source(
        "S1",
        "File I/O",
        "AnyIO provides an asynchronous version of the `pathlib.Path` class, `anyio.Path`. "
        "Operations that perform disk I/O (like `read_bytes`) run in a worker thread.",
    )
    question = "How many anyio.Path.read_bytes calls run at once?"
    assert unknown_names(question, [docs]) == []
    # a method the documents never name, and a name under an undocumented module, are unknown
    assert unknown_names("What does anyio.Path.read_magic do?", [docs]) == ["anyio.Path.read_magic"]
    assert unknown_names("What does anyio.files.read_bytes do?", [docs]) == [
        "anyio.files.read_bytes"
    ]


def test_a_passage_opening_on_a_condition_without_its_subject_leans_on_what_came_before() -> None:
    from backend.reasoning.offline.pick import _leans_back

    text = (
        "You can disable retrying entirely by passing `enabled=False` to the decorator. "
        "When disabled, the decorated function is called directly without any retry logic."
    )
    found = {p.sentences[0].split(",")[0][:13]: p for p in passages(source("S1", "Retry", text))}
    assert _leans_back(found["When disabled"]) and not _leans_back(found["You can disab"])
    # under a setting's own entry, "If omitted, …" is said of that setting
    entry = sectioned("S1", "API", [("`timeout`", "If omitted, the client waits forever.")])
    (omitted,) = [p for p in passages(entry) if p.sentences[0].startswith("If omitted")]
    assert not _leans_back(omitted)


def test_a_condition_on_a_thing_named_before_or_an_otherwise_leans_on_it() -> None:
    """configobj 5.0.9's docs, read by a new user: "If you set this to `True`, …" (this: the
    `preserve_errors` of the sentence before) and "Otherwise, the behaviour of this method
    depends on …" were answers on their own."""
    from backend.reasoning.offline.pick import _leans_back

    text = (
        "The `validate` method takes an optional keyword argument `preserve_errors`. "
        "If you set this to `True`, you get the actual error object for failed checks. "
        "If `filename` is set, `write` writes to that file. "
        "Otherwise, the behaviour of this method depends on the `filename` attribute. "
        "If this page is new to you, start with the tutorial."
    )
    found = {p.sentences[0][:12]: p for p in passages(source("S1", "Validation", text))}
    assert _leans_back(found["If you set t"]) and _leans_back(found["Otherwise, t"])
    assert not _leans_back(found["The `validat"]) and not _leans_back(found["If `filename"])
    assert not _leans_back(found["If this page"])  # the text naming itself


def test_an_instruction_on_a_thing_named_before_leans_on_it() -> None:
    """marshmallow-sqlalchemy's recipes, read by a new user: "Use this to switch between
    loading to a dictionary or to a model instance:" (this: the `load_instance` argument of
    the sentence before) was the answer on its own."""
    from backend.reasoning.offline.pick import _leans_back

    text = (
        "You can override the schema `load_instance` flag by passing in a `load_instance` "
        "argument when creating the schema instance. Use this to switch between loading to a "
        "dictionary or to a model instance. Use this option sparingly in tests. Set it to "
        "`True` when the session is shared. Add this to your `setup.cfg` file:\n\n"
        "```ini\n[tool]\nload_instance = true\n```"
    )
    found = {p.sentences[0][:12]: p for p in passages(source("S1", "Recipes", text))}
    assert _leans_back(found["Use this to "]) and _leans_back(found["Set it to `T"])
    assert not _leans_back(found["You can over"])
    assert not _leans_back(found["Use this opt"])  # "this option" is named, not leant on
    assert not _leans_back(found["Add this to "])  # what follows it is placed


def test_a_passage_counting_what_the_sentence_before_named_leans_on_it() -> None:
    from backend.reasoning.offline.pick import _leans_back

    # h11 0.16.0's api.rst: "them" are the fields of the sentence before
    text = (
        "Like all events, it has several fields. For `Request`, there are four of them: "
        '`method`, `target`, `headers`, and `http_version`. The latter defaults to `b"1.1"`. '
        "Celery supports Redis, RabbitMQ and SQS; all of them are brokers."
    )
    found = {p.sentences[0][:12]: p for p in passages(source("S1", "API", text))}
    assert _leans_back(found["For `Request"]) and _leans_back(found["The latter d"])
    # what it counts is named in the sentence's own first clause
    assert not _leans_back(found["Celery suppo"])


SMARTY_OPTIONS = (
    "The following options are provided to configure the output:\n\n"
    "* **`smart_dashes`**: Default value: `True`; whether to convert dashes\n"
    "* **`smart_quotes`**: Default value: `True`; whether to convert straight quotes\n"
    "* **`smart_angled_quotes`**: Default value: `False`; whether to convert angled quotes\n"
    "* **`smart_ellipses`**: Default value: `True`; whether to convert ellipses\n"
)


def test_the_default_state_a_question_asks_for_and_a_setting_states() -> None:
    assert default_state("Which setting is off by default?", re.compile(r"x")) is None
    assert default_state("`x`: Default value: `False`; whether to convert") is False
    assert default_state("It defaults to `True`.") is True
    assert default_state("Compression is disabled by default.") is False
    assert default_state("The timeout defaults to 5 seconds.") is None


async def test_a_setting_off_by_default_is_answered_by_the_entry_whose_default_is_off(
    engine: OfflineEngine,
) -> None:
    question = (
        "I turned on the smarty extension: straight quotes become curly quotes and -- becomes "
        "a dash, but our French translators' << guillemets >> come through untouched. Which "
        "smarty setting is off by default and needs turning on?"
    )
    pick = await _pick(engine, question, [source("S1", "SmartyPants", SMARTY_OPTIONS)])
    assert pick.best is not None and pick.ranked is not None
    assert "smart_angled_quotes" in pick.best.passage.text
    # the order is left alone when the question asks no on/off default
    assert (
        _stated_default_first(pick.ranked[1:], "Which smarty setting converts dashes?")
        == (pick.ranked[1:])
    )


async def test_a_module_of_a_dotted_path_is_not_what_its_removal_denies(
    engine: OfflineEngine,
) -> None:
    # "`wtforms.ext.appengine` Is deprecated" denies nothing of WTForms' own messages (the
    # scene's "Not a valid …" is a quoted message, no premise of its own)
    sources = [
        source(
            "S1",
            "What's New in WTForms 2",
            "All the extensions are being deprecated.\n\n"
            "* `wtforms.ext.appengine` Is deprecated, see WTForms-Appengine\n"
            "* `wtforms.ext.django` Is deprecated. See WTForms-Django\n",
        ),
        source(
            "S2",
            "Internationalization (i18n)",
            "WTForms has built-in messages for its validators. To get them in another "
            "language, set the `locales` option of `class Meta` to the languages wanted.",
        ),
        source("S3", "Crash Course", "WTForms is a flexible forms validation library."),
    ]
    question = (
        "Our site is Spanish-only and users keep seeing English errors like 'Not a valid "
        "integer value' from WTForms itself. How do I get WTForms' built-in messages in "
        "Spanish for all our forms?"
    )
    pick = await _pick(engine, question, sources)
    assert pick.denial is None
    assert _as_modifier("`wtforms.ext.appengine` Is deprecated", "WTForms") == (
        "` .ext.appengine` Is deprecated"
    )
    assert _as_modifier("WTForms is deprecated", "WTForms") == "WTForms is deprecated"


async def test_names_said_to_be_reserved_answer_which_cannot_be_used(
    engine: OfflineEngine,
) -> None:
    text = (
        "To render a field, simply call it, providing any values the widget expects as keyword "
        "arguments. Usually the keyword arguments are used for extra HTML attributes.\n\n"
        "In addition to providing data using the first two arguments (`formdata` and `obj`), "
        "you can pass keyword arguments to populate the form. Note though that a few names "
        "are reserved: `formdata`, `obj`, and `prefix`."
    )
    question = (
        "I pass extra keyword arguments to my form's constructor to pre-fill fields, and one of "
        "our fields happens to share a name with a constructor keyword, so it never gets its "
        "value. Which keyword names are reserved and can't be used that way?"
    )
    pick = await _pick(engine, question, [source("S1", "Crash Course", text)])
    assert pick.best is not None and pick.best.cue  # the list of what cannot be used
    assert "`formdata`, `obj`, and `prefix`" in pick.best.passage.text


async def test_one_sentence_naming_the_items_inline_stands_out_as_the_list_asked_for(
    engine: OfflineEngine,
) -> None:
    fields = sectioned(
        "S1",
        "Fields",
        [
            (
                "Field Enclosures",
                "Field enclosures allow you to have fields which represent a collection of "
                "fields, so that a form can be composed of multiple re-usable components or "
                "more complex data structures such as lists and nested objects can be "
                "represented.\n\n"
                "Note: Due to a limitation in how HTML sends values, FieldList cannot enclose "
                "`BooleanField`, `ButtonField`, or `SubmitField` instances.\n\n"
                "`FieldList` is not limited to enclosing simple fields; and can indeed "
                "represent a list of enclosed forms by combining FieldList with FormField.",
            ),
            (
                "Custom Fields",
                "While WTForms provides customization for existing fields "
                "using widgets and keyword argument attributes, sometimes it is necessary to "
                "design custom fields.",
            ),
        ],
    )
    question = (
        "I'm building a repeating 'line items' section with FieldList and wanted a per-row "
        "checkbox plus a per-row submit button. Which field types does WTForms say a "
        "FieldList can't wrap?"
    )
    pick = await _pick(engine, question, [fields])
    assert pick.best is not None and "cannot enclose" in pick.best.passage.text
    assert pick.found


@pytest.mark.parametrize(
    "question",
    [
        "Our appointment form still uses DateTimeField and a linter flagged it. Is it going "
        "away in a later WTForms release?",
        "Our appointment form still uses DateTimeField and a linter flagged it. What field are "
        "we supposed to move to?",
    ],
)
async def test_a_question_about_the_removal_itself_is_not_contradicted_by_it(
    engine: OfflineEngine, question: str
) -> None:
    text = (
        '`DateTimeField`: Warning: `DateTimeField` renders `<input type="datetime">`, which '
        "is obsolete in HTML. Use `DateTimeLocalField` instead. `DateTimeField` is deprecated "
        "and will be removed in WTForms 3.4."
    )
    pick = await _pick(engine, question, [source("S1", "Fields", text)])
    assert pick.denial is None


# packaging 26.4's contributor guide: the command is only in the console block after the lead-in
DOCS_BUILD = (
    "## Building documentation\n\n"
    "packaging documentation is stored in the `docs/` directory. It is written in "
    "reStructuredText and rendered using Sphinx.\n\n"
    "Use nox to build the documentation. For example:\n\n"
    "```console\n$ nox -s docs\n...\nnox > Session docs was successful.\n```\n\n"
    "The HTML documentation index can now be found at `docs/_build/html/index.html`.\n"
)


async def test_asked_what_command_to_run_the_command_line_after_its_lead_in_answers(
    engine: OfflineEngine,
) -> None:
    question = "Which command builds the docs so I can check the prose I add?"
    pick = await _pick(engine, question, [source("S1", "Getting started", DOCS_BUILD)])
    assert any(
        c.passage.is_code and "nox -s docs" in "\n".join(c.passage.code) for c in pick.ranked or []
    )
    # asked what the docs are written in, the command is no candidate
    other = await _pick(
        engine, "What markup is the documentation written in?", [source("S1", "G", DOCS_BUILD)]
    )
    assert other.ranked and not any(c.passage.is_code for c in other.ranked)


PYPARSING_REPEAT = (  # pyparsing 3.3.3's docs/HowToUsePyparsing.rst, cut short
    '- `expr[... ,n]` is equivalent to `expr*(0, n)` (read as "0 to n instances of expr")\n'
    "- `expr[1, ...]` is equivalent to `OneOrMore(expr)`\n\n"
    "Note that `expr[..., n]` does not raise an exception if more than n exprs exist in the "
    "input stream; that is, `expr[..., n]` does not enforce a maximum number of expr "
    "occurrences. If this behavior is desired, then write `expr[..., n] + ~expr`.\n"
)


MARKDOWN_NOT_COMMONMARK = (  # Python-Markdown's docs/index.md
    "Python-Markdown is a Python implementation of John Gruber's Markdown.\n\n"
    "Note: *This is not a CommonMark implementation*; nor is it trying to be!\n"
)


@pytest.mark.parametrize(
    ("question", "text", "denying"),
    [
        # "does not raise an exception": the negated word is "raise", not "an"
        (
            "Why does expr[..., n] raise an exception when there are more than n matches?",
            PYPARSING_REPEAT,
            "does not raise an exception",
        ),
        # "not a CommonMark implementation": the word after a one-letter article
        (
            "Since Python-Markdown is a CommonMark implementation, which version of the "
            "CommonMark spec does it follow?",
            MARKDOWN_NOT_COMMONMARK,
            "not a CommonMark implementation",
        ),
    ],
)
async def test_a_premise_is_denied_by_the_word_its_negation_governs(
    engine: OfflineEngine, question: str, text: str, denying: str
) -> None:
    pick = await _pick(engine, question, [source("S1", "Usage", text)])
    assert pick.denial is not None
    assert denying in pick.denial.passage.text


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        # h11 0.16.0's docs: what it takes to send a second request, not that it cannot be
        (
            "After sending one `Request`, you can't send another until after calling "
            "`start_next_cycle`.",
            False,
        ),
        ("You cannot read the body without the headers.", False),
        # an example in an aside is not what the sentence says
        (
            "Illegal characters are now rejected (example: you can't put a newline into an "
            "HTTP header).",
            False,
        ),
        # alembic's docs: the aside is the statement
        (
            "This flag allows named sections within the `alembic.ini` file to be present (but "
            "note it does not apply to `pyproject.toml` configuration).",
            True,
        ),
        ("As a client, h11 does not support pipelining.", True),
    ],
)
def test_a_prerequisite_or_an_asides_example_is_no_denial(sentence: str, denied: bool) -> None:
    assert denies(sentence) is denied


def test_a_non_prefix_negates_the_premise_word_it_is_put_before() -> None:
    from backend.reasoning.offline.pick import _negates

    premise = ["sqlparse", "checks", "sql", "syntactically", "valid"]  # "… is syntactically valid"
    assert _negates(
        "You should be aware that this SQL parser is intentionally non-validating.", premise
    )
    assert not _negates("The lexer uses non-blocking reads for SQL files.", premise)
    assert not _negates(
        "If you need a non-validating mode, set strict=False.", premise
    )  # a condition


def test_a_pointer_to_a_dotted_name_only_sends_the_reader_elsewhere() -> None:
    from backend.reasoning.offline.pick import _POINTER

    # bleach 6.4.0's linkify.rst: a dotted module name is one word of the pointer
    assert _POINTER.match("See bleach.callbacks for some included callback functions.")
    assert _POINTER.match("See the uWSGI documentation for more details.")
    assert not _POINTER.match("See bleach.callbacks. Then pass your own list.")


MISTUNE_RENDERERS = (
    "# Renderers\n\n"
    "Subclass `HTMLRenderer` to change how a node is written out. Plugin methods are "
    "registered on the renderer instance, not defined on `HTMLRenderer` itself, so "
    "`super().table(text)` is not available.\n\n"
    "To reuse the default table output inside an override, import `render_table` from "
    "`mistune.plugins.table` and call `render_table(self, text)`."
)


async def test_a_sentence_explaining_the_failure_the_scene_reports_denies_nothing(
    engine: OfflineEngine,
) -> None:
    """mistune: "… but calling super().table(text) fails. How do I reuse the default table
    HTML inside my override?" was answered "The sources contradict the question's premise: …
    so `super().table(text)` is not available." It agrees with the asker."""
    question = (
        "I subclassed HTMLRenderer to override table() and add a CSS class, but calling "
        "super().table(text) fails. How do I reuse the default table HTML inside my override?"
    )
    pick = await _pick(engine, question, [source("S1", "Renderers", MISTUNE_RENDERERS)])
    assert pick.denial is None
    # (the scene not saying it fails, or the sentence saying no error comes, it may deny)
    said = "so `super().table(text)` is not available."
    works = question.replace(
        "but calling super().table(text) fails", "so I call super().table(text)"
    )
    assert not pick_module._agrees_with_failure(works, said)
    assert pick_module._agrees_with_failure(question, said)
    assert not pick_module._agrees_with_failure(question, "`super().table()` will not raise.")


async def test_asked_how_a_way_past_the_default_comes_before_what_happens_by_default(
    engine: OfflineEngine,
) -> None:
    """mistune: "How can I convert a Markdown file to reStructuredText from the command
    line …?" was answered "By default, the command line tool converts Markdown text to HTML:"."""
    help_text = (
        "Mistune includes a command line tool. Use `-h` to show its options:\n\n"
        "```\n$ python -m mistune -h\n\nMistune, a sane and fast Python Markdown parser.\n\n"
        'Examples:\n\n    $ python -m mistune -m "Hi **Markdown**"\n'
        "    $ python -m mistune -f README.md\n\noptions:\n"
        "  -m, --message MESSAGE  the Markdown message to convert\n"
        "  -f, --file FILE        the Markdown file to convert\n"
        "  -r, --renderer RENDERER  specify the output renderer\n```"
    )
    cli = sectioned(
        "S1",
        "Command line tools",
        [
            ("Command line tools", help_text),
            (
                "Convert Markdown to HTML",
                "By default, the command line tool converts Markdown text to HTML:\n\n"
                "```\n$ python -m mistune -f README.md\n```",
            ),
            (
                "Convert Markdown to reStructuredText",
                "Mistune includes a reStructuredText renderer. Specify it with `-r rst`:\n\n"
                "```\n$ python -m mistune -f README.md -r rst\n```",
            ),
            (
                "Reformat Markdown",
                "Use the Markdown renderer to reformat a Markdown file:\n\n"
                "```\n$ python -m mistune -f README.md -r markdown -o README.md\n```\n\n"
                "This command reformats the text in `README.md`.",
            ),
        ],
    )
    question = (
        "How can I convert a Markdown file to reStructuredText from the command line with mistune?"
    )
    pick = await _pick(engine, question, [cli])
    assert pick.best is not None and "-r rst" in pick.best.passage.text
    # Scored as the real page was (the default's passage first, by a little), the way past the
    # default, nearer in meaning, comes first; asked about the default, it does not.
    by_text = {p.quote.split(":")[0]: p for p in passages(cli)}
    default = by_text["By default, the command line tool converts Markdown text to HTML"]
    way = by_text["Mistune includes a reStructuredText renderer. Specify it with `-r rst`"]
    scored = [
        Choice(default, 0.748, 0.596, 0.74, True),
        Choice(way, 0.719, 0.630, 0.65, True),
    ]
    terms = analyse(question).terms
    assert pick_module._way_past_default_first(scored, terms)[0].passage is way
    farther = [scored[0], Choice(way, 0.719, 0.55, 0.65, True)]
    assert pick_module._way_past_default_first(farther, terms)[0].passage is default


async def test_a_kind_of_thing_no_retrieved_page_names_is_not_found(engine: OfflineEngine) -> None:
    """simplejson 4.3.0's docs, read by a new user: "Under which software license is
    simplejson distributed?" was answered with "The latest documentation for simplejson can be
    read online here" (the docs name no license)."""
    text = (
        "# simplejson\n\n"
        "simplejson is a simple, fast, complete, correct and extensible JSON encoder and "
        "decoder for Python. It is pure Python code with no dependencies, but includes an "
        "optional C extension for a serious speed boost.\n\n"
        "The latest documentation for simplejson can be read online here: "
        "https://simplejson.readthedocs.io/\n\n"
        "simplejson is the externally maintained development version of the json library "
        "included with Python (since 2.6)."
    )
    pick = await _pick(
        engine,
        "Under which software license is simplejson distributed?",
        [source("S1", "simplejson", text)],
    )
    assert not pick.found
    # … and named, the same kind of question is answered
    licensed = text + "\n\nsimplejson is dual-licensed under the MIT license and the AFL."
    pick = await _pick(
        engine,
        "Under which software license is simplejson distributed?",
        [source("S1", "simplejson", licensed)],
    )
    assert pick.found and pick.best is not None and "MIT" in pick.best.passage.text


async def test_versions_of_a_product_the_passage_does_not_name_do_not_answer(
    engine: OfflineEngine,
) -> None:
    """docutils 0.23's docs/user, read by a new user: "What is the oldest Python 3 version that
    the current Docutils release still supports?" was answered with "Up to version 2.0,
    Docutils will still recognize the old "[options]" section" (the docs name no Python)."""
    text = (
        'Formerly, Docutils configuration files contained a single "[options]" section only. '
        "This was found to be inflexible, and in August 2003 Docutils adopted the current "
        "component-based configuration file sections. The current Docutils release still "
        'supports the old "[options]" section up to version 2.0, with a deprecation warning.'
    )
    writers = source(
        "S2",
        "HTML writers",
        "The html5 writer generates valid XML that conforms to the HTML standard. The "
        "html4css1 writer is kept for backwards compatibility. The writers are Python modules.",
    )
    question = (
        "What is the oldest Python 3 version that the current Docutils release still supports?"
    )
    pick = await _pick(engine, question, [source("S1", "Docutils Configuration", text), writers])
    assert not pick.found
    # … and a page naming Python's versions answers it
    told = text + " The current Docutils release requires Python 3.9 or later."
    pick = await _pick(engine, question, [source("S1", "Docutils Configuration", told), writers])
    assert pick.found and pick.best is not None and "3.9" in pick.best.passage.text


async def test_a_thing_taken_to_be_built_in_that_the_docs_say_is_not_there_is_denied(
    engine: OfflineEngine,
) -> None:
    """Pygments 2.21's security page, read by a new user: "Which port does pygmentize's
    built-in HTTP server listen on …?" was answered with a sentence on web services that use
    Pygments; the page says it starts no server."""
    text = (
        "First of all, please note that Pygments on its own does not allow remote input -- "
        "it's a command line application or library, but it has no RPC mechanism, nor does it "
        "start a server by default. For example, if you have a web service which uses Pygments "
        "for highlighting, there may be inputs which will cause the Pygments process to run "
        '"forever" and/or use significant amounts of memory.'
    )
    question = (
        "Which port does pygmentize's built-in HTTP server listen on when I run it as a "
        "highlighting service?"
    )
    pick = await _pick(engine, question, [source("S1", "Security considerations", text)])
    assert pick.denial is not None and "nor does it start a server" in pick.denial.passage.quote
    # … and where the docs have one, nothing is denied
    served = (
        "The `pygmentize -S` command prints a style. The built-in HTTP server of pygmentize "
        "listens on port 8080 unless told otherwise."
    )
    pick = await _pick(engine, question, [source("S1", "Command line", served)])
    assert pick.denial is None and pick.best is not None and "8080" in pick.best.passage.text


def test_a_condition_with_no_subject_then_a_pronoun_leans_on_what_came_before() -> None:
    """pexpect 4.9's overview, read by a new user: "When run by `PopenSpawn`, they may behave
    differently." ("they": programs that behave interactively only in a terminal) was one
    side of a comparison's answer."""
    from backend.reasoning.offline.pick import _leans_back

    text = (
        "Some programs only behave interactively when they are attached to a terminal. "
        "When run by `PopenSpawn`, they may behave differently. "
        "When run by cron, the job inherits a minimal environment."
    )
    leaning = [p for p in passages(source("S1", "Overview", text)) if "they may" in p.sentences[0]]
    steady = [p for p in passages(source("S1", "Overview", text)) if "cron" in p.sentences[0]]
    assert leaning and all(_leans_back(p) for p in leaning)
    assert steady and not any(_leans_back(p) for p in steady)


async def test_a_premise_on_which_file_wins_is_denied_by_a_sentence_saying_the_other_does(
    engine: OfflineEngine,
) -> None:
    """docutils 0.23's config.rst, read by a new user: "Settings in the system-wide
    /etc/docutils.conf take precedence over my personal ~/.docutils file; how can I make my
    personal config win instead?" was answered with how to convert old config files."""
    text = (
        "Configuration files are read in this order: `/etc/docutils.conf`, then "
        "`./docutils.conf`, then `~/.docutils`. If more than one configuration file is found, "
        "all will be read and later entries will override earlier ones. For example, a "
        '"stylesheet" entry in a user-specific configuration file will override a "stylesheet" '
        "entry in the system-wide file. To convert existing config files, the easiest way is "
        'to change the section title: change "[options]" to "[general]".'
    )
    question = (
        "Settings in the system-wide /etc/docutils.conf take precedence over my personal "
        "~/.docutils file; how can I make my personal config win instead?"
    )
    pick = await _pick(engine, question, [source("S1", "Docutils Configuration", text)])
    assert pick.denial is not None
    assert "user-specific configuration file will override" in pick.denial.passage.quote
    # … and a premise that agrees with it is not denied
    agreeing = question.replace("system-wide /etc/docutils.conf", "personal ~/.docutils file", 1)
    agreeing = agreeing.replace("my personal ~/.docutils file;", "the system-wide file;", 1)
    agreeing = agreeing.replace("my personal config win", "the system-wide config win", 1)
    pick = await _pick(engine, agreeing, [source("S1", "Docutils Configuration", text)])
    assert pick.denial is None


async def test_a_why_premise_on_which_setting_wins_is_denied_by_the_winner_named_alone(
    engine: OfflineEngine,
) -> None:
    """pyramid 2.1's environment.rst, read by a new user: "Why does a setting in my .ini file
    win over the matching PYRAMID_* environment variable …?" was answered with how settings
    behave; the note says the other side wins without saying "over" what."""
    text = (
        "If you started your application this way, your Pyramid application would behave in "
        "the same manner as if you had placed the respective settings in the `[app:main]` "
        "section of your application's `.ini` file. Note: Where a configuration file setting "
        "exists with the same meaning as an environment variable, and both are present at "
        "application startup time, the environment variable setting takes precedence."
    )
    question = (
        "Why does a setting in my .ini file win over the matching PYRAMID_* environment "
        "variable when both are set at startup?"
    )
    pick = await _pick(engine, question, [source("S1", "Environment Variables", text)])
    assert pick.denial is not None
    assert "environment variable setting takes precedence" in pick.denial.passage.quote
    # … and a premise that agrees with it is not denied
    agreeing = (
        "Why does the PYRAMID_* environment variable win over the matching setting in my .ini "
        "file when both are set at startup?"
    )
    pick = await _pick(engine, agreeing, [source("S1", "Environment Variables", text)])
    assert pick.denial is None


def test_a_thing_said_not_to_provide_another_denies_only_that_other() -> None:
    """factory_boy 3.3's reference.rst, read by a new user: "When should I pick LazyFunction
    over LazyAttribute for a computed field …?" was "contradicted" by "The class
    `LazyFunction` does not provide a decorator.", of a decorator nobody asked about."""
    from backend.reasoning.offline.pick import _denies_what_is_asked

    said = "The class `LazyFunction` does not provide a decorator."
    assert not _denies_what_is_asked(said, ["pick", "lazyfunction", "lazyattribute", "field"])
    assert _denies_what_is_asked(said, ["apply", "lazyfunction", "decorator", "method"])
    # (what cannot be, of the thing itself, still denies it)
    gone = "`LazyFunction` is not supported on Python 2."
    assert _denies_what_is_asked(gone, ["pick", "lazyfunction", "python"])


async def test_the_default_line_of_the_entry_asked_about_answers_a_default(
    engine: OfflineEngine,
) -> None:
    """docutils 0.23's latex.rst, read by a new user: "If I produce LaTeX output … and never
    set the document options, what paper size does the generated document use?" was answered
    with a line on font sizes, then with "By default, paper size and margin settings are
    determined by the document class." (under "page layout"); the entry "paper size" says
    "Default: a4paper"."""
    doc = sectioned(
        "S1",
        "Generating LaTeX with Docutils",
        [
            (
                "page layout",
                "By default, paper size and margin settings are determined by the document class.",
            ),
            (
                "font size",
                "Add font size in points to the document options, e.g. `--documentoptions=12`.",
            ),
            (
                "paper size",
                "Paper geometry can be changed using documentoptions or with the "
                "geometry package.\n\nDefault: a4paper",
            ),
        ],
    )
    question = (
        "If I produce LaTeX output with Docutils and never set the document options, what "
        "paper size does the generated document use?"
    )
    pick = await _pick(engine, question, [doc])
    assert pick.found and pick.best is not None
    assert pick.best.passage.sentences[0].startswith("Default: a4paper")
    # … which a reader sees with what it is the default of
    from backend.reasoning.offline.passages import named_by_heading

    assert named_by_heading(pick.best.passage) == "paper size"


ISORT_CONFIG = (
    "# Config files\n\n"
    "isort will traverse up to 25 parent directories until it finds a suitable config file. "
    "As soon as it finds a file, it stops looking.\n\n"
    "The config file search is done relative to the current directory. isort never merges "
    "config files together due to the confusion it can cause."
)


async def test_a_premise_is_denied_by_its_verb_negated_whatever_it_acts_on_is_called(
    engine: OfflineEngine,
) -> None:
    """isort: "Since isort merges the settings of every config file it finds …" / "isort never
    merges config files together": what is merged is said in other words."""
    question = (
        "Since isort merges the settings of every config file it finds while walking up the "
        "directory tree, how do I control which file's values take precedence?"
    )
    pick = await _pick(engine, question, [source("S1", "Config files", ISORT_CONFIG)])
    assert pick.denial is not None
    assert "never merges" in pick.denial.passage.quote


async def test_a_denial_of_another_act_does_not_deny_the_premise(engine: OfflineEngine) -> None:
    """ "When isort looks for a configuration file by walking up from the current location,
    what is the most …?": merging is not looking; the number answers."""
    question = (
        "When isort looks for a configuration file by walking up from the current location, "
        "what is the maximum number of parent directories it will climb?"
    )
    pick = await _pick(engine, question, [source("S1", "Config files", ISORT_CONFIG)])
    assert pick.denial is None
    assert pick.best is not None and "25" in pick.best.passage.quote


TOX_PLUGIN = (
    "# Appending version info\n\n"
    "A `toxfile.py` that appends text to the `tox --version` output. "
    "`tox_append_version_info` is a plain function looked up by name, not a hook, so it must "
    "not carry `@impl`:\n\n"
    '```python\ndef tox_append_version_info() -> str:\n    return "magic"\n```\n\n'
    "Hooks such as `tox_add_option` are marked with `@impl`."
)


async def test_a_premise_saying_what_a_thing_is_is_denied_by_not_one(
    engine: OfflineEngine,
) -> None:
    """tox: "Since tox_append_version_info is a hook …" / "`tox_append_version_info` is a plain
    function …, not a hook" (the sentence leads into code: it is read as a sentence)."""
    question = (
        "Since tox_append_version_info is a hook like tox_add_option, how do I decorate it "
        "with @impl in my toxfile.py?"
    )
    pick = await _pick(engine, question, [source("S1", "Your first plugin", TOX_PLUGIN)])
    assert pick.denial is not None
    assert "not a hook" in pick.denial.passage.quote
    # (said of another thing, it denies nothing)
    other = TOX_PLUGIN.replace("`tox_append_version_info` is a plain", "`tox_env_name` is a plain")
    pick = await _pick(engine, question, [source("S1", "Your first plugin", other)])
    assert pick.denial is None


def test_an_acronym_of_the_trade_is_no_unknown_name() -> None:
    """flit 4.2, read by a new user: "… authenticate to PyPI with an API token rather than my
    account password?" was "not found" because the docs never write "API"."""
    sources = [
        source(
            "S1",
            "Flit command line interface",
            "To upload using a PyPI token, set `FLIT_USERNAME` to `__token__`, and "
            "`FLIT_PASSWORD` to the token value.",
        )
    ]
    question = (
        "From a CI pipeline, how do I get flit publish to authenticate to PyPI with an API "
        "token rather than my account password?"
    )
    assert unknown_names(question, sources) == []
    # (a name the documents never write still is one)
    assert unknown_names(question.replace("an API token", "a Kerberos ticket"), sources) == [
        "Kerberos"
    ]
    # ("ready-made" says how it comes, not what)
    assert unknown_names("Is there a ready-made token for it?", sources) == []


async def test_a_scene_that_only_frames_the_ask_is_no_premise_a_negated_word_denies(
    engine: OfflineEngine,
) -> None:
    """zope.interface 8.7, read by a new user: "When checking an object with verifyObject,
    which keyword argument makes it check only the object's structure …?" was "contradicted"
    by "… certain conditions, such as the presence of attributes, cannot be verified"."""
    text = (
        "# Verifying interface implementations\n\n"
        "Many of the same things that `verifyObject` checks can be checked for classes, but "
        "certain conditions, such as the presence of attributes, cannot be verified.\n\n"
        "If we want to only check the structure of the object, without examining its "
        "declarations, we can use the `tentative` argument."
    )
    question = (
        "When checking an object with verifyObject, which keyword argument makes it check only "
        "the object's structure and skip whether the interface is actually declared?"
    )
    pick = await _pick(engine, question, [source("S1", "Verifying", text)])
    assert pick.denial is None
    assert pick.best is not None and "`tentative`" in pick.best.passage.quote
