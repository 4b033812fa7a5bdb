from marsa_common.stemming import EnglishStemmer, american


def test_british_and_american_spellings_share_a_stem():
    stemmer = EnglishStemmer()
    pairs = [
        ("colours", "colors"),
        ("customise", "customize"),
        ("initialisation", "initialization"),
        ("behaviour", "behavior"),
        ("analysed", "analyzed"),
        ("cancelled", "canceled"),
        ("centre", "center"),
        ("catalogue", "catalog"),
        ("licence", "license"),
    ]
    for british, us in pairs:
        assert stemmer.stemWord(british) == stemmer.stemWord(us), (british, us)


def test_words_that_only_look_british_are_left_alone():
    for word in ("hour", "four", "tour", "promise", "exercise", "otherwise", "filled", "noise"):
        assert american(word) == word


def test_stem_words_matches_stem_word():
    stemmer = EnglishStemmer()
    words = ["colours", "serialised", "requests", "filled"]
    assert stemmer.stemWords(words) == [stemmer.stemWord(w) for w in words]
