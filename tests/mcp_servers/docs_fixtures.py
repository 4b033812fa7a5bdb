"""A small corpus and a server over a fresh store, built in the test's temp dir."""

from __future__ import annotations

CORPUS = [
    {
        "title": "Rust ownership",
        "content": "# Rust ownership\n## Borrowing\nRust guarantees memory safety without a "
        "garbage collector by checking ownership and borrowing at compile time.\n"
        "## Lifetimes\nLifetimes tell the compiler how long references stay valid.",
        "source_url": "https://doc.rust-lang.org/book/ownership.html",
        "metadata": {"published_date": "2024-03-01", "language": "rust"},
    },
    {
        "title": "Python garbage collection",
        "content": "CPython frees most objects by reference counting and runs a cyclic garbage "
        "collector to reclaim reference cycles.",
        "source_url": "https://docs.python.org/3/library/gc.html",
        "metadata": {"published_date": "2022-06-15", "language": "python"},
    },
    {
        "title": "Photosynthesis",
        "content": "Plants convert sunlight, water and carbon dioxide into glucose and oxygen in "
        "their chloroplasts.",
        "source_url": "https://example.org/biology/photosynthesis",
        "metadata": {"published_date": "2019-01-10", "language": "none"},
    },
]
