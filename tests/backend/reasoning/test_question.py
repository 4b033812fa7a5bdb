"""What a question asks for, and whether a passage holds it."""

from __future__ import annotations

import pytest

from backend.reasoning.offline.question import (
    analyse,
    asking_part,
    enumerates,
    holds_cue,
    names_counted,
    names_wanted_type,
    needs_value,
    quoted_code,
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Does httpx follow redirects by default?", "yes_no"),
        ("Why is HTTP/2 not enabled by default?", "why"),
        ("How does version negotiation work?", "how"),
        ("How do I enable HTTP/2 in httpx?", "how"),
        ("What are the steps to add a new op.* directive of my own?", "how"),
        ("What are the terminal task statuses?", "list"),
        ("Which task statuses are terminal?", "list"),
        # the ask after a scene's colon says the kind
        (
            "Before I move some functions to to_process.run_sync: what restrictions are there "
            "on the callable?",
            "list",
        ),
        ("Spinning up servers: when should I request one port and when the factory?", "how"),
        ("Which environment variables does HTTPX recognize?", "list"),
        ("What HTTP status does an endpoint decorated with @requires return?", "name"),
        ("What process does the worker run first?", "lookup"),
        ("How can a test see the error page instead of the client re-raising?", "how"),
        ("What is the default timeout in HTTPX?", "number"),
        # (a paper size is a name, "a4paper"; a font size a number)
        ("What paper size does the generated document use?", "lookup"),
        ("What font size does the generated document use?", "number"),
        ("How many members does the band have?", "number"),
        ("When was the magazine founded?", "date"),
        # the circumstances that call for a thing are no date
        ("When would I need capfd?", "lookup"),
        ("Which version added the feature?", "date"),
        ("Which exception is raised when a request times out?", "name"),
        ("Which middleware does every Starlette application get without adding it?", "name"),
        ("Who wrote the novel?", "name"),
        ("Where is the company based?", "place"),
        ("What is the difference between requests.Session and httpx.Client?", "comparison"),
        ("What is MARSA?", "definition"),
        # the asking part decides, not the scene set before it
        (
            "When no object is on the context, how do find_object and ensure_object behave "
            "differently?",
            "comparison",
        ),
        ("My users are on Zsh. How does my tool have to be installed?", "how"),
        ("On Linux, where does the app keep its settings?", "place"),
        ("For which shells can Click produce completion scripts?", "list"),
        ("Which common subclasses of ClickException do the docs name?", "list"),
        ("After how many seconds does the prompt give up?", "number"),
        # a superlative of a measure asks for a value; of a thing, not
        ("On SQS, what is the longest delay the broker will honour?", "number"),
        ("What is the largest WebSocket message Starlette accepts?", "lookup"),
        # the names of several, asked after a scene that names them by their kind
        ("It goes through several shutdown phases. What are those phases called?", "list"),
        # a call's commas are inside its parentheses: the ask follows the scene's clause
        (
            "When I call apply_async(..., retry=True, retry_policy={...}) to control how "
            "publishing is retried, which keys can the retry_policy mapping contain?",
            "list",
        ),
        # an auxiliary after "what" is no listed thing, though the product's name ends in "s"
        ("What does attrs do with kw_only=True on a field with init=False?", "lookup"),
        ("Which functions make up the modern API?", "list"),
        # what exists, each of them; a "Besides …," opening only sets the scene
        ("Besides the default Worker, which alternative worker classes ship with RQ?", "list"),
        # the cases or stages themselves, not a comparison ("differ") or a number ("percentage")
        ("In which cases is the AST nonetheless allowed to differ?", "list"),
        ("At a high level, what stages does it go through before giving me a percentage?", "list"),
        ("Are there cases where the AST may differ?", "yes_no"),
        ("Which of the shipped validators check a lower bound?", "list"),
        ("Which of the teams he led was sold and renamed in 2007?", "lookup"),
        ("What gets executed, and in which order?", "list"),
        # the place in one's own code is a step; the verb "compare" in a step is no comparison
        ("My class derives from a framework class. Where do I put the super() call?", "how"),
        ("Comparing two instances blows up. How do I get attrs to compare that field?", "how"),
        ("How do I compare requests.Session with httpx.Client?", "comparison"),
        ("I'd like validation skipped inside one block of code. How?", "how"),
        # what kinds of value it takes, not a measure (stamina's `timedelta`)
        ("Besides a number of seconds, what can I pass as the timeout?", "lookup"),
        ("What is the default timeout?", "number"),
        # an ask naming the kind of name it wants is after a name, whatever measure a name in
        # it holds (invoke's `-T / --command-timeout`)
        ("Which config key does the -T / --command-timeout flag set?", "name"),
        ("Which setting does the timeout flag set?", "name"),
        ("Which timeout does the client use by default?", "number"),
    ],
)
def test_the_kind_of_answer_follows_the_question(question: str, kind: str) -> None:
    assert analyse(question).kind == kind


def test_a_default_question_needs_a_passage_with_a_default_value() -> None:
    asked = analyse("What is the default timeout in HTTPX?")
    assert needs_value(asked)
    assert holds_cue(asked, "The default behavior is to raise an error after 5 seconds.")
    assert not holds_cue(asked, "HTTPX is careful to enforce timeouts everywhere.")


def test_a_member_a_thing_is_kept_in_answers_where() -> None:
    """marshmallow-sqlalchemy's recipes: "Where can I inspect the fields … generated …?" is
    answered by the attribute they are added to, not by "… inspired by functionality from
    ColanderAlchemy." alone."""
    asked = analyse("Where can I inspect the fields that SQLAlchemyAutoSchema generated?")
    assert asked.kind == "place"
    assert holds_cue(
        asked, "Generated fields are added to a `Schema's` `_declared_fields` attribute."
    )
    assert holds_cue(asked, "The parsed options are kept in the `config.option` attribute.")
    # (what a dictionary holds is no place a thing is plugged in or found)
    assert not holds_cue(asked, "By default, errors will be stored in the errors dictionary.")
    assert not holds_cue(
        asked, "Any field generated by a `SQLAlchemyAutoSchema` can be overridden."
    )


def test_how_far_a_value_can_be_raised_is_answered_by_a_bound_not_the_value_it_has() -> None:
    asked = analyse("How far can I raise it?")
    assert asked.kind == "number" and asked.bound
    for bound in (
        "Value is a number from 0 (unlimited) to 8190.",
        "By default this value is 100 and can't be larger than 32768.",
        "you can increase the interval to as much as 60 seconds.",
        "It accepts up to 64 workers.",
    ):
        assert holds_cue(asked, bound), bound
    for value in ("**Default:** `4094`", "Request line over the limit: Answer: `414 URI Too Long`"):
        assert not holds_cue(asked, value), value
    assert not analyse("How many workers does it start?").bound
    assert not analyse("What is the default limit on the request line?").bound


def test_a_number_in_a_link_target_or_a_name_is_no_amount() -> None:
    asked = analyse("How many seconds does the spec say to wait before escalating to SIGKILL?")
    assert asked.kind == "number"
    for nothing in (
        "For the stdio [transport](/specification/2025-11-25/basic/transports), the client "
        "sends `SIGKILL` if the server does not exit within a reasonable time",
        "JSON-RPC messages **MUST** be UTF-8 encoded.",
        "Levels follow RFC 5424 and SEP-2577.",
    ):
        assert not holds_cue(asked, nothing), nothing
    assert holds_cue(asked, "Send `SIGKILL` if the server does not exit within 5 seconds.")


def test_a_value_one_may_set_is_not_the_amount_asked_for() -> None:
    asked = analyse("How long does the app get after a disconnect before the task is cancelled?")
    assert asked.kind == "number"
    assert not holds_cue(asked, "Set to 0 to cancel immediately (not recommended).")
    assert not holds_cue(asked, "It has this many seconds. You can set it to 0 to cancel.")
    assert holds_cue(asked, "**Default:** `3`\n\nGrace period (seconds) for ASGI apps.")
    assert holds_cue(asked, "The grace period is set to 3 seconds by default.")


def test_who_may_connect_is_answered_by_people_or_roles_not_by_any_name() -> None:
    asked = analyse("Who can connect to the control socket by default?")
    assert asked.people
    assert holds_cue(asked, "Default ``0600`` allows only the socket owner.")
    assert not holds_cue(asked, "`control_socket`: Default: `gunicorn.ctl`; Unix socket path")
    assert not analyse("Who maintains the `Statsd` logger class?").people  # a name, as before


def test_a_stated_limit_explains_why_a_setting_has_no_effect() -> None:
    asked = analyse("We set --keep-alive 75, but it still closes the connection. Why?")
    assert asked.kind == "why"
    note = "``sync`` worker does not support persistent connections and will ignore this option."
    assert holds_cue(asked, note)
    assert not holds_cue(asked, "The number of seconds to wait for requests on a connection.")


def test_a_failure_with_what_brings_it_about_explains_why_it_happens() -> None:
    asked = analyse("Pickling our instances sometimes fails. Why does this happen?")
    assert asked.kind == "why"
    # attrs's docs: the failure, then the condition that causes it
    assert holds_cue(asked, "Pickling of slotted classes will fail if a field is missing.")
    assert holds_cue(asked, "This situation can occur if you define a field with init=False.")
    assert not holds_cue(asked, "Pickling of slotted classes is supported out of the box.")
    assert not holds_cue(asked, "If it fails, you get an error.")  # a failure, no cause


def test_a_how_question_is_answered_by_an_instruction_not_a_reason() -> None:
    asked = analyse("How do I enable HTTP/2 in httpx?")
    assert holds_cue(asked, "You can do so by passing `http2=True` to the client.")
    assert not holds_cue(asked, "HTTP/2 is not enabled because HTTP/1.1 is mature.")
    assert holds_cue(asked, "Enabled like this:", is_code=True)


def test_a_why_question_is_answered_by_what_a_thing_is_good_for() -> None:
    asked = analyse(
        "Several worker processes are competing for the same shared resource: should I use "
        "wait_exponential or wait_random_exponential, and why?"
    )
    assert asked.kind == "why"
    # tenacity's docs: the reason, said as what it helps with
    assert holds_cue(
        asked,
        "When multiple processes are in contention for a shared resource, exponentially "
        "increasing jitter helps minimise collisions.",
    )
    assert not holds_cue(asked, "Normally retries happen after a wait interval.")


@pytest.mark.parametrize(
    ("passage", "holds"),
    [
        ("Permissions are implemented as an endpoint decorator.", False),  # opening word only
        ("It runs fine. Permissions are checked later.", False),  # a sentence's first word
        ("The server was written in Paris.", True),
        ("By default 403 responses will be returned.", True),
        ("Set it with `allow_credentials`.", True),
    ],
)
def test_a_name_cue_is_not_a_capitalised_opening_word(passage: str, holds: bool) -> None:
    assert holds_cue(analyse("Which company makes the server?"), passage) is holds


def test_a_documented_option_is_an_answer_to_how_do_i() -> None:
    asked = analyse("How do I let cross-origin requests send cookies?")
    assert holds_cue(asked, "`allow_credentials` - Indicate that cookies should be supported.")
    assert not holds_cue(asked, "Cookies are supported for cross-origin requests.")


@pytest.mark.parametrize(
    ("question", "how_to"),
    [
        ("How can a test see the error page instead of the client re-raising?", True),
        ("How should a middleware read the body?", True),
        ("How does Starlette treat a handled exception?", False),  # a mechanism, not steps
    ],
)
def test_how_can_x_asks_for_steps_how_does_x_for_a_mechanism(question: str, how_to: bool) -> None:
    assert analyse(question).how_to is how_to


@pytest.mark.parametrize(
    ("question", "about_default"),
    [
        ("Which close code does WebSocketException use if I don't give one?", True),
        ("What timeout applies if none is given?", True),
        ("Which port is used if it is not set?", True),
        ("Which port is used if it is set?", False),
        ("What worker count does the consumer use when you don't pass any flags?", True),
        ("I started it with no options at all. Which worker type does it use?", True),
        (
            "If I create a PooledPostgresqlDatabase and don't pass any connection cap, what is "
            "the maximum number of connections the pool will hold open?",
            True,
        ),
        ("If my tests don't pass any more, which log level should I look at?", False),
        ("Which worker type does it use with the --fast flag?", False),
        ("What file mode does waitress give that socket unless told otherwise?", True),
        ("Which level does the logger use when it is left alone?", True),
        ("Which level does the logger use when I tell it otherwise?", False),
        ("Which close code does WebSocketException use?", False),
        # (docutils' LaTeX writer: the options left as they are, named by what they are of)
        (
            "If I produce LaTeX output with Docutils and never set the document options, what "
            "paper size does the generated document use?",
            True,
        ),
        # the release from which something is the default: a release, not a default's value
        ("In which release is it expected to become the default?", False),
        ("From which Trio release is that the default?", False),
    ],
)
def test_a_default_is_asked_in_other_words_too(question: str, about_default: bool) -> None:
    assert analyse(question).about_default is about_default


def test_a_default_inside_whether_is_not_what_is_asked() -> None:
    asked = analyse("Which method tells me whether a value came from the default or the user?")
    assert not asked.about_default
    assert analyse("Which status code does it send by default?").about_default


def test_a_number_word_counts_only_the_thing_asked_about() -> None:
    asked = analyse("After how many seconds does the prompt stop waiting?")
    assert asked.counted == ("seconds",)
    assert not holds_cue(asked, "Click supports prompts in two different places.")
    assert holds_cue(asked, "It waits for two seconds before giving up.")
    assert holds_cue(asked, "The prompt times out after 30 s.")


def test_an_http_status_or_a_cardinality_is_no_size_or_count() -> None:
    # MCP's transports page and pluggy's docs, for questions the documents do not answer
    size = analyse("What's the maximum size of a single JSON-RPC message on the stdio transport?")
    assert size.kind == "number"
    assert not holds_cue(size, "It MUST return an HTTP error status code (e.g., 400 Bad Request).")
    assert holds_cue(size, "A message may be at most 4 MB.")
    plugins = analyse("What's the maximum number of plugins a PluginManager can register?")
    assert not holds_cue(plugins, "It loops through the `1:N` registered hookimpls.")
    assert holds_cue(plugins, "A manager holds at most 64 plugins.")
    # a status asked for is still answered by one
    status = analyse("Which HTTP status code does the server return for a notification?")
    assert holds_cue(status, "The server MUST return HTTP status code 202 Accepted.")


def test_a_name_cue_is_a_name_the_question_does_not_already_say() -> None:
    asked = analyse("Which Context method tells me whether a value came from the default map?")
    assert not holds_cue(asked, "It can come from the command line or Context.default_map.")
    assert holds_cue(asked, "Use Context.get_parameter_source to find out.")


def test_a_name_the_passage_calls_by_the_kind_asked_for_is_the_name_asked_for() -> None:
    # its words may be the question's: the attribute is named for what it holds
    asked = analyse(
        "I decorate my classes with @named('foo'). Which attribute on the class does the "
        "registry read to pick up the component name?"
    )
    called = "The registry looks for the `__component_name__` attribute and uses it."
    assert holds_cue(asked, called)
    assert holds_cue(asked, "The registry reads the attribute `__component_name__` first.")
    # not a name called another kind, nor the words of the question alone
    assert not holds_cue(asked, "The registry looks for the `__component_name__` method.")
    assert not holds_cue(asked, "The registry reads the component name from the class.")


def test_an_opening_until_clause_sets_the_scene_and_the_ask_after_it_says_the_kind() -> None:
    question = "Until we fix it, how can gunicorn recycle workers periodically?"
    assert asking_part(question) == "how can gunicorn recycle workers periodically?"
    assert analyse(question).kind == "how"


def test_an_initial_does_not_end_the_scene_of_a_question() -> None:
    question = "How many teams attend the meeting where the John H. Johnson Award is given?"
    assert asking_part(question) == question
    assert analyse(question).focus == ()


@pytest.mark.parametrize(
    "question",
    [
        "A helper needs to override a context variable for a moment and then put the old value "
        "back. How do I do that with the contextvars API?",
        "I merged two groups with CommandCollection and both define a command with the same "
        "name. Which one gets run?",
    ],
)
def test_an_asking_sentence_that_points_back_makes_the_scene_the_ask(question: str) -> None:
    assert analyse(question).focus == ()


def test_an_asking_sentence_with_its_own_words_is_the_focus() -> None:
    asked = analyse("I use CommandCollection to merge groups. Which group's callback runs first?")
    assert asked.focus and "callback" in asked.focus and "commandcollection" not in asked.focus


def test_a_part_cut_from_a_question_asks_with_its_last_sentence() -> None:
    part = (
        "I want my options' defaults to come from a per-user config file. Which helper tells "
        "me where that file belongs on each OS"
    )
    assert asking_part(part) == "Which helper tells me where that file belongs on each OS"
    assert not analyse(part).about_default  # the scene's "defaults" is not what is asked


def test_a_question_about_the_default_setup_is_answered_by_a_passage_about_defaults() -> None:
    asked = analyse("I haven't configured structlog at all. Which logger writes my log lines?")
    assert asked.default_setup
    assert holds_cue(asked, "Calling get_logger without configuration gives you a PrintLogger.")
    assert not holds_cue(asked, "By using the stdlib LoggerFactory, line numbers are expanded.")
    assert not analyse("Which logger writes my log lines?").default_setup


def test_a_default_asked_for_in_other_words_is_a_word_the_answer_holds() -> None:
    # "… unless told otherwise" asks for the default; "default is '600'" says it.
    for question in (
        "What file mode does waitress give that socket unless told otherwise?",
        "What status code does RedirectResponse send if I don't pass one?",
        "Which close code does WebSocketException use if I don't give one?",
        "Which hash function does a signer use for the HMAC if I don't pick one?",
    ):
        asked = analyse(question)
        assert asked.about_default and "default" in asked.terms, question
    assert "default" not in analyse("What file mode does waitress give that socket?").terms


def test_which_character_is_answered_by_a_character_shown_or_named() -> None:
    question = "On Linux, which character separates the paths taken from one variable?"
    asked = analyse(question)
    assert names_wanted_type(asked, "On Unix the splitting happens on every colon (`:`).", question)
    assert names_wanted_type(asked, "Paths are split on each semicolon.", question)
    assert not names_wanted_type(asked, "Path types split by the system's rules.", question)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the minimum structlog version I need to pin to customise columns?", "date"),
        ("What is the oldest Bash version Click's tab completion works with?", "date"),
        ("From which structlog version on can I expect type hints?", "date"),
        ("How many versions of the API are supported at once?", "number"),
        ("What is the minimum size of a chunk?", "number"),
    ],
)
def test_a_question_asking_for_a_version_wants_a_release_not_a_count(
    question: str, kind: str
) -> None:
    asked = analyse(question)
    assert asked.kind == kind
    if kind == "date":
        assert holds_cue(asked, "New in version 23.3.0")


@pytest.mark.parametrize(
    ("sentence", "tells"),
    [
        ("If it is missing, starting the event loop raises `ModuleNotFoundError`.", True),
        ("Values with keys for those fields are therefore loaded with no validation.", True),
        ("Setting `use_uvloop=True` requires uvloop to be installed.", False),
        ("If you use uvloop, install it first.", False),
    ],
)
def test_what_happens_is_answered_by_an_outcome(sentence: str, tells: bool) -> None:
    asked = analyse(
        "Some hosts don't have uvloop installed. What happens there when the program starts?"
    )
    assert asked.outcome and not asked.how_to
    assert holds_cue(asked, sentence) is tells
    assert not analyse("How does the event loop start?").outcome


@pytest.mark.parametrize(
    "sentence",
    [
        'Setting the `anyio_mode = "auto"` option in the pytest configuration',
        "Passing `--anyio-mode=auto` on the command line",
    ],
)
def test_a_way_named_as_a_step_answers_how(sentence: str) -> None:
    asked = analyse("How can I make the plugin pick up every async test?")
    assert asked.how_to
    assert holds_cue(asked, sentence)
    assert not holds_cue(asked, "The plugin picks up every marked test.")


@pytest.mark.parametrize(
    ("sentence", "explains"),
    [
        ("If you have caching enabled, any cached loggers will not be affected.", True),
        ("`capture_logs()` relies on changing the configuration.", True),
        ("The proxy is cached on first use, so it never sees a later configure().", True),
        (
            "Signal handlers can only be installed in the main thread, so they will not work "
            "when the event loop is run through `BlockingPortal`.",
            True,
        ),
        ("You can enable caching in the configuration.", False),
        ("If you want colors, install Rich.", False),
    ],
)
def test_a_why_is_answered_by_a_cause_or_a_spelled_out_consequence(
    sentence: str, explains: bool
) -> None:
    asked = analyse("Since I turned on caching, my test helper misses entries. Why?")
    assert asked.kind == "why"
    assert holds_cue(asked, sentence) is explains


def test_how_many_times_by_default_is_answered_by_forever() -> None:
    asked = analyse("By default, how many times does it retry a failing function?")
    assert asked.kind == "number" and asked.about_default
    assert holds_cue(asked, "The default behavior is to retry forever without waiting.")
    assert not holds_cue(asked, "The default behavior is to retry without waiting.")


def test_which_kinds_of_things_asks_for_a_list() -> None:
    question = "Which kinds of target callables make APScheduler raise the ValueError?"
    assert analyse(question).kind == "list"
    assert analyse("What sorts of jobs can it run?").kind == "list"
    assert analyse("What type of value does it return?").kind != "list"


@pytest.mark.parametrize(
    ("sentence", "holds"),
    [
        ("By default you can call `configure` repeatedly and set one or more settings.", False),
        ("By default, one of the processors renders it.", False),
        ("By default it allows 100 messages per second.", True),
        ("By default it keeps two messages per second.", True),
    ],
)
def test_one_as_a_pronoun_is_not_a_value(sentence: str, holds: bool) -> None:
    asked = analyse("Which setting rate-limits repeated messages, and what is its default rate?")
    assert asked.kind == "number" and not asked.counted
    assert holds_cue(asked, sentence) is holds


def test_one_counts_what_is_asked() -> None:
    asked = analyse("How many worker processes does it start?")
    assert holds_cue(asked, "It starts one worker process per core.")


def test_how_does_x_verb_asks_about_the_verb_and_its_object_not_the_actor() -> None:
    # the documents name what does it ("`scoring.py` scores the quality of every source")
    assert analyse("How does MARSA score the quality of a source?").focus == (
        "score",
        "quality",
        "source",
    )
    assert analyse("How does the GZip middleware decide what to compress?").focus
    assert analyse("How do I get my group to run?").focus == ()  # "I" acts in no document


@pytest.mark.parametrize(
    "question",
    ["What is a bound logger made of internally?", "What components make up a request?"],
)
def test_what_something_is_made_of_asks_for_its_parts(question: str) -> None:
    assert analyse(question).kind == "list"


@pytest.mark.parametrize(
    ("sentence", "holds"),
    [
        ("As far as structlog is concerned, it consists of three parts.", False),
        ("It has two modes:\n\n1. Plain.\n2. Pretty.", False),
        ("Long values are cut after eighty characters.", True),
        ("Values are cut after 80 characters.", True),
    ],
)
def test_a_measure_is_a_number_with_its_unit_not_a_count_or_a_list_marker(
    sentence: str, holds: bool
) -> None:
    asked = analyse("At what length does structlog truncate long values?")
    assert asked.kind == "number" and not asked.counted
    assert holds_cue(asked, sentence) is holds


@pytest.mark.parametrize(
    "question",
    [
        "Starting with which attrs release can define be imported from attrs itself?",
        "What is the minimum structlog version that has this?",
        "Which version added the proxy argument?",
    ],
)
def test_a_release_is_answered_by_a_release_number_not_a_month(question: str) -> None:
    asked = analyse(question)
    assert asked.kind == "date" and asked.release
    assert not holds_cue(asked, "So in July 2018, we came up with `attr.define` and friends.")
    assert holds_cue(asked, "As of attrs 21.3.0 you can also import them from `attrs`.")


def test_a_when_question_is_still_answered_by_a_month() -> None:
    asked = analyse("When did they look for better names?")
    assert asked.kind == "date" and not asked.release
    assert holds_cue(asked, "So in July 2018, we came up with `attr.define` and friends.")


@pytest.mark.parametrize(
    ("passage", "is_code", "answers"),
    [
        ("Please note that you can't directly set attributes:\n\n```\nc.y = 1\n```", True, False),
        ("You cannot set attributes on frozen classes.", False, False),
        ("You'll have to use `object.__setattr__`:\n\n```\nobject.__setattr__()\n```", True, True),
        (
            "If that's not possible, use `call_on_close`:\n\n```\nctx.call_on_close()\n```",
            True,
            True,
        ),
        ("You can set it with `object.__setattr__`.", False, True),
    ],
)
def test_what_you_cannot_do_is_no_way_to_do_it(passage: str, is_code: bool, answers: bool) -> None:
    asked = analyse("The class is frozen. How do I still set the attribute?")
    assert asked.how_to
    assert holds_cue(asked, passage, is_code) is answers


@pytest.mark.parametrize(
    ("question", "is_date"),
    [
        ("When was it released?", True),
        ("When is the next release due?", True),
        ("When do I need to call close()?", False),  # the circumstances: a lookup
        ("When did attrs add slots?", True),
        ("when I use evolve are my validators applied to the new values?", False),
        ("When we deploy behind a proxy which header does it read?", False),
        # a "when" clause with a noun subject, then the ask after its comma (wtforms)
        ("When our API serialises form.errors, under which key do they end up?", False),
        ("When the worker restarts, does it lose its queue?", False),
        ("When was the fixture removed, and why?", False),  # why, by the comma's "and why"
        ("When was the fixture removed, in which release?", True),
    ],
)
def test_when_with_its_own_subject_and_verb_sets_a_condition_not_a_time(
    question: str, is_date: bool
) -> None:
    assert (analyse(question).kind == "date") is is_date


def test_what_comes_before_a_colon_is_the_scene_the_ask_follows() -> None:
    asked = analyse(
        "Using cached_property on a slotted class: if several threads read the property, "
        "is the underlying method guaranteed to run only once?"
    )
    assert asked.focus == ("underlying", "method", "guaranteed", "run")
    # two things compared before the colon are what is asked about
    assert analyse("Reading the body with .stream() versus .body(): what changes?").focus == ()


def test_a_question_quotes_literals_in_quotes_or_backticks_not_bare_code_names() -> None:
    asked = analyse(
        'With attrs.define I declared `x: int` and passed "norway". Which error do I get?'
    )
    assert asked.quoted == ("x: int", "norway")
    assert analyse("What does attrs.converters.to_bool return?").quoted == ()


@pytest.mark.parametrize(
    ("passage", "shows_how"),
    [
        ("If a converter's first argument has a type annotation, it appears in `__init__`.", False),
        ("First, install the extra. Then run the command.", True),
        ("This can be changed. Finally, restart the server.", True),
        ("The proper way to type such a class variable is with `typing.ClassVar`.", True),
    ],
)
def test_a_step_word_shows_how_only_as_a_step(passage: str, shows_how: bool) -> None:
    asked = analyse("How do I define a class-level constant?")
    assert holds_cue(asked, passage) is shows_how


def test_a_release_of_another_product_or_in_a_link_does_not_answer_which_release() -> None:
    asked = analyse("What's the first attrs release that shipped define, frozen and field?")
    assert asked.release
    # Python's release, and a release number inside a link's target, are not attrs' release
    assert not holds_cue(asked, "attrs shipped it half a year before Python 3.7 was released.")
    assert not holds_cue(
        asked, "attrs [shipped](https://www.attrs.org/en/17.3.0/changelog.html) it early."
    )
    assert holds_cue(asked, "New in version 20.1.0")
    assert holds_cue(asked, "They have been added in attrs 20.1.0.")
    # a question about Python's own release is answered by Python's release
    assert holds_cue(analyse("Which Python release added dataclasses?"), "Python 3.7 did.")


def test_a_specifications_version_is_a_date() -> None:
    asked = analyse(
        "If an HTTP request comes with no MCP-Protocol-Version header, which protocol version "
        "should the server assume?"
    )
    assert asked.release
    assert holds_cue(asked, "The server SHOULD assume protocol version `2025-03-26`.")
    assert holds_cue(asked, "It was added in revision 2025-06-18 of the specification.")
    assert not holds_cue(asked, "The meeting on 2025-03-26 discussed the header.")


def test_how_much_after_a_scene_asks_for_a_number() -> None:
    asked = analyse(
        "Per the project's own benchmarks, roughly how much longer does it take to create a "
        "frozen instance?"
    )
    assert asked.kind == "number"
    assert analyse("Is there a validator capping how long a string may be?").kind == "yes_no"


def test_how_deep_asks_for_a_number_and_a_name_or_a_release_is_none() -> None:
    asked = analyse("How deep can a recursive for loop nest before Jinja raises an error?")
    assert asked.kind == "number"
    assert analyse("How high does it go?").kind == "number"
    deeply = analyse(
        "How deeply can Markdown be nested before mistune's parsers stop descending, i.e. what "
        "is the default nesting limit?"
    )
    assert (deeply.kind, deeply.how_to, deeply.about_default) == ("number", False, True)
    assert analyse("How frequently does the beat run?").kind == "number"
    assert analyse("How does it nest?").kind == "how"
    assert holds_cue(asked, "Loops nest up to 100 levels deep.")
    # A digit in a name, and a product's release, count nothing.
    assert not holds_cue(asked, "`loop.depth0` indicates how deep in a recursive loop it is.")
    assert not holds_cue(asked, "Since Jinja 2.1, an extra helper allows loop-unbound cycling.")
    # (every part of a three-part release: "0.31.2" left ".2", a number, behind)
    faster = analyse("How much faster is mistune than Python-Markdown in benchmarks?")
    assert not holds_cue(faster, "It is compatible with CommonMark 0.31.2.")


@pytest.mark.parametrize(
    "question",
    [
        "Inside a for loop I need a zero-based counter. Which loop attribute gives me that?",
        "I want a fresh scratch directory. Which built-in fixture should I request?",
        "Which hook runs first?",
    ],
)
def test_which_code_object_asks_for_a_name(question: str) -> None:
    assert analyse(question).kind == "name"


def test_what_values_am_i_allowed_asks_for_a_list() -> None:
    assert analyse("What values am I allowed to pass as a fixture's scope?").kind == "list"
    assert analyse("Which levels may a logger use?").kind == "list"


def test_a_class_name_with_an_acronym_is_a_name_of_the_wanted_type() -> None:
    question = "Which middleware does force http requests over to https?"
    asked = analyse(question)
    assert names_wanted_type(asked, "Add `HTTPSRedirectMiddleware` to the stack.", question)
    assert not names_wanted_type(asked, "Add `HTTPSRedirect` to the stack.", question)


def test_what_the_software_will_do_is_no_instruction() -> None:
    asked = analyse("How do I send a JSON payload with the test client?")
    assert asked.how_to
    said = "The test client will add the raw value to both the `REQUEST_URI` and `RAW_URI` keys."
    assert not holds_cue(asked, said)
    assert holds_cue(asked, "Add the raw value to `REQUEST_URI` yourself.")
    assert holds_cue(asked, "A shortcut is to pass a dict to `json` instead of using `data`.")


def test_an_order_question_is_answered_by_a_sentence_stating_the_order() -> None:
    # pluggy's docs: the order is one sentence, not a list.
    asked = analyse(
        "When several plugins implement the same hook, in which order does it call them?"
    )
    assert asked.kind == "list" and asked.order
    assert holds_cue(asked, "Hook implementations are called in LIFO registered order.")
    assert holds_cue(asked, "Middleware runs in the order it was added.")
    assert not holds_cue(asked, "In order to detect hooks, they must be decorated.")
    other = analyse("Which shells are supported?")
    assert not other.order
    assert not holds_cue(other, "Hook implementations are called in LIFO registered order.")


def test_which_of_two_that_clash_wins_is_answered_by_a_stated_precedence() -> None:
    # Click's docs: "In case a command exists in more than one source, the first source wins."
    asked = analyse(
        "I merged two groups with CommandCollection and both define a command with the same "
        "name. Which one gets run?"
    )
    assert asked.precedence
    wins = "In case a command exists in more than one source, the first source wins."
    assert holds_cue(asked, wins)
    named = "The default implementation for such a merging system is the `CommandCollection` class."
    assert not holds_cue(asked, named)
    assert analyse("Our CI sets FORCE_COLOR too. Which environment variable wins?").precedence
    assert holds_cue(
        analyse("Which environment variable wins?"),
        "`NO_COLOR` disables colors, regardless of the value of `FORCE_COLOR`.",
    )
    assert not analyse("Which one should I use for a web app?").precedence


def test_a_url_path_written_out_is_a_literal_as_if_quoted() -> None:
    asked = analyse("My /users/me route never gets called because /users/{username} catches it.")
    assert asked.quoted == ("/users/me", "/users/{username}")
    assert quoted_code("Store them in /tmp/envs instead.") == ("/tmp/envs",)
    # a URL, a relative path and a fraction are no such path
    assert quoted_code("See https://example.com/a/b or ./docs/x, about 1/2 of it.") == ()


def test_a_call_written_out_gives_its_keyword_values_as_literals_when_it_sets_two() -> None:
    question = "I added a job with add_job(func, 'cron', day=1, minute=20), and it runs hourly."
    assert quoted_code(question) == ("day=1", "minute=20")
    # one value is any example's ("schedule(delay=60)"); a bare "x=1" in prose is no call
    assert quoted_code("Calling send.schedule(delay=60) never runs; x=1 and y=2 too.") == ()


def test_how_many_per_unit_needs_a_rate() -> None:
    # stamina's docs give backoff times and attempts, no rate: no answer to "per second".
    asked = analyse("How many retries per second does stamina allow before it rate limits?")
    assert asked.rate == "second"
    said = "It starts with 100 milliseconds and stops after 45 seconds or 10 attempts."
    assert not names_counted(asked, said)
    assert names_counted(asked, "It allows 5 retries per second.")
    assert names_counted(asked, "At most 5 retries a second.")
    assert not analyse("How many retries does stamina make?").rate


def test_how_many_needs_a_sentence_that_names_what_is_counted() -> None:
    asked = analyse("How many worker threads does pluggy use to run hooks in parallel?")
    assert not names_counted(asked, "The hook caller loops through the `1:N` hookimpls in turn.")
    assert names_counted(asked, "Hooks run in a pool of 4 threads.")
    # A unit is no named thing: "30s" may answer "how many seconds".
    assert names_counted(analyse("After how many seconds does it time out?"), "Waits 30s.")


def test_flags_are_terms_as_written_and_as_well_as_is_no_term() -> None:
    terms = analyse("How do I make -h work as well as --help for my commands?").terms
    assert "-h" in terms and "--help" in terms
    assert "well" not in terms


@pytest.mark.parametrize(
    "question",
    [
        "I only want the 3.12 runs without editing the noxfile. What do I type?",
        "What command do I run to rebuild the docs?",
        "We want one session-wide loop for every fixture. What do we put in pyproject.toml?",
        "What should I add to setup.cfg to turn it on?",
        "We deploy on uvloop. What's the currently recommended way to wire uvloop into it?",
        "load() hands me a dict. What's the intended way to get marshmallow to build the object?",
        "Under uWSGI the jobs never fire. What do I need to change in the uWSGI setup?",
    ],
)
def test_what_do_i_type_asks_for_the_step(question: str) -> None:
    asked = analyse(question)
    assert asked.kind == "how" and asked.how_to


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        (
            "Both implement the hook. Which of the returned mappings does pytest-asyncio use?",
            "lookup",
        ),
        ("Which of the teams was sold?", "lookup"),
        ("Which of the shipped validators check a bound?", "list"),
        ("Which of the options are deprecated?", "list"),
    ],
)
def test_which_of_the_things_with_a_singular_verb_asks_for_one(question: str, kind: str) -> None:
    assert analyse(question).kind == kind


@pytest.mark.parametrize(
    "question",
    [
        "Field.Number is gone. What should we write instead?",  # a name, not lines to add
        "What is the default way to name it?",
    ],
)
def test_what_to_write_with_no_place_or_way_is_no_step(question: str) -> None:
    assert not analyse(question).how_to


def test_where_is_answered_by_a_path_or_a_folder() -> None:
    asked = analyse("Where does nox put its virtualenvs?")
    assert asked.kind == "place"
    assert holds_cue(asked, "Nox stores virtualenvs in `./.nox`, but `--envdir` changes it.")
    assert holds_cue(asked, "The cache lives under ~/.cache/pip on Linux.")
    assert holds_cue(asked, "Logs go into the `logs` directory.")
    assert not holds_cue(asked, "Nox creates a virtualenv for every session.")


def test_where_code_runs_is_answered_by_a_thread_or_a_process() -> None:
    asked = analyse("Where does AsyncIOScheduler run the jobs?")
    assert asked.kind == "place"
    assert holds_cue(asked, "By default, it will run jobs in the event loop's thread pool.")
    assert holds_cue(asked, "Each task is executed in a separate process.")
    assert holds_cue(asked, "MemoryJobStore stores jobs in memory as-is.")
    assert not holds_cue(asked, "AsyncIOScheduler was meant to be used with asyncio.")
    origin = analyse("Where does that bracketed part of the test ID come from?")
    assert not holds_cue(origin, "By default, each test runs in its own asyncio event loop.")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("In packaging.tags, when should I use sys_tags and when cpython_tags?", "how"),
        ("When would I pick capfd over capsys?", "how"),
        ("When was attrs 20.1.0 released?", "date"),
    ],
)
def test_when_should_i_use_asks_for_the_circumstances_not_a_time(question: str, kind: str) -> None:
    assert analyse(question).kind == kind


def test_a_passage_saying_what_the_asked_thing_is_named_answers_which() -> None:
    # The logger is named after the product the question names: still the name asked for.
    asked = analyse("Which logger should I grab to route Werkzeug's request lines?")
    said = 'The logger is named `"werkzeug"`.'
    assert holds_cue(asked, said)
    assert names_wanted_type(asked, said, "Which logger should I grab to route Werkzeug's lines?")
    assert not holds_cue(asked, "Werkzeug uses the standard logging module.")


def test_a_function_named_in_code_beside_the_word_function_answers_which_function() -> None:
    question = (
        "compare_metadata() gives me diff tuples, but I'd rather have operation objects. "
        "Which function should I call?"
    )
    asked = analyse(question)
    both = (
        "The two functions provided are `.compare_metadata`, which is the legacy function that "
        "produces diff tuples, and `.produce_migrations`, which produces operation directives."
    )
    assert names_wanted_type(asked, both, question)
    # only the function the question already names: no new name
    old = "The `.compare_metadata` function produces diff tuples."
    assert not names_wanted_type(asked, old, question)


def test_the_asked_name_in_backticks_is_no_default_value() -> None:
    asked = analyse("What is the default value of follow_redirects on a Client?")
    assert not holds_cue(
        asked,
        "You can modify the default redirection handling with the `follow_redirects` parameter:",
    )
    assert holds_cue(asked, "`follow_redirects` - Defaults to `False`.")


def test_a_quoted_string_after_default_is_a_value() -> None:
    asked = analyse("What log level does uvicorn use by default?")
    assert holds_cue(asked, "`--log-level <str>` - Set the log level. **Default:** *'info'*.")


def test_a_default_given_in_words_is_a_value() -> None:
    asked = analyse(
        "We never touched asyncio_default_test_loop_scope. What event loop scope do our async "
        "tests end up using by default?"
    )
    assert holds_cue(
        asked, "When this configuration option is unset, it defaults to function scope."
    )
    assert not holds_cue(asked, "Determines the default event loop scope of asynchronous tests.")
    # not a value: a pointer, or how something is done
    assert not holds_cue(asked, "Each request defaults to this config.")
    assert not holds_cue(asked, "JSON messages default to being sent over text data frames.")


def test_a_documented_command_line_option_is_a_way_to_do_it() -> None:
    asked = analyse("How do I watch only certain directories for changes when reloading?")
    option = "`--reload-dir <path>` - Specify which directories to watch for python file changes."
    assert holds_cue(asked, option)
    assert holds_cue(asked, "`--proxy-headers / --no-proxy-headers` - Enable/Disable X-Forwarded.")
    assert not holds_cue(asked, "The reloader watches the current directory.")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When are the instrumentation hooks called: before or after the backoff wait?", "lookup"),
        ("When does click.File actually open the file?", "lookup"),
        ("When was attr.s added?", "date"),  # a release
        ("When is the retry decorator called in which version?", "date"),
        ("When did Python 3 come out?", "date"),
    ],
)
def test_when_a_program_does_something_is_a_moment_not_a_date(question: str, kind: str) -> None:
    assert analyse(question).kind == kind


def test_a_parameter_the_scene_leaves_out_asks_for_its_default() -> None:
    asked = analyse(
        "I'm using configure_tagged_union for two attrs classes and didn't pass tag_name. "
        "Which key will the tag end up under in the unstructured dict?"
    )
    assert asked.about_default
    assert not analyse(
        "Which key will the tag end up under in the unstructured dict?"
    ).about_default
    # asked which ones are used by default, the default given is the list
    listing = analyse(
        "I've never set autogenerate_plugins in env.py. Which plugins does autogenerate use?"
    )
    assert listing.kind == "list" and listing.about_default
    assert holds_cue(listing, 'The default value is `["alembic.autogenerate.*"]`.')


def test_the_standing_of_a_way_asked_for_is_not_what_the_answer_must_say() -> None:
    asked = analyse(
        "We deploy on uvloop and want the test suite to run on it too. What's the currently "
        "recommended way to wire uvloop into pytest-asyncio?"
    )
    assert asked.kind == "how"
    assert asked.focus == ("wire", "uvloop", "pytest-asyncio")
    # asked only for the way, the asking part stays as it is
    only = analyse("I have a module of async tests that share one loop. What's the idiomatic way?")
    assert only.focus == ("idiomatic", "way")


def test_the_value_taken_when_none_is_set_is_a_default() -> None:
    asked = analyse("What level does Werkzeug put the logger at if I never set one?")
    assert asked.about_default
    said = "If the logger level is not set, it will be set to `INFO` on first use."
    assert holds_cue(asked, said)
    assert not holds_cue(asked, "If the level is not set, the logger is quiet.")  # no value


def test_a_kind_asked_for_ends_at_a_conjunction() -> None:
    asked = analyse("What exit status and message does a Click program end with on Ctrl-C?")
    assert asked.wants == ("exit", "status")


def test_what_one_gets_back_is_what_is_returned() -> None:
    terms = analyse("What do I get back from calling send() on a signal?").terms
    assert "return" in terms and "back" not in terms
    assert "back" in analyse("How do I roll the migration back?").terms


def test_a_signature_with_parameter_defaults_gives_the_default_setup() -> None:
    asked = analyse(
        "If I use RedisJobStore with default settings, which Redis keys does it keep the jobs "
        "and the run times under?"
    )
    signature = (
        "`RedisJobStore(db=0, jobs_key='apscheduler.jobs', "
        "run_times_key='apscheduler.run_times', **connect_args)`"
    )
    assert asked.default_setup and holds_cue(asked, signature)
    # a call in prose with one keyword is an example, not the defaults
    assert not holds_cue(asked, "`RedisJobStore(db=1)` keeps jobs in another database.")


def test_a_thing_named_default_is_no_default() -> None:
    asked = analyse("How many threads does the default executor allow at most?")
    assert asked.about_default
    assert not holds_cue(asked, 'a ThreadPoolExecutor named "default", with a worker count of 20')
    said = 'a ThreadPoolExecutor named "default" with a default maximum thread count of 10'
    assert holds_cue(asked, said)


def test_a_default_count_is_said_in_one_sentence_with_the_default() -> None:
    asked = analyse("Out of the box, how many worker threads can run_sync have running at once?")
    assert asked.kind == "number" and asked.about_default
    example = (
        "Having a fixed size avoids a situation where 100,000 jobs are submitted and 100,000 "
        "threads are spawned. This is how `run_sync` works by default."
    )
    assert not holds_cue(asked, example)
    assert holds_cue(asked, "By default, at most 40 worker threads run at once.")
    asked = analyse("How many attempts does the testing mode allow by default?")
    assert holds_cue(asked, "The testing mode caps retries -- by default to a single attempt.")


def test_a_tracebacks_last_line_names_the_exception_asked_for() -> None:
    question = "What exception do I get when a TimestampSigner token is older than max_age?"
    asked = analyse(question)
    shown = (
        "s.unsign(string, max_age=5)\nTraceback (most recent call last):\n  ...\n"
        "itsdangerous.exc.SignatureExpired: Signature age 15 > 5 seconds"
    )
    assert names_wanted_type(asked, shown, question)
    # (a line that is no traceback's end names nothing raised)
    assert not names_wanted_type(asked, "s.unsign(string, max_age=5)\nSignatureExpired", question)
    # (nor one the question names already)
    named = question.replace("a TimestampSigner token", "SignatureExpired")
    assert not names_wanted_type(analyse(named), shown, named)
    # a long traceback that ends in no name is read line by line, once (each line's split
    # between indentation and text was tried every way: minutes on Celery's guide)
    frames = "".join(f'\n  File "/app/m{i}.py", line {i}, in f{i}    ' for i in range(40))
    long = f"Traceback (most recent call last):{frames}\n>>> and then the prompt again"
    assert not names_wanted_type(asked, long, question)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        (
            "We stay on the previous major series. For how many days after the new series' "
            "first release does the old series keep getting security fixes?",
            "number",
        ),
        ("How long after the first release is a series supported?", "number"),
        ("Which release first shipped the new series?", "date"),
    ],
)
def test_an_ask_that_opens_by_counting_asks_a_count_whatever_release_it_counts_from(
    question: str, kind: str
) -> None:
    assert analyse(question).kind == kind


def test_what_date_format_asks_for_a_format_not_a_date() -> None:
    assert analyse("What date format does DateField parse by default?").kind != "date"
    assert analyse("What date was the 2.0 release?").kind == "date"


def test_three_names_in_code_one_after_another_are_a_list() -> None:
    assert enumerates("Tasks with a `completed`, `failed`, or `cancelled` status are terminal.")
    assert enumerates("until a terminal status (`completed`, `failed`, or `cancelled`) is reached")
    assert not enumerates("Set `timeout` or `retries` when the call hangs for a long time.")


def test_a_call_made_without_giving_a_value_asks_for_its_default() -> None:
    asked = analyse(
        "If I call create_index without giving an index name, what name does it give the index?"
    )
    assert asked.about_default and "default" in asked.terms
    assert not analyse("What name does create_index give the index?").about_default


def test_asked_whether_there_is_a_named_kind_of_thing_wants_one() -> None:
    question = "Is there an environment variable that does the same as -f?"
    asked = analyse(question)
    assert asked.wants == ("environment", "variable")
    said = "You may instead use the `INVOKE_RUNTIME_CONFIG` environment variable."
    assert names_wanted_type(asked, said, question)
    assert not names_wanted_type(asked, "Runtime configuration file given to `-f`.", question)
    assert analyse("Is there a ready-made validator for capping a string's length?").wants == (
        "ready-made",
        "validator",
    )
    # a way, a reason or a limit is no kind of name
    assert analyse("Is there a way to run tasks in parallel?").wants == ()
    assert analyse("Is there a limit on the number of retries?").wants == ()


def test_a_value_asked_in_its_unit_is_a_number_and_names_with_digits_are_none() -> None:
    asked = analyse(
        "What is the largest request header block, in bytes, that h11 will accept before "
        "rejecting it?"
    )
    assert asked.kind == "number"
    # h11 0.16.0's docs: a name, a protocol and a note's label hold digits, no quantity
    for text in (
        "Reject malformed bodies when an h11-based HTTP server sits behind a load balancer.",
        "It requires an HTTP/1.1 client.",
        "Note 1: only some servers are required to support it.",
        # a status class, a header value and an encoding are tokens with digits
        "The response could be anything (e.g. a full `Response` with a 4xx status code).",
        "The client sends `Expect: 100-continue` before the body.",
        "Header values are encoded as utf-8 bytes.",
    ):
        assert not holds_cue(asked, text), text
    assert holds_cue(asked, "Headers larger than 16384 bytes are rejected.")
    assert holds_cue(asked, "The limit is kept in a 64-bit integer.")


def test_how_short_or_how_low_asks_a_measure_not_a_way() -> None:
    # PyJWT 2.15.1's docs: the answer is "at least as long as the hash output (… 48 … bytes)"
    asked = analyse("If I sign with HS384, how short can my HMAC secret be before it complains?")
    assert asked.kind == "number" and not asked.how_to
    assert analyse("How low can I set the poll interval?").kind == "number"
    assert analyse("How do I shorten the poll interval?").kind == "how"  # a step to take
