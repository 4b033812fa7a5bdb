"""The asks of a question, each with the words it carries for scoring."""

from __future__ import annotations

import pytest

from backend.reasoning.offline.asks import asks, statements


def test_one_ask_is_the_question() -> None:
    (only,) = asks("What status code does RedirectResponse send by default?")
    assert only.text == only.scored == "What status code does RedirectResponse send by default?"


def test_a_question_mark_inside_a_query_string_ends_no_ask() -> None:
    first, second = asks(
        "Clients send filters like ?tags=red,green,blue. Will Falcon split that value into a "
        "list? What is the default value of the auto_parse_qs_csv request option?"
    )
    assert first.text == "Will Falcon split that value into a list?"
    assert first.scored.startswith("Clients send filters like ?tags=red,green,blue.")
    assert second.text == "What is the default value of the auto_parse_qs_csv request option?"


def test_a_colon_inside_code_sets_no_scene() -> None:
    first, second = asks(
        "Our code calls serve(app, host='0.0.0.0', port=8080), and a pull request changes it "
        "to serve(app, listen='*:8080'). Do the two bind the same addresses? And could we keep "
        "host/port and add listen for a second port?"
    )
    assert first.text == "Do the two bind the same addresses?"
    assert first.scored.startswith("Our code calls serve(app, host='0.0.0.0'")
    assert second.text == "Could we keep host/port and add listen for a second port?"


def test_a_later_ask_with_a_pronoun_carries_the_setting_and_the_first_asks_names() -> None:
    first, second = asks(
        "I want a session cookie that ends with the browser: which max_age do I give "
        "SessionMiddleware, and what package must be installed for it?"
    )
    assert first.text == "which max_age do I give SessionMiddleware"
    assert second.text == "What package must be installed for it?"  # the pronoun stays
    assert second.scored == (
        "I want a session cookie that ends with the browser max_age SessionMiddleware "
        "What package must be installed for it?"
    )


def test_a_later_ask_about_each_of_the_first_asks_items_carries_its_names() -> None:
    _, second = asks(
        "What values can I put under exc_info in a log call, and what does structlog do with each?"
    )
    # the names it gives, then what it describes ("each" of the values, not of exc_info)
    assert second.scored.startswith("exc_info values ")
    assert second.scored.endswith(" What does structlog do with each?")
    _, later = asks("Which logger writes my log lines, and where do they go?")
    assert later.scored == "logger writes log lines Where do they go?"  # no name: its words


def test_a_later_ask_of_only_a_pronoun_and_by_default_carries_what_the_first_asks_for() -> None:
    _, second = asks(
        "Our footnotes always end up at the very bottom. Is there a piece of text I can drop "
        "into the Markdown source to say where they go? What is it by default?"
    )
    # "it" is the piece of text asked for, not "Markdown", the only name the first ask gives
    assert second.searched.startswith("Markdown piece text drop source")
    assert second.searched.endswith(" What is it by default?")
    assert "piece text" in second.scored


@pytest.mark.parametrize(
    ("question", "setting"),
    [
        (
            "To accept file uploads, which dependency do I need, and how large may a part be?",
            "To accept file uploads",
        ),
        (
            "Middleware on a Mount is not wrapped. Which middleware can I add, and what does "
            "the app add by default?",
            "Middleware on a Mount is not wrapped.",
        ),
    ],
)
def test_a_later_ask_carries_an_opening_clause_or_sentence(question: str, setting: str) -> None:
    _, second = asks(question)
    assert second.scored.startswith(setting)
    assert second.scored.endswith(second.text)


def test_a_second_yes_no_ask_is_split_at_and_does() -> None:
    first, second = asks(
        "If the first task raises, does the client see my 500 page, and do the other tasks "
        "still run?"
    )
    assert first.text == "does the client see my 500 page?"
    assert second.text == "Do the other tasks still run?"
    assert second.scored == "If the first task raises Do the other tasks still run?"


def test_a_month_is_not_a_name_to_carry() -> None:
    _, second = asks("What did the team ship in June, and how does it handle retries?")
    assert "June" not in second.scored


def test_a_pronoun_with_no_name_to_carry_is_scored_with_the_first_asks_words() -> None:
    found = asks("Which logger ends up writing my log lines, and where do they go?")
    assert len(found) == 2
    assert "logger" in found[1].scored and "go" in found[1].scored
    assert not found[1].named  # a guess: the planner does not search it alone


def test_statements_before_the_asking_sentence_are_its_setting_not_asks() -> None:
    first, second = asks(
        "In development I want ConsoleRenderer with pretty tracebacks; in production JSON with "
        "machine-readable tracebacks. Which exception processor must stay out of the "
        "development chain, and which one do I put before JSONRenderer in production?"
    )
    assert first.text == "Which exception processor must stay out of the development chain"
    assert first.scored.startswith("In development I want ConsoleRenderer")
    # "which one" is the first ask's "exception processor"
    assert second.text == "Which one do I put before JSONRenderer in production?"
    assert "exception processor" in second.scored


def test_a_second_ask_may_open_with_a_preposition_before_which() -> None:
    first, second = asks(
        "Old code passes hash=True. What is that parameter called nowadays, and in which "
        "release was it renamed?"
    )
    assert first.text == "What is that parameter called nowadays"
    assert second.text == "In which release was it renamed?"


def test_in_which_order_is_no_second_ask() -> None:
    assert len(asks("What does it run, and in which order?")) == 1


def test_a_case_name_with_v_ends_no_statement_of_the_question() -> None:
    question = "Which case came first, Craig v. Boren or United States v. Paramount Pictures?"
    assert statements(question) == [question]


def test_a_statement_before_the_ask_is_its_setting_not_an_ask() -> None:
    question = (
        "My task is awaiting to_thread.run_sync and I want it to be cancellable; "
        "how do I allow that?"
    )
    (only,) = asks(question)
    assert only.text == question
    # a part asking after its colon is an ask of its own
    assert len(asks("I want a cookie: which max_age do I give it; and what must I install?")) == 2


def test_and_if_a_condition_then_an_ask_is_an_ask_of_its_own() -> None:
    question = (
        "Should I use a SelectField or a DataList for that, and if product later insists on "
        "only the suggested titles, what do I add?"
    )
    assert [a.text for a in asks(question)] == [
        "Should I use a SelectField or a DataList for that",
        "If product later insists on only the suggested titles, what do I add?",
    ]


def test_until_when_is_an_ask_of_its_own() -> None:
    first, second = asks(
        "Once the result comes back, can the server keep sending progress on that token, "
        "and until when?"
    )
    assert first.text.endswith("on that token") and second.text == "Until when?"
