"""The HTTP edge under hostile input: body size (declared or chunked), exact JSON integers,
magnitude caps, error shapes for 404/405/413, security headers and opt-in CORS."""

from __future__ import annotations

import io
import re
import time

import pytest
from flask.testing import FlaskClient

from api import create_app

PROBLEM = "application/problem+json"


def _client(**config: object) -> FlaskClient:
    return create_app({"TESTING": True, **config}).test_client()


def test_integer_past_64_bits_keeps_its_exact_value(client: FlaskClient) -> None:
    body = b'{"tree": [[18446744073709551617], [2]]}'
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["value_exact"] == "18446744073709551617"
    assert answer["value"] == 18446744073709551617.0
    assert answer["nodes"]["root.0.0"]["value_exact"] == "18446744073709551617"


def test_negative_integer_past_64_bits_keeps_its_exact_value(client: FlaskClient) -> None:
    body = b'{"tree": [[-9223372036854775809], [-9223372036854775808]]}'
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 200
    answer = response.get_json()
    # the larger leaf fits 64 bits and is written as an integer; the smaller one is exact text
    assert answer["value"] == -9223372036854775808
    assert answer["nodes"]["root.0"]["value_exact"] == "-9223372036854775809"


def test_digits_inside_strings_do_not_change_the_answer(client: FlaskClient) -> None:
    # a 19-digit run sends the body through the exact parser; the answer is the same
    body = b'{"tree": [["1/1000000000000000000"], [1]], "root": "min"}'
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 200
    assert response.get_json()["value_exact"] == "1/1000000000000000000"


@pytest.mark.parametrize(
    ("literal", "pointer"),
    [
        (b"1" + b"0" * 301, "/tree/0/1"),  # an integer past 1e300
        (b"1.7e308", "/tree/0/1"),  # a float past 1e300
        (b"-1.7976931348623157e308", "/tree/0/1"),
    ],
)
def test_numbers_beyond_the_magnitude_cap_are_refused_with_a_pointer(
    client: FlaskClient, literal: bytes, pointer: str
) -> None:
    body = b'{"tree": [[1, ' + literal + b"]]}"
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 422
    assert response.mimetype == PROBLEM
    problem = response.get_json()
    assert problem["errors"][0]["pointer"] == pointer
    assert "1e300" in problem["errors"][0]["message"]


@pytest.mark.parametrize("literal", [b"1e400", b"NaN", b"Infinity", b"1" * 4100])
def test_non_json_numbers_are_malformed_even_in_the_exact_parser(
    client: FlaskClient, literal: bytes
) -> None:
    # the 19-digit string sends this body through the standard library's parser
    body = b'{"tree": [["1/1000000000000000000", ' + literal + b"]]}"
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["type"].endswith("/malformed-json")


def test_deep_nesting_in_the_exact_parser_is_a_413(client: FlaskClient) -> None:
    body = b'{"x": "1234567890123456789", "tree": ' + b"[" * 5000 + b"1" + b"]" * 5000 + b"}"
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["type"].endswith("/nesting-too-deep")


def test_declared_body_past_the_limit_is_a_413() -> None:
    client = _client(MAX_CONTENT_LENGTH=1000)
    body = b'{"tree": [' + b"1, " * 600 + b"1]}"
    response = client.post("/v1/trees/minimax", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.mimetype == PROBLEM
    assert "1000 bytes" in response.get_json()["detail"]


def test_a_body_shorter_than_its_content_length_is_a_400() -> None:
    client = _client(MAX_CONTENT_LENGTH=1000)
    body = b'{"tree": [1, 2]}'
    response = client.post(
        "/v1/trees/minimax",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": str(len(body) + 10)},
    )
    assert response.status_code == 400 and response.mimetype == PROBLEM
    assert "16 of the 26 bytes" in response.get_json()["detail"]
    # the content type's parameters and case do not matter
    response = client.post(
        "/v1/trees/minimax", data=body, content_type="Application/JSON; charset=utf-8"
    )
    assert response.status_code == 200 and response.get_json()["value"] == 2


def _chunked(client: FlaskClient, body: bytes) -> tuple[int, dict[str, object]]:
    """Post ``body`` with no Content-Length, as a server that decodes chunked uploads would."""
    response = client.post(
        "/v1/trees/minimax",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True},
        headers={"Transfer-Encoding": "chunked"},
    )
    return response.status_code, response.get_json()


def test_chunked_body_past_the_limit_is_a_413_not_a_silent_cut() -> None:
    client = _client(MAX_CONTENT_LENGTH=1000)
    # cut at 1,000 bytes this would still be a valid prefix of many trees; it must not be read
    status, problem = _chunked(client, b'{"tree": [' + b"7, " * 600 + b"1]}")
    assert status == 413
    assert problem["type"].endswith("/request-entity-too-large")


def test_chunked_body_within_the_limit_is_read_whole() -> None:
    client = _client(MAX_CONTENT_LENGTH=1000)
    status, answer = _chunked(client, b'{"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}')
    assert status == 200
    assert answer["value"] == 3


def test_default_body_limit_is_32_mib(app: object) -> None:
    assert create_app({"TESTING": True}).config["MAX_CONTENT_LENGTH"] == 32 * 1024 * 1024


def test_unknown_path_is_a_problem(client: FlaskClient) -> None:
    response = client.get("/v1/nowhere")
    assert response.status_code == 404
    assert response.mimetype == PROBLEM
    assert response.get_json()["type"].endswith("/not-found")


def test_wrong_method_says_which_method_to_use(client: FlaskClient) -> None:
    response = client.get("/v1/trees/minimax")
    assert response.status_code == 405
    assert response.mimetype == PROBLEM
    assert "use POST" in response.get_json()["detail"]
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_every_answer_says_nosniff(client: FlaskClient) -> None:
    good = client.post("/v1/trees/minimax", json={"tree": [[1]]})
    bad = client.post("/v1/trees/minimax", json={"tree": "x"})
    missing = client.get("/nowhere")
    for response in (good, bad, missing):
        assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/matrices",
        "/practice",
        "/lotteries",
        "/games",
        "/docs",
        "/workbench/trees.js",
        "/workbench/style.css",
        "/workbench/api-docs.js",
        "/docs/assets/swagger-ui.css",
        "/v1/health",
        "/nowhere",
    ],
)
def test_every_answer_has_the_content_security_policy_and_refuses_framing(
    client: FlaskClient, path: str
) -> None:
    response = client.get(path)
    policy = [d.strip() for d in response.headers["Content-Security-Policy"].split(";")]
    assert policy == [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
    assert response.headers["X-Frame-Options"] == "DENY"
    response.close()


def test_the_docs_page_runs_no_inline_script(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.DOTALL)
    assert len(scripts) == 3 and all("src=" in tag and not body.strip() for tag, body in scripts)
    assert '<script type="module" src="/workbench/api-docs.js">' in page


def test_cors_is_off_by_default(client: FlaskClient) -> None:
    response = client.post(
        "/v1/trees/minimax", json={"tree": [[1]]}, headers={"Origin": "https://a.example"}
    )
    assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_allows_only_the_configured_origins() -> None:
    client = _client(ARBITER_CORS_ORIGINS="https://a.example, https://b.example")
    allowed = client.post(
        "/v1/trees/minimax", json={"tree": [[1]]}, headers={"Origin": "https://b.example"}
    )
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://b.example"
    other = client.post(
        "/v1/trees/minimax", json={"tree": [[1]]}, headers={"Origin": "https://evil.example"}
    )
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = client.options(
        "/v1/trees/minimax",
        headers={"Origin": "https://a.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://a.example"


def test_time_limit_problem_names_the_setting() -> None:
    # a zero budget: the first deadline check of the search fires
    client = _client(ARBITER_TIME_LIMIT=0.0)
    started = time.monotonic()
    response = client.post("/v1/trees/minimax", json={"tree": [[1, "1/3"], [2, "2/7"]]})
    assert time.monotonic() - started < 1.0
    assert response.status_code == 413
    problem = response.get_json()
    assert problem["type"].endswith("/time-limit")
    assert "ARBITER_TIME_LIMIT" in problem["detail"]
