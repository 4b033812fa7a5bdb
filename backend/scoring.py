"""Source-quality scoring: pure functions, no I/O.

``final = 0.4 × domain authority + 0.3 × recency + 0.3 × content depth``, rounded to 4 places.

Domain authority comes from the URL's host (lower-cased, ``www.`` and port dropped; a
subdomain inherits its parent's tier, the most specific listed suffix winning):

====  =====================================================================================
0.90  government / academic suffixes (.gov, .edu, .mil, .int, .gov.uk, .ac.uk, .ac.jp, ...)
0.85  publications and major news; the language and standards bodies' own documentation
0.80  other official documentation (``docs.*`` hosts, readthedocs, vendor ``/docs/`` paths)
0.75  big-company engineering / research blogs
0.70  well-known individual blogs; local documents; a GitHub README, docs path or repo page
0.65  Q&A communities (Stack Overflow, Stack Exchange), Wikipedia; any other blog
0.60  GitHub code and other repository files
0.55  blogging platforms (Medium, dev.to, Hashnode, Substack)
0.50  forums (Reddit, Quora, Hacker News); GitHub issues, pull requests and discussions
0.40  anything else
====  =====================================================================================

Where the non-web sources fall, and why:

* A local document (``kind="docs"``) is one the user chose to ingest: curated, but not vetted
  by MARSA, so it sits with the well-known individual blogs at 0.70. A document ingested from a
  web page (an ``http(s)`` ``source_url``) is scored by that URL instead.
* GitHub: a repository's README, its docs folder and its landing page (which shows the README)
  are the project's own account of itself: 0.70, below vendor documentation because anyone can
  publish a repository and popularity is not scored here. Other files and code are primary
  evidence but need reading: 0.60. Issues, pull requests and discussions are community
  discussion: 0.50, with the forums. A GitHub URL refines the kind (a ``github_code`` result
  pointing at a README scores 0.70); without one the kind alone decides.

Recency uses calendar months back from ``now`` (a UTC date), the day clamped to the month's
end (three months before 31 May is 29 February in a leap year). A source published on or
after that day is "within three months": ≤ 3 months → 1.0, ≤ 6 → 0.8, ≤ 12 → 0.6, older →
0.4. No date, or a string that is not ISO 8601, → 0.6. A future date (clock skew) → 1.0.

Depth by words: > 2000 → 0.8, 500–2000 inclusive → 0.6, < 500 → 0.4.

A paper (``kind="paper"``, from the scholarly source) is read through its abstract, so it is
scored by what stands behind it rather than by the words retrieved:

* Authority by venue: a venue or URL of the publication tier (arXiv, ACM, IEEE, Nature, …) →
  0.85, as the web tier does; another named journal, conference or proceedings → 0.80
  (peer-reviewed, but not a venue MARSA knows); no venue → the URL's web tier, at least 0.60
  (a paper indexed by OpenAlex or arXiv is more than an unknown page).
* Recency from the publication date, as for any source.
* Depth from the abstract: a full paper stands behind it, so an abstract of 100 words or more
  → 0.6 and a shorter one → 0.5; no abstract → 0.4 (only the title is known).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from types import MappingProxyType
from typing import Final, Literal
from urllib.parse import urlsplit

SourceKind = Literal["web", "docs", "github_code", "github_issue", "github_repo", "paper"]

WEIGHTS: Final[Mapping[str, float]] = MappingProxyType(
    {"domain": 0.4, "recency": 0.3, "depth": 0.3}
)

UNKNOWN: Final = 0.40
LOCAL_DOCUMENT: Final = 0.70
GITHUB_README: Final = 0.70
GITHUB_CODE: Final = 0.60
GITHUB_DISCUSSION: Final = 0.50
OFFICIAL_DOCS: Final = 0.80
OTHER_BLOG: Final = 0.65
PUBLICATION: Final = 0.85
OTHER_VENUE: Final = 0.80
INDEXED_PAPER: Final = 0.60

# fmt: off
_GOV_ACADEMIC_SUFFIXES: Final = (
    "gov.uk", "ac.uk", "nhs.uk", "gov.au", "edu.au", "gov.ca", "gc.ca", "gov.in", "ac.in",
    "go.jp", "ac.jp", "ac.nz", "govt.nz", "gov.sg", "edu.sg", "go.kr", "ac.kr", "gov.cn",
    "edu.cn", "gov.br", "edu.br", "gov.za", "ac.za", "gov.il", "ac.il", "europa.eu",
    "gov", "edu", "mil", "int",
)

# score, reason label, domains ("host/path" restricts an entry to a path prefix).
_TIERS: Final[tuple[tuple[float, str, tuple[str, ...]], ...]] = (
    (0.85, "publication", (
        "arxiv.org", "acm.org", "ieee.org", "nature.com", "science.org", "springer.com",
        "sciencedirect.com", "plos.org", "cell.com", "thelancet.com", "nejm.org", "bmj.com",
        "pnas.org", "wiley.com", "jamanetwork.com", "biorxiv.org", "medrxiv.org",
        "aclanthology.org", "openreview.net", "neurips.cc", "jmlr.org", "usenix.org",
    )),
    (0.85, "major news", (
        "reuters.com", "apnews.com", "bbc.co.uk", "bbc.com", "nytimes.com", "theguardian.com",
        "wsj.com", "ft.com", "economist.com", "washingtonpost.com", "bloomberg.com", "npr.org",
    )),
    (0.85, "standards documentation", (
        "docs.python.org", "peps.python.org", "developer.mozilla.org", "w3.org", "whatwg.org",
        "ietf.org", "rfc-editor.org", "ecma-international.org", "tc39.es", "unicode.org",
        "iso.org", "doc.rust-lang.org", "go.dev/doc", "go.dev/ref",
    )),
    (OFFICIAL_DOCS, "official documentation", (
        "readthedocs.io", "readthedocs.org", "learn.microsoft.com", "developer.apple.com",
        "developer.android.com", "developers.google.com", "kubernetes.io", "python.org",
        "rust-lang.org", "go.dev", "pytorch.org", "tensorflow.org", "nodejs.org", "react.dev",
        "djangoproject.com", "postgresql.org", "numpy.org", "scikit-learn.org", "pydata.org",
        "typescriptlang.org",
    )),
    (0.75, "engineering blog", (
        "netflixtechblog.com", "engineering.fb.com", "engineering.atspotify.com",
        "blog.cloudflare.com", "aws.amazon.com/blogs", "googleblog.com", "research.google",
        "deepmind.google", "deepmind.com", "openai.com/research", "openai.com/blog",
        "openai.com/index", "anthropic.com", "huggingface.co/blog", "github.blog",
        "devblogs.microsoft.com", "slack.engineering", "dropbox.tech", "stripe.com/blog",
        "engineering.linkedin.com", "ai.meta.com/blog", "shopify.engineering",
    )),
    (0.70, "individual blog", (
        "martinfowler.com", "jvns.ca", "simonwillison.net", "danluu.com", "paulgraham.com",
        "lilianweng.github.io", "karpathy.github.io", "colah.github.io", "jalammar.github.io",
        "brendangregg.com", "joelonsoftware.com", "overreacted.io", "research.swtch.com",
        "eli.thegreenplace.net", "fasterthanli.me", "sebastianraschka.com", "eugeneyan.com",
        "huyenchip.com", "rachelbythebay.com",
    )),
    (0.65, "community Q&A", (
        "stackoverflow.com", "stackexchange.com", "superuser.com", "serverfault.com",
        "askubuntu.com", "mathoverflow.net",
    )),
    (0.65, "community encyclopedia", ("wikipedia.org",)),
    (0.55, "blogging platform", (
        "medium.com", "dev.to", "hashnode.com", "hashnode.dev", "substack.com",
    )),
    (0.50, "forum", ("reddit.com", "quora.com", "news.ycombinator.com")),
)
# fmt: on


def _index_tiers() -> tuple[dict[str, tuple[float, str]], dict[str, list[tuple[str, float, str]]]]:
    """Split ``_TIERS`` into whole-domain entries and path-prefixed ones (by host)."""
    domains: dict[str, tuple[float, str]] = {}
    paths: dict[str, list[tuple[str, float, str]]] = {}
    for score, label, entries in _TIERS:
        for entry in entries:
            host, slash, prefix = entry.partition("/")
            if slash:
                paths.setdefault(host, []).append(("/" + prefix, score, label))
            else:
                domains[host] = (score, label)
    return domains, paths


_DOMAINS, _PATHS = _index_tiers()

_GITHUB_HOSTS: Final = frozenset({"github.com", "gist.github.com", "raw.githubusercontent.com"})
_GITHUB_KIND_DEFAULTS: Final[dict[str, tuple[float, str]]] = {
    "github_code": (GITHUB_CODE, "GitHub code"),
    "github_issue": (GITHUB_DISCUSSION, "GitHub issue/PR discussion"),
    "github_repo": (GITHUB_README, "GitHub repository page"),
}
_DOC_SEGMENTS: Final = frozenset({"doc", "docs", "documentation"})


@dataclass(frozen=True, slots=True)
class SourceScore:
    """A source's quality score and its three components (each in 0–1)."""

    final: float
    domain: float
    recency: float
    depth: float
    domain_reason: str


def score_source(
    url: str | None,
    *,
    kind: SourceKind,
    published: date | datetime | str | None,
    word_count: int,
    now: date | None = None,
    venue: str | None = None,
) -> SourceScore:
    """Score one source: the weighted sum of domain authority, recency and depth. A paper's
    ``venue`` decides its authority and ``word_count`` is its abstract's."""
    if kind == "paper":
        domain, reason = paper_authority(url, venue)
        depth = abstract_depth(word_count)
    else:
        domain, reason = domain_authority(url, kind)
        depth = depth_score(word_count)
    recency = recency_score(published, now)
    final = WEIGHTS["domain"] * domain + WEIGHTS["recency"] * recency + WEIGHTS["depth"] * depth
    return SourceScore(round(final, 4), domain, recency, depth, reason)


def domain_authority(url: str | None, kind: SourceKind = "web") -> tuple[float, str]:
    """Authority of a source from its URL (and kind for local and GitHub sources).

    Returns the score and a short reason such as ``"government/academic (.edu)"``.
    """
    if kind == "docs":
        # Only a web address says where a local document came from; a path or
        # "text:" label does not.
        if url is None or not url.strip().lower().startswith(("http://", "https://")):
            return LOCAL_DOCUMENT, "local document (user-ingested)"
        return _web_authority(url)
    if kind in _GITHUB_KIND_DEFAULTS:
        if url is not None and (host := _host(url)) in _GITHUB_HOSTS:
            return _github_authority(host, urlsplit(_with_scheme(url)).path)
        return _GITHUB_KIND_DEFAULTS[kind]
    if kind == "paper":
        return paper_authority(url, None)
    if kind != "web":
        raise ValueError(f"unknown source kind {kind!r}")
    if url is None:
        return UNKNOWN, "unknown (no URL)"
    return _web_authority(url)


def recency_score(published: date | datetime | str | None, now: date | None = None) -> float:
    """Freshness by calendar months between ``published`` and ``now`` (default: today, UTC)."""
    day = _as_date(published)
    if day is None:
        return 0.6
    today = _as_date(now) or datetime.now(UTC).date()
    if day >= _months_before(today, 3):
        return 1.0
    if day >= _months_before(today, 6):
        return 0.8
    if day >= _months_before(today, 12):
        return 0.6
    return 0.4


def depth_score(word_count: int) -> float:
    """Depth by length: more than 2000 words 0.8, 500–2000 0.6, fewer 0.4."""
    if word_count < 0:
        raise ValueError(f"word_count must be >= 0, got {word_count}")
    if word_count > 2000:
        return 0.8
    if word_count >= 500:
        return 0.6
    return 0.4


# A venue naming one of these is of the publication tier (word-bounded, case-insensitive).
_PUBLICATION_VENUES: Final = re.compile(
    r"\b(?:arxiv|acm|ieee|nature|springer|elsevier|plos|lancet|"
    r"new england journal of medicine|bmj|pnas|proceedings of the national academy|"
    r"neurips|neural information processing systems|icml|iclr|jmlr|"
    r"computational linguistics|empirical methods in natural language processing|acl|emnlp|"
    r"naacl|usenix|biorxiv|medrxiv)\b",
    re.IGNORECASE,
)
# Names too common inside other venues' names ("Journal of Library Science") count only whole.
_PUBLICATION_WHOLE: Final = frozenset({"science", "cell", "science advances"})


def paper_authority(url: str | None, venue: str | None) -> tuple[float, str]:
    """Authority of a paper: its venue's tier, else its URL's, and never below an indexed
    paper's floor (see the module docstring)."""
    name = " ".join((venue or "").split())
    if name.casefold() in _PUBLICATION_WHOLE or (name and _PUBLICATION_VENUES.search(name)):
        return PUBLICATION, f"publication ({name})"
    by_url = _web_authority(url) if url else (UNKNOWN, "unknown (no URL)")
    if by_url[0] >= PUBLICATION:
        return by_url
    if name:
        return OTHER_VENUE, f"journal or conference ({name})"
    if by_url[0] >= INDEXED_PAPER:
        return by_url
    return INDEXED_PAPER, "paper with no known venue"


def abstract_depth(words: int) -> float:
    """Depth of a paper read through its abstract: 100 words or more 0.6, a shorter
    abstract 0.5, none 0.4."""
    if words < 0:
        raise ValueError(f"word count must be >= 0, got {words}")
    if words >= 100:
        return 0.6
    if words > 0:
        return 0.5
    return 0.4


def _with_scheme(url: str) -> str:
    url = url.strip()
    # "arxiv.org/abs/1" would otherwise parse as a path with no host.
    return url if "://" in url or url.startswith("//") else "//" + url


def _host(url: str) -> str | None:
    parts = urlsplit(_with_scheme(url))
    if parts.scheme and parts.scheme.lower() not in ("http", "https"):
        return None
    host = (parts.hostname or "").rstrip(".")
    return host.removeprefix("www.") or None


def _web_authority(url: str) -> tuple[float, str]:
    host = _host(url)
    if host is None:
        return UNKNOWN, "unknown (no web host)"
    path = urlsplit(_with_scheme(url)).path.lower()
    for suffix in _GOV_ACADEMIC_SUFFIXES:
        if host == suffix or host.endswith("." + suffix):
            return 0.90, f"government/academic (.{suffix})"
    if host in _GITHUB_HOSTS:
        return _github_authority(host, path)
    labels = host.split(".")
    for i in range(len(labels) - 1):
        suffix = ".".join(labels[i:])
        for prefix, score, label in _PATHS.get(suffix, ()):
            if path == prefix or path.startswith(prefix + "/"):
                return score, f"{label} ({suffix}{prefix})"
        if suffix in _DOMAINS:
            score, label = _DOMAINS[suffix]
            return score, f"{label} ({suffix})"
        if i == 0 and labels[0] in _DOC_SEGMENTS:
            # docs.<vendor> is the vendor's own documentation, whatever tier the vendor has.
            return OFFICIAL_DOCS, f"official documentation ({host})"
    segments = [s for s in path.split("/") if s]
    if _DOC_SEGMENTS.intersection(segments):
        return OFFICIAL_DOCS, f"official documentation (/docs/ path on {host})"
    if any(lb.startswith("blog") or lb.endswith("blog") for lb in labels) or any(
        s.startswith("blog") for s in segments
    ):
        return OTHER_BLOG, f"blog ({host})"
    return UNKNOWN, f"unknown ({host})"


def _github_authority(host: str, path: str) -> tuple[float, str]:
    segments = [s.lower() for s in path.split("/") if s]
    if host == "github.com":
        if len(segments) == 2:
            return GITHUB_README, "GitHub repository page"
        if len(segments) > 2 and segments[2] in ("issues", "pull", "pulls", "discussions"):
            return GITHUB_DISCUSSION, "GitHub issue/PR discussion"
        if len(segments) > 2 and segments[2] == "wiki":
            return GITHUB_README, "GitHub README/docs"
    # Files: github.com/o/r/blob/<ref>/<path>, raw.githubusercontent.com/o/r/<ref>/<path>.
    file_segments = segments[2:]
    if file_segments and (
        file_segments[-1].startswith("readme") or _DOC_SEGMENTS.intersection(file_segments[:-1])
    ):
        return GITHUB_README, "GitHub README/docs"
    return GITHUB_CODE, "GitHub code"


def _as_date(value: date | datetime | str | None) -> date | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).date() if value.tzinfo else value.date()
    if isinstance(value, date):
        return value
    try:
        return _as_date(datetime.fromisoformat(value.strip()))
    except ValueError:
        return None


def _months_before(day: date, months: int) -> date:
    year, month0 = divmod(day.year * 12 + day.month - 1 - months, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(day.day, last))
