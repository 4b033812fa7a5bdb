"""The file types the API takes are the document store's one list, new formats included."""

from __future__ import annotations

from marsa_common.files import SUPPORTED_SUFFIXES
from tests.backend.api.conftest import ApiServer
from tests.mcp_servers.test_formats import make_docx


def test_the_formats_route_gives_the_stores_list(shared_server: ApiServer) -> None:
    response = shared_server.client.get("/api/documents/formats")
    assert response.status_code == 200
    assert response.json() == {"suffixes": sorted(SUPPORTED_SUFFIXES)}


def test_mdx_rst_and_docx_uploads_are_ingested(documents_server: ApiServer) -> None:
    uploads = [
        ("page.mdx", b"import X from 'x'\n\n# Page\n\n<Note>Mangroves trap silt.</Note>\n"),
        ("guide.rst", b"Guide\n=====\n\nSeagrass stores carbon.\n"),
        ("plan.docx", make_docx()),
    ]
    for name, data in uploads:
        response = documents_server.client.post(
            "/api/documents", files={"file": (name, data, "application/octet-stream")}
        )
        assert response.status_code == 201, (name, response.text)
        assert response.json()["chunks"] >= 1
