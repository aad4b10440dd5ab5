"""Every answer, API and pages alike, says how a browser may treat it: never sniff another type
than the one it is sent as, and send no referrer from it (a page's address names its game)."""

from __future__ import annotations

from tests.contract import ContractClient

PAGES = ("/", "/games/abc", "/games/abc/replay", "/web/js/main.js", "/web/style.css",
         "/docs", "/docs/start.js", "/docs/swagger-ui.css", "/openapi.json", "/openapi.yaml")


def test_the_docs_page_and_its_files_are_never_sniffed(api: ContractClient) -> None:
    for url in ("/docs", "/docs/start.js", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css", "/openapi.json"):
        answer = api.client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["X-Content-Type-Options"] == "nosniff", url


def test_every_answer_pages_included_sends_no_referrer(api: ContractClient) -> None:
    answers = [api.client.get(url) for url in PAGES]
    answers += [api.get("/v1/health"), api.get("/v1/games"), api.get("/v1/games/nosuchgame"), api.client.get("/nowhere"),
                api.post("/v1/games", json={"game": "chess"})]
    for answer in answers:
        assert answer.headers["Referrer-Policy"] == "no-referrer", answer.request.path
        assert answer.headers["X-Content-Type-Options"] == "nosniff", answer.request.path
