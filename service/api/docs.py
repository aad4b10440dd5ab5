"""The API's own description, served: the OpenAPI document as JSON and YAML, and browsable docs
at /docs (Swagger UI, whose files ship in the swagger-ui-py package: nothing from another host)."""

from __future__ import annotations

from pathlib import Path

import swagger_ui
from flask import Blueprint, Response, abort, send_from_directory

from service.contract import spec

bp = Blueprint("docs", __name__)
SWAGGER_UI = Path(swagger_ui.__file__).parent / "static"
PAGES = Path(__file__).with_name("docs")
ASSETS = {"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png"}  # of Swagger UI's files, the ones the page uses
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return Response(spec.as_json(), mimetype="application/json")


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(spec.as_yaml(), mimetype="application/yaml")


@bp.get("/docs")
def docs() -> Response:
    answer = send_from_directory(PAGES, "index.html", max_age=300)
    answer.headers["Content-Security-Policy"] = CSP
    return answer


@bp.get("/docs/<name>")
def asset(name: str) -> Response:
    """A file of the page: its script, or one of Swagger UI's."""
    if name == "start.js":
        return send_from_directory(PAGES, name, max_age=300)
    if name not in ASSETS:
        abort(404)
    return send_from_directory(SWAGGER_UI, name, max_age=86400)
