"""Documentation corpora for `marsa eval qa`, obtained from PyPI by name and pinned version.

Usage: python bench/corpus.py [NAME] [--cache DIR]     (prints the docs folder's path)

The corpus is the documentation (Markdown or reStructuredText) shipped in a package's
source distribution: pip downloads the pinned sdist into the cache (default
~/.cache/marsa-bench), its sha256 is checked, and its docs folder is extracted beside it.
A corpus that no package ships (a specification's MDX pages from its Git repository) is
kept in this repository instead, as a small archive under bench/data/corpora/, checked and
extracted the same way. bench/data/README.md says what each corpus is and under which
licence.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_CACHE = Path.home() / ".cache" / "marsa-bench"
IN_REPO = Path(__file__).resolve().parent / "data" / "corpora"


@dataclass(frozen=True)
class Corpus:
    """A package's documentation folder, pinned to one sdist."""

    package: str
    version: str
    sha256: str
    docs: str  # the folder inside the sdist, below its top-level <package>-<version>/
    suffixes: tuple[str, ...] = (".md",)
    only: tuple[str, ...] = ()  # when set, only these files and folders of ``docs``
    skip: tuple[str, ...] = ()  # files and folders of ``docs`` left out
    # kept in bench/data/corpora/ as <package>-<version>.tar.gz (a Git export), not on PyPI
    in_repo: bool = False

    @property
    def sdist(self) -> str:
        return f"{self.package}-{self.version}.tar.gz"


CORPORA = {
    "starlette": Corpus(
        package="starlette",
        version="0.46.2",
        sha256="7f7361f34eed179294600af672f565727419830b54b7b084efe44bb82d2fccd5",
        docs="docs",
    ),
    "click": Corpus(
        package="click",
        version="8.1.8",  # reStructuredText docs (8.5's are Markdown)
        sha256="ed53c9d8990d83c2a27deae68e4ee337473f6330c040a31d4225c9574d16096a",
        docs="docs",
        suffixes=(".rst",),
    ),
    "structlog": Corpus(
        package="structlog",
        version="25.1.0",  # MyST Markdown, plus one reStructuredText file (api.rst)
        sha256="2ef2a572e0e27f09664965d31a576afe64e46ac6084ef5cec3c2b8cd6e4e3ad3",
        docs="docs",
        suffixes=(".md", ".rst"),
    ),
    "attrs": Corpus(
        package="attrs",
        version="25.1.0",  # MyST Markdown, plus two reStructuredText files (api.rst, api-attr.rst)
        sha256="1c97078a80c814273a76b2a298a932eb681c87415c11dee0a6921de7f1b02c3e",
        docs="docs",
        suffixes=(".md", ".rst"),
    ),
    "marshmallow": Corpus(
        package="marshmallow",
        version="4.4.0",  # reStructuredText, in subfolders too (extending/, examples/)
        sha256="9e6ffa8511012ca89732324c1c253efd7b4d35632dcbdf80aa793fe01804af3e",
        docs="docs",
        suffixes=(".rst",),
    ),
    "flask": Corpus(
        package="flask",
        version="3.1.1",  # reStructuredText, 75 files, in subfolders too (tutorial/, patterns/ …)
        sha256="284c7b8f2f58cb737f0cf1c30fd7eaf0ccfcde196099d24ecede3fc2005aa59e",
        docs="docs",
        suffixes=(".rst",),
    ),
    "jinja": Corpus(
        package="jinja2",
        version="3.1.4",  # reStructuredText with Sphinx directives; its API text is autodoc
        sha256="4a3aee7acbbe7303aede8e9648d13b8bf88a429282aa6122a993f0ac800cb369",
        docs="docs",
        suffixes=(".rst",),
    ),
    "pytest": Corpus(
        package="pytest",
        version="8.3.4",  # reStructuredText; the how-to and explanation pages and two references
        sha256="965370d062bce11e73868e0335abac31b4d3de0e82f4007408d242b4f8610761",
        docs="doc/en",
        suffixes=(".rst",),
        only=(
            "how-to/",
            "explanation/",
            "reference/fixtures.rst",
            "reference/customize.rst",
            "getting-started.rst",
        ),
    ),
    "coverage": Corpus(
        package="coverage",
        version="7.6.10",  # reStructuredText; the change log (15,000 words) is left out
        sha256="7fb105327c8f8f0682e29843e2ff96af9dcbe5bab8eeb4b398c6a33a16d80a23",
        docs="doc",
        suffixes=(".rst",),
        skip=("changes.rst",),
    ),
    "black": Corpus(
        package="black",
        version="24.10.0",  # MyST Markdown in subfolders ({include}, {program-output}, labels)
        sha256="846ea64c97afe3bc677b761787993be4991810ecc7a4a937816dd6bddedc4875",
        docs="docs",
    ),
    "nox": Corpus(
        package="nox",
        version="2024.10.9",  # reStructuredText with one Markdown page; the change log left out
        sha256="7aa9dc8d1c27e9f45ab046ffd1c3b2c4f7c91755304769df231308849ebded95",
        docs="docs",
        suffixes=(".rst", ".md"),
        skip=("CHANGELOG.md",),
    ),
    "urllib3": Corpus(
        package="urllib3",
        version="2.3.0",  # reStructuredText; reference/ is mostly autodoc directives
        sha256="f8c5449b3cf0861679ce7e0503c7b44b5ec981bec0d1d3795a07f1ba96f0204d",
        docs="docs",
        suffixes=(".rst",),
        skip=("changelog.rst",),
    ),
    "werkzeug": Corpus(
        package="werkzeug",
        version="3.1.9",  # reStructuredText, much of it autodoc directives; the change log left out
        sha256="55ca7c70a75689be937aa27f8ff4b018f06ff4838fc73045560bf0f5a1291060",
        docs="docs",
        suffixes=(".rst",),
        skip=("changes.rst",),
    ),
    "alembic": Corpus(
        package="alembic",
        version="1.20.1",  # reStructuredText under docs/build; the change log left out
        sha256="83490def1f723413db5096591f7609ac52544805be93849170088ed04f5a2e0b",
        docs="docs/build",
        suffixes=(".rst",),
        skip=("changelog.rst", "unreleased/"),
    ),
    "hatch": Corpus(
        package="hatch",
        version="1.14.1",  # MkDocs Material Markdown (admonitions, tabs), 72 files in subfolders
        sha256="ca1aff788f8596b0dd1f8f8dfe776443d2724a86b1976fabaf087406ba3d0713",
        docs="docs",
    ),
    "pytest-asyncio": Corpus(
        package="pytest_asyncio",
        version="1.5.0",  # reStructuredText in subfolders (how-to-guides/, reference/), sphinx-tabs
        sha256="92c8fa83ca419fd0d4bd6a34df6520dae435841d3733c319343249492adf37f7",
        docs="docs",
        suffixes=(".rst",),
    ),
    "rq": Corpus(
        package="rq",
        version="3.0.0",  # Jekyll Markdown in subfolders (docs/, patterns/, contrib/)
        sha256="b41e39b3c36ec3faf9e2402c638a0b25fe18ebb93a1cb15193bc69694f054618",
        docs="docs",
    ),
    "stamina": Corpus(
        package="stamina",
        version="26.1.0",  # MyST Markdown, 7 files (api.md is autodoc directives)
        sha256="0214d05fdf5102c518194a4aac7520ce53cf660550ae3b940701aad88cf50c17",
        docs="docs",
    ),
    "anyio": Corpus(
        package="anyio",
        version="4.16.0",  # reStructuredText with Sphinx roles (api.rst is autodoc); no change log
        sha256="59bb03251907983d1603d27c3087ddb1e93299ea2163adcdba37899a4fb12ffb",
        docs="docs",
        suffixes=(".rst",),
        skip=("versionhistory.rst",),
    ),
    "huey": Corpus(
        package="huey",
        version="3.5.4",  # reStructuredText, 19 files; api.rst is hand-written, not autodoc
        sha256="328f5a2dd1406621e5edb17d45655ae232ad9f32c0795ca8dc0bfc121dd7b30c",
        docs="docs",
        suffixes=(".rst",),
    ),
    "trio": Corpus(
        package="trio",
        version="0.35.0",  # reStructuredText; much of the API is autodoc, so not in the files
        sha256="7efb295c78a0ecd1235c5759e620b5da564ca80d2efcb0055423588547248b96",
        docs="docs/source",
        suffixes=(".rst",),
        skip=("history.rst",),
    ),
    "apscheduler": Corpus(
        package="apscheduler",
        version="3.11.3",  # reStructuredText in subfolders (modules/triggers/cron.rst)
        sha256="cd2fcc9330039a81a5893472ad49facf23a6d5604cbe1d918c835c6de7834d5a",
        docs="docs",
        suffixes=(".rst",),
        skip=("versionhistory.rst", "py-modindex.rst"),
    ),
    "gunicorn": Corpus(
        package="gunicorn",
        version="27.0.1",  # MkDocs Markdown under docs/content; the yearly change logs left out
        sha256="b1514965361c8b7e8107a80aa2a92636878df1ccfac6dd204a676426e04d9e3e",
        docs="docs/content",
        skip=(
            "news.md",
            "2010-news.md",
            "2011-news.md",
            "2012-news.md",
            "2013-news.md",
            "2014-news.md",
            "2015-news.md",
            "2016-news.md",
            "2017-news.md",
            "2018-news.md",
            "2019-news.md",
            "2020-news.md",
            "2021-news.md",
            "2023-news.md",
            "2024-news.md",
            "2026-news.md",
            "404.md",
            "index.md",
        ),
    ),
    "tornado": Corpus(
        package="tornado",
        version="6.6.1",  # reStructuredText with guide/; release notes, toctree-only pages out
        sha256="28e6311402af59c8b02e3fa0f5e7d8eb465b25081381803b127d97e6a4395d5a",
        docs="docs",
        suffixes=(".rst",),
        skip=(
            "releases/",
            "releases.rst",
            "guide.rst",
            "coroutine.rst",
            "http.rst",
            "integration.rst",
            "networking.rst",
            "utilities.rst",
            "webframework.rst",
        ),
    ),
    "aiohttp": Corpus(
        package="aiohttp",
        version="3.14.5",  # Sphinx reStructuredText, flat docs/; reference written out by hand
        sha256="5558a7f5a05af9ecf744af91e5baefc436f93c9333e656c27ec253f9a6bbe178",
        docs="docs",
        suffixes=(".rst",),
        skip=(
            # changelog and release notes
            "changes.rst",
            "whats_new_1_1.rst",
            "whats_new_3_0.rst",
            # lists of third-party / external projects and sites
            "external.rst",
            "third_party.rst",
            "built_with.rst",
            "powered_by.rst",
            # only tables of contents
            "client.rst",
            "web.rst",
            "utilities.rst",
            "misc.rst",
            "essays.rst",
        ),  # threat_model.md (an include of ../THREAT_MODEL.md) is not .rst, so not taken
    ),
    "waitress": Corpus(
        package="waitress",
        version="3.0.2",  # Sphinx reStructuredText, 12 flat pages, no subfolders
        sha256="682aaaf2af0c44ada4abfb70ded36393f0e307f4ab9456a215ce0020baefc31f",
        docs="docs",
        suffixes=(".rst",),
        # nothing to leave out: the change history (CHANGES.txt, HISTORY.txt) lies outside
        # docs/ and is only pulled into index.rst by ``.. include::``; api.rst is kept (a
        # hand-written ``.. function::`` signature, not autodoc); conf.py etc. are not .rst
        skip=(),
    ),
    "cattrs": Corpus(
        package="cattrs",
        version="26.2.1",  # MyST Markdown, flat docs/; the .rst files are autodoc stubs
        sha256="679132bfdc225c5ee40c024fc42519954767c387f950dc6751946c586bccdc6d",
        docs="docs",
        suffixes=(".md",),
        # history.md and contributing.md only ``include`` files from outside docs/
        skip=("history.md", "contributing.md"),
    ),
    "falcon": Corpus(
        package="falcon",
        version="4.4.0",  # Sphinx reStructuredText in subfolders (user/, api/, changes/ …)
        sha256="9f3ffbddc8baed4573295642eddb18a37eea37baba9f20c5be379c8b3d3d79e6",
        docs="docs",
        suffixes=(".rst", ".md"),
        # kept whole: the API pages mix autodoc stubs with prose, and the release notes
        # (changes/) say what was removed or added
        skip=(),
    ),
    "kombu": Corpus(
        package="kombu",
        version="5.7.0",  # reStructuredText: userguide/ (prose) and reference/ (mostly autodoc)
        sha256="31e62fdfd2381caa3422f8e02b84a491d9a2180ddda74507b57f4cb1e1c2c2c9",
        docs="docs",
        suffixes=(".rst",),
        # faq.rst and changelog.rst only ``include`` files from outside docs/
        skip=("faq.rst", "changelog.rst"),
    ),
    "celery": Corpus(
        package="celery",
        version="5.7.0",  # reStructuredText; 234 files in all, the user guide (21) kept
        sha256="6a5dfcf6662287204f009a02002b9e66c83d4105e47ebabdc7079108772fc6f0",
        docs="docs",
        suffixes=(".rst",),
        only=("userguide/",),
    ),
    "wtforms": Corpus(
        package="wtforms",
        version="3.3.2",  # reStructuredText; changes.rst and license.rst only ``include``
        sha256="49bb51d10b7832d497e758736da4d56f7d129a015db24756f36f28992f175404",
        docs="docs",
        suffixes=(".rst",),
        skip=("changes.rst", "license.rst"),
    ),
    # The MCP specification 2025-11-25 (MDX) and the SEPs, from
    # github.com/modelcontextprotocol/modelcontextprotocol at commit b0f60ba5 (docs/ only)
    "mcp": Corpus(
        package="mcp-spec",
        version="b0f60ba5",
        sha256="cb06c91df4e7ff36ec5df291db13e3eb02fcafed6efae95eaaec2e4b386ea226",
        docs="docs",
        suffixes=(".mdx",),
        in_repo=True,
    ),
    "markdown": Corpus(
        package="markdown",
        version="3.11.3",  # Markdown; reference/ is API stubs (``::: markdown``), no prose
        sha256="81eb91631dc97ad1efbc76019ef0f80fe90ca49ddf81546752d79989c3bfff3e",
        docs="docs",
        skip=("reference/", "change_log/", "changelog.md"),
    ),
    "jsonschema": Corpus(
        package="jsonschema",
        version="4.26.0",  # reStructuredText; five prose pages, the rest autodoc stubs
        sha256="0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326",
        docs="docs",
        suffixes=(".rst",),
    ),
    "invoke": Corpus(
        package="invoke",
        version="3.0.3",  # reStructuredText under sites/docs; api/ pages are autodoc stubs
        sha256="437b6a622223824380bfb4e64f612711a6b648c795f565efc8625af66fb57f0c",
        docs="sites/docs",
        suffixes=(".rst",),
    ),
    "packaging": Corpus(
        package="packaging",
        version="26.4",  # reStructuredText, 21 files; much of the API is autodoc
        sha256="c4b671c41ddb9bf26e543c37723610d28fb6bf7affc4da17cf048d419d2c062a",
        docs="docs",
        suffixes=(".rst",),
    ),
    "python-statemachine": Corpus(
        package="python_statemachine",
        version="3.2.2",  # MyST Markdown, 31 files; the release notes left out
        sha256="5968c5e07a537f7531b8b1d0a0d5067a3452c88941fa0ac6c244870d48f78325",
        docs="docs",
        skip=("releases",),
    ),
}


class CorpusError(RuntimeError):
    """The corpus could not be obtained, with what to do about it."""


def _pip() -> list[str]:
    """A pip command: this interpreter's, else the one on PATH (a uv venv has none)."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    found = shutil.which("pip3") or shutil.which("pip")
    if found is None:
        raise CorpusError("pip is needed to download the corpus: install it or put it on PATH")
    return [found]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download(corpus: Corpus, cache: Path) -> Path:
    """The pinned sdist in the cache, downloaded by pip if absent (or the archive kept in this
    repository); its checksum checked."""
    target = (IN_REPO if corpus.in_repo else cache) / corpus.sdist
    if not target.is_file() and corpus.in_repo:
        raise CorpusError(f"{target} is missing from this checkout")
    if not target.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        command = [
            *_pip(),
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            "--disable-pip-version-check",
            "-d",
            str(cache),
            f"{corpus.package}=={corpus.version}",
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not target.is_file():
            raise CorpusError(f"pip could not download {corpus.sdist}:\n{done.stderr.strip()}")
    actual = sha256_of(target)
    if actual != corpus.sha256:
        raise CorpusError(
            f"{target} has sha256 {actual}, expected {corpus.sha256}; delete it and retry"
        )
    return target


def extract_docs(corpus: Corpus, sdist: Path, cache: Path) -> Path:
    """The sdist's docs folder (only its files with the corpus's suffixes), extracted once."""
    folder = cache / f"{corpus.package}-{corpus.version}" / corpus.docs
    if folder.is_dir() and any(folder.iterdir()):
        return folder
    prefix = f"{corpus.package}-{corpus.version}/{corpus.docs}/"
    with tarfile.open(sdist, "r:gz") as archive:
        members = [
            m
            for m in archive.getmembers()
            if m.isfile()
            and m.name.startswith(prefix)
            and m.name.endswith(corpus.suffixes)
            and (not corpus.only or m.name[len(prefix) :].startswith(corpus.only))
            and not (corpus.skip and m.name[len(prefix) :].startswith(corpus.skip))
        ]
        if not members:
            raise CorpusError(f"{sdist} has no {prefix}*{'|'.join(corpus.suffixes)} files")
        archive.extractall(cache, members=members, filter="data")
    return folder


def obtain(name: str, cache: Path = DEFAULT_CACHE) -> Path:
    """The docs folder of a named corpus, downloading and extracting it when needed."""
    if name not in CORPORA:
        raise CorpusError(f"unknown corpus {name!r}; known: {', '.join(sorted(CORPORA))}")
    corpus = CORPORA[name]
    return extract_docs(corpus, download(corpus, cache), cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", default="starlette", choices=sorted(CORPORA))
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    try:
        print(obtain(args.name, args.cache))
    except CorpusError as exc:
        sys.exit(f"error: {exc}")


if __name__ == "__main__":
    main()
