"""``arbiter prairielearn``: the question folder it writes, its ``server.py`` run as
PrairieLearn runs it (its own Python, a stub ``data``), and its grader run as PrairieLearn's
external grader runs it, in a ``/grade`` tree moved by ``GRADE_ROOT``.

The layouts follow PrairieLearn's source (PrairieLearn/PrairieLearn, 2026):
``apps/prairielearn/src/schemas/schemas/infoQuestion.json`` (info.json),
``src/question-servers/freeform.ts`` (``generate`` gets ``params``, ``correct_answers``,
``variant_seed`` as an integer, ``options``) and ``src/lib/externalGraderCommon.ts``
(``/grade/data/data.json``'s fields; the submitted ``_files`` written to ``/grade/student``).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from analysis.cli import main
from analysis.cli.prairielearn import MAX_VARIANTS, handout, variant_name
from analysis.grading.assignments import read_assignment, student_problem
from analysis.grading.generator_settings import PROBLEM_TYPES

ROOT = Path(__file__).resolve().parents[3]
# the brief's settings: AIMA-shaped alpha-beta trees that prune at least one leaf
SETTINGS = {"type": "alphabeta", "depth": 2, "branching": 3, "min_pruned_leaves": 1}
VARIANTS = 6

UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
INFO_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["uuid", "type", "title", "topic"],
    "additionalProperties": False,
    "properties": {
        "comment": {"type": "string"},
        "uuid": {"type": "string", "pattern": UUID},
        "type": {"enum": ["v3"]},
        "title": {"type": "string", "minLength": 1},
        "topic": {"type": "string", "minLength": 1},
        "tags": {"type": "array", "items": {"type": "string"}},
        "gradingMethod": {"enum": ["Internal", "External", "Manual"]},
        "partialCredit": {"type": "boolean"},
        "showCorrectAnswer": {"type": "boolean"},
        "externalGradingOptions": {
            "type": "object",
            "required": ["image"],
            "additionalProperties": False,
            "properties": {
                "enabled": {"type": "boolean"},
                "image": {"type": "string", "minLength": 1},
                "entrypoint": {"type": "string"},
                "serverFilesCourse": {"type": "array", "items": {"type": "string"}},
                "timeout": {"type": "integer", "minimum": 1, "maximum": 600},
            },
        },
    },
}
"""PrairieLearn's question schema, the properties written here: the required ones, and no
property it does not know (``additionalProperties`` is false there too)."""


def write_question(folder: Path, *options: str, settings: dict[str, Any] = SETTINGS) -> Path:
    source = folder.parent / f"{folder.name}-settings.json"
    source.write_text(json.dumps(settings))
    assert main(["prairielearn", str(source), "--output", str(folder), *options]) == 0
    return folder


@pytest.fixture(scope="module")
def question(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("question") / "alphabeta"
    return write_question(folder, "--seed", "4", "--variants", str(VARIANTS))


def generate(question: Path, variant_seed: int) -> dict[str, Any]:
    """``server.py``'s ``generate`` as PrairieLearn's zygote calls it: the file executed
    with ``__file__`` set, ``data`` as ``freeform.generate`` builds it."""
    module: dict[str, Any] = {"__file__": str(question / "server.py")}
    exec(compile((question / "server.py").read_text(), "server.py", "exec"), module)
    data: dict[str, Any] = {
        "params": {},
        "correct_answers": {},
        "variant_seed": variant_seed,
        "options": {"question_path": str(question)},
        "preferences": {},
    }
    module["generate"](data)
    return data


def key_of(question: Path, variant: str) -> dict[str, Any]:
    assignment = json.loads((question / "tests" / "assignment.json").read_text())
    template = read_assignment(assignment["assignment"])
    return student_problem(template, variant, figure=False).answer


def grade(question: Path, root: Path, params: dict[str, Any], answer: str | None) -> dict[str, Any]:
    """Lay out ``/grade`` as PrairieLearn's grader host does (tests/ copied, the submitted
    file in student/ and in data.json) and run the entrypoint in another process."""
    for part in ("data", "student", "serverFilesCourse"):
        (root / part).mkdir(parents=True)
    shutil.copytree(question / "tests", root / "tests")
    files = []
    if answer is not None:
        (root / "student" / "answer.json").write_text(answer)
        contents = base64.b64encode(answer.encode()).decode()
        files.append({"name": "answer.json", "contents": contents})
    data = {
        "params": params,
        "correct_answers": {},
        "submitted_answers": {"_files": files},
        "format_errors": {},
        "partial_scores": {},
        "score": 0,
        "feedback": {},
        "variant_seed": 12345,
        "options": {},
        "raw_submitted_answers": {},
        "gradable": True,
    }
    (root / "data" / "data.json").write_text(json.dumps(data))
    env = {**os.environ, "GRADE_ROOT": str(root), "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, str(root / "tests" / "run")], env=env, cwd=root, check=True, timeout=120
    )
    results: dict[str, Any] = json.loads((root / "results" / "results.json").read_text())
    return results


def test_info_json_is_a_question_prairielearn_accepts(question: Path) -> None:
    info = json.loads((question / "info.json").read_text())
    jsonschema.validate(info, INFO_SCHEMA)
    assert info["gradingMethod"] == "External" and info["title"] == "Alpha-beta pruning"
    assert info["tags"] == ["arbiter", "alphabeta"]
    options = info["externalGradingOptions"]
    assert options == {
        "enabled": True,
        "image": "arbiter-grader:0.1.0",
        "entrypoint": "/grade/tests/run",
        "timeout": 30,
    }
    # PrairieLearn makes the entrypoint executable in /grade; a local docker run needs it too
    assert os.access(question / "tests" / "run", os.X_OK)


def test_the_uuid_follows_the_settings_and_seed(question: Path, tmp_path: Path) -> None:
    uuid = json.loads((question / "info.json").read_text())["uuid"]
    again = write_question(tmp_path / "again", "--seed", "4", "--variants", "2")
    other = write_question(tmp_path / "other", "--seed", "5", "--variants", "2")
    given = write_question(
        tmp_path / "given", "--seed", "4", "--variants", "2",
        "--uuid", "3551731F-B6B4-4AFC-B1F8-A8A4F7F73BCC", "--title", "Prune!",
        "--topic", "Search", "--tag", "hw3", "--image", "course/arbiter:1", "--timeout", "60",
    )  # fmt: skip
    assert json.loads((again / "info.json").read_text())["uuid"] == uuid
    assert json.loads((other / "info.json").read_text())["uuid"] != uuid
    info = json.loads((given / "info.json").read_text())
    assert (info["uuid"], info["title"], info["topic"], info["tags"]) == (
        "3551731f-b6b4-4afc-b1f8-a8a4f7f73bcc",
        "Prune!",
        "Search",
        ["hw3"],
    )
    assert info["externalGradingOptions"]["image"] == "course/arbiter:1"
    assert info["externalGradingOptions"]["timeout"] == 60
    assert "-t course/arbiter:1 ." in (given / "grader" / "Dockerfile").read_text()


def test_server_py_picks_the_variant_by_prairielearns_seed(question: Path) -> None:
    seen = {}
    for seed in range(100, 100 + 3 * VARIANTS):
        data = generate(question, seed)
        assert data["params"]["variant"] == f"variant-{seed % VARIANTS}"
        assert data["correct_answers"] == {}
        assert set(data["params"]) == {
            "variant", "statement", "figure", "instructions", "answer_template",
        }  # fmt: skip
        assert generate(question, seed) == data  # the same seed, the same page
        seen[data["params"]["variant"]] = data["params"]
    assert len(seen) == VARIANTS
    trees = {params["figure"] for params in seen.values()}
    assert len(trees) == VARIANTS and all(tree.startswith("<svg") for tree in trees)


def test_the_page_shows_the_statement_and_holds_the_template(question: Path) -> None:
    page = (question / "question.html").read_text()
    panel = page[page.index("<pl-question-panel>") : page.index("</pl-question-panel>")]
    # statement, figure, how to answer, and the editor, in that order
    shown = [
        "<markdown>\n{{{params.statement}}}\n</markdown>",
        "{{{params.figure}}}",
        "<markdown>\n{{{params.instructions}}}\n</markdown>",
        '<pl-file-editor file-name="answer.json" ace-mode="ace/mode/json">\n'
        "{{params.answer_template}}\n</pl-file-editor>",
    ]
    assert all(part in panel for part in shown)
    assert [panel.index(part) for part in shown] == sorted(panel.index(part) for part in shown)
    results = page[page.index("<pl-submission-panel>") :]
    assert "<pl-external-grader-results>" in results and "<pl-file-preview>" in results
    params = generate(question, 3)["params"]
    statement = params["statement"]
    assert statement.startswith("Run **alpha-beta** search on the tree")
    assert params["instructions"] == (
        "Fill in `answer.json` below: replace each `null` with your answer, and list your "
        "answer in each `[]` (leave it empty if there is none).\n"
    )
    # neither the variant's name nor the seed: with the seed, Arbiter would draw the key
    assert "variant-3" not in statement and "seed" not in statement
    assert "```" not in statement  # the template is in the editor, not in the statement


def empty(template: Any) -> bool:
    """Whether an answer template holds nothing but placeholders (null, [])."""
    if isinstance(template, dict):
        return all(empty(value) for value in template.values())
    return template is None or template == []


def test_the_answer_template_asks_every_field_and_gives_no_value(question: Path) -> None:
    for index in range(VARIANTS):
        params = generate(question, index)["params"]
        template = json.loads(params["answer_template"])
        key = key_of(question, params["variant"])
        assert list(template) == list(key) and empty(template)
        # every node of the key is a line to fill in
        assert set(template["nodes"]) == set(key["nodes"])


def test_no_key_reaches_the_students_browser(tmp_path: Path) -> None:
    # mixed equilibria: fractions such as 2/5 that neither payoffs nor layout write
    settings = {"type": "matrix", "matrix": "mixed"}
    question = write_question(tmp_path / "m", "--seed", "11", "--variants", "4", settings=settings)
    shown = (question / "question.html").read_text()
    for index in range(4):
        params = generate(question, index)["params"]
        key = key_of(question, params["variant"])
        fractions = {
            p for equilibrium in key["equilibria"] for side in equilibrium.values() for p in side
        } - {"0", "1"}
        assert fractions, key  # the test has something to look for
        # all the page shows, but the statement's example of how to write a fraction
        text = "".join(params.values()).replace('`"2/3"`', "") + shown
        assert not [fraction for fraction in fractions if fraction in text]
        assert "seed" not in params["statement"]


def test_a_right_answer_scores_1(question: Path, tmp_path: Path) -> None:
    params = generate(question, 7)["params"]
    right = json.dumps(key_of(question, params["variant"]))
    results = grade(question, tmp_path / "grade", params, right)
    assert (results["gradable"], results["score"]) == (True, 1.0)
    assert [test["name"] for test in results["tests"]] == [
        "value", "best_move", "nodes", "principal_variation", "pruned_leaves",
    ]  # fmt: skip
    assert all(test["points"] == test["max_points"] for test in results["tests"])


def test_a_partly_wrong_answer_scores_its_fraction(question: Path, tmp_path: Path) -> None:
    params = generate(question, 8)["params"]
    answer = key_of(question, params["variant"])
    answer["value"] += 1
    results = grade(question, tmp_path / "grade", params, json.dumps(answer))
    tests = {test["name"]: test for test in results["tests"]}
    total = sum(test["max_points"] for test in tests.values())
    assert tests["value"]["points"] == 0 and tests["value"]["message"] == "wrong"
    assert results["gradable"] is True
    assert results["score"] == pytest.approx((total - tests["value"]["max_points"]) / total)
    # fields: no value of the key in what the student reads
    assert str(answer["value"] - 1) not in json.dumps(results["tests"])


def test_a_resubmission_is_graded_against_the_same_variant(question: Path, tmp_path: Path) -> None:
    params = generate(question, 9)["params"]
    right = json.dumps(key_of(question, params["variant"]))
    other = generate(question, 10)["params"]
    assert grade(question, tmp_path / "first", params, right)["score"] == 1.0
    assert grade(question, tmp_path / "again", params, right)["score"] == 1.0
    # another variant's answer is not this one's
    assert grade(question, tmp_path / "other", other, right)["score"] < 1.0


@pytest.mark.parametrize(
    ("answer", "params", "reason"),
    [
        ("{value: 3", None, "not valid JSON"),
        (None, None, "answer.json: No such file or directory"),
        ("[]", None, "your answer could not be read"),
        ("{}", {}, "no variant in data.json"),
        ("{}", {"variant": "variant-99"}, "could not be matched to a student"),
    ],
)
def test_what_cannot_be_graded_is_not_gradable(
    question: Path, tmp_path: Path, answer: str | None, params: dict[str, Any] | None, reason: str
) -> None:
    given = generate(question, 1)["params"] if params is None else params
    results = grade(question, tmp_path / "grade", given, answer)
    assert results["gradable"] is False and results["score"] == 0
    assert reason in results["message"], results["message"]


def test_the_feedback_level_reaches_the_grader(tmp_path: Path) -> None:
    question = write_question(
        tmp_path / "scored", "--seed", "4", "--variants", "2", "--feedback", "score"
    )
    params = generate(question, 0)["params"]
    answer = key_of(question, params["variant"])
    answer["value"] += 1
    results = grade(question, tmp_path / "grade", params, json.dumps(answer))
    assert results["gradable"] is True and 0 < results["score"] < 1
    assert results["tests"] == []  # score: the total only


def test_the_grader_image_holds_the_pins_and_the_core(question: Path) -> None:
    grader = question / "grader"
    dockerfile = (grader / "Dockerfile").read_text()
    assert f"FROM python:{sys.version_info.major}.{sys.version_info.minor}-slim" in dockerfile
    assert "-r /arbiter/requirements.txt" in dockerfile and "PYTHONPATH=/arbiter" in dockerfile
    pins = (grader / "requirements.txt").read_text().splitlines()
    assert any(pin.startswith("numpy==") for pin in pins) and all("==" in p for p in pins)
    assert (grader / "analysis" / "cli" / "grade.py").is_file()
    assert (grader / "games" / "numbers.py").is_file() and not (grader / "api").exists()


def test_writing_again_replaces_the_variants(tmp_path: Path) -> None:
    folder = write_question(tmp_path / "q", "--seed", "4", "--variants", "5")
    write_question(folder, "--seed", "4", "--variants", "2")
    assert sorted(p.name for p in (folder / "variants").iterdir()) == [
        "variant-0.json",
        "variant-1.json",
    ]
    assert "VARIANTS = 2\n" in (folder / "server.py").read_text()


@pytest.mark.parametrize(
    ("settings", "options", "error"),
    [
        (SETTINGS, ["--variants", "0"], f"arbiter: --variants: must be 1 to {MAX_VARIANTS}"),
        (SETTINGS, ["--timeout", "601"], "arbiter: --timeout: must be 1 to 600 seconds"),
        (SETTINGS, ["--uuid", "x"], "arbiter: --uuid: not a uuid: 'x'"),
        (
            {**SETTINGS, "student": "ada"},
            [],
            "arbiter: settings.json#/student: a PrairieLearn question is for every",
        ),
        (
            {"type": "alphabeta", "depth": 1, "branching": 2, "min_pruned_leaves": 3},
            [],
            "arbiter: settings.json#/min_pruned_leaves",
        ),
    ],
)
def test_errors_name_the_option_or_the_setting(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    settings: dict[str, Any],
    options: list[str],
    error: str,
) -> None:
    source = tmp_path / "settings.json"
    source.write_text(json.dumps(settings))
    status = main(["prairielearn", str(source), "--output", str(tmp_path / "q"), *options])
    assert status == 2
    assert capsys.readouterr().err.replace(str(tmp_path) + "/", "").startswith(error)


def test_a_statement_in_another_form_is_refused() -> None:
    """The page is cut from the statement handout() writes; another form is a bug, not a
    page without its template."""
    template = read_assignment({**SETTINGS, "seed": 4})
    made = student_problem(template, variant_name(0), figure=False)
    assert handout(made).name == "variant-0"
    cut = made.statement.replace("Hand in your answer", "Write your answer")
    with pytest.raises(ValueError, match="not in the form"):
        handout(dataclasses.replace(made, statement=cut))


@pytest.mark.parametrize("kind", PROBLEM_TYPES)
def test_every_problem_type_makes_a_page(kind: str) -> None:
    made = student_problem(read_assignment({"type": kind, "seed": 3}), "variant-1", figure=False)
    page = handout(made)
    assert page.title and "Variant for student" not in page.statement
    assert list(json.loads(page.answer_template)) == list(made.answer)
    assert empty(json.loads(page.answer_template))


def test_the_rubric_reaches_the_grader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rubric = tmp_path / "rubric.json"
    rubric.write_text(json.dumps({"points": {"value": 5}}))
    question = write_question(
        tmp_path / "weighted", "--seed", "4", "--variants", "1", "--rubric", str(rubric)
    )
    params = generate(question, 0)["params"]
    right = json.dumps(key_of(question, params["variant"]))
    tests = grade(question, tmp_path / "grade", params, right)["tests"]
    assert {test["name"]: test["max_points"] for test in tests}["value"] == 5
    rubric.write_text(json.dumps({"points": {"value": -1}}))
    source = tmp_path / "settings.json"
    source.write_text(json.dumps(SETTINGS))
    args = ["prairielearn", str(source), "--output", str(tmp_path / "q"), "--rubric", str(rubric)]
    assert main(args) == 2
    assert f"{rubric}#/points/value" in capsys.readouterr().err
