"""Endpoints that grade students' answers and generate fresh problems."""

from __future__ import annotations

from flask import Blueprint, Response, request

from analysis.grading.assignments import (
    grade_assignment,
    grade_class,
    read_assignment,
    variant_grader,
)
from analysis.grading.class_report import grades_csv, summarize
from analysis.grading.generator_settings import read_settings
from analysis.grading.json_output import grade_json, grades_json
from analysis.grading.problem_generator import generate_problem
from analysis.grading.registry import grade_batch, grade_one, make_grader
from analysis.grading.roster import Unmatched, read_roster
from analysis.grading.rubric import parse_rubric
from api.body import load
from api.openapi.view_docs import operation
from api.responses import json_response
from api.schemas.grading import (
    AssignmentGradeRequestSchema,
    AssignmentGradeResultSchema,
    GenerateRequestSchema,
    GenerateResultSchema,
    GradeBatchRequestSchema,
    GradeBatchResultSchema,
    GradeRequestSchema,
    GradeResultSchema,
    dump_batch,
)
from games.errors import InvalidInputError
from games.limits import active_limits

bp = Blueprint("grading", __name__, url_prefix="/v1")

AIMA = {"type": "alphabeta", "tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}


@bp.post("/grade")
@operation(
    summary="Grade one answer, with partial credit and a diagnosis of mistakes",
    description="Scores each field of the answer against the problem's key (partial credit "
    "per node and F1 for pruned sets, as in docs/grading.md) and, when it is wrong, names the "
    "mistaken convention it follows and the first step where it leaves the correct trace.",
    tag="grading",
    request=GradeRequestSchema,
    response=GradeResultSchema,
    example={
        "problem": AIMA,
        "answer": {"value": 3, "best_move": "root.0", "pruned_leaves": ["root.1.2"]},
        "rubric": {"points": {"value": 1, "best_move": 1, "pruned_leaves": 2}},
    },
)
def grade_view() -> Response:
    options = load(GradeRequestSchema)
    grader = make_grader(options["problem"], active_limits())
    rubric = parse_rubric(options["rubric"])
    grade = grade_one(grader, options["answer"], rubric, options["diagnose"])
    if grade.error is not None:
        raise InvalidInputError(grade.error.message, grade.error.pointer)
    return json_response(grade_json(grade, options["feedback"]))


@bp.post("/grade/batch")
@operation(
    summary="Grade many students' answers to one problem",
    description="The answer key once (key: each graded field's expected entry), every "
    "student's grade without the key (per field: score, what is missing, extra or wrong, "
    "at most 50 of each with their counts, feedback; diagnosis) and a summary: mean, median, "
    "distribution by tenths of the maximum and the most common diagnosis codes. Send "
    "Accept: text/csv for one CSV row per student. A malformed answer does not fail the "
    "batch: that student scores 0 with error {pointer, message} (pointing at "
    "/answers/<student>/...) and is counted in summary.errors; a malformed problem or rubric "
    "is a 422. At most ARBITER_MAX_BATCH_ANSWERS answers (413 past it); all of them share "
    "the request's time limit (413).",
    tag="grading",
    request=GradeBatchRequestSchema,
    extra_responses={
        "200": {
            "description": "Grades and summary (JSON), or CSV on request",
            "content": {
                "application/json": {"schema": GradeBatchResultSchema},
                "text/csv": {"schema": {"type": "string"}},
            },
        }
    },
    example={"problem": AIMA, "answers": {"ada": {"value": 3}, "bob": {"value": 2}}},
)
def grade_batch_view() -> Response:
    options = load(GradeBatchRequestSchema)
    grader = make_grader(options["problem"], active_limits())
    rubric = parse_rubric(options["rubric"])
    graded = grade_batch(grader, options["answers"], rubric, diagnose=options["diagnose"])
    best = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    if best == "text/csv":
        asked = list(grader.rubric_for(rubric).required)
        return Response(grades_csv(graded.results, asked), mimetype="text/csv")
    return json_response(dump_batch(graded.key, graded.results, summarize(graded.results)))


@bp.post("/problems/generate")
@operation(
    summary="Generate a fresh problem: statement, figure and answer key",
    description="Draws a minimax, alpha-beta, expectimax, max^n, matrix, lottery, "
    "preference, EU-consistency or extensive (a zero-sum game with information sets: its "
    "value and a behaviour strategy) problem from the seed until it meets the constraints "
    "(pruned leaves, unique optimal move, no ties, small-denominator probabilities, the "
    "kind of game or of preferences); the same body always returns the same problem, and "
    "a student id picks that student's variant of the seed. Without a seed a fresh one is "
    "drawn and returned. The answer posted with the problem to /v1/grade scores full marks. "
    "422 if the constraints can never be met (the pointer names the field ruling them out) "
    "or no draw within max_attempts qualifies; 413 if the request's time limit passes first.",
    tag="grading",
    request=GenerateRequestSchema,
    response=GenerateResultSchema,
    example={"type": "alphabeta", "depth": 3, "seed": 7, "min_pruned_leaves": 3},
)
def generate_view() -> Response:
    options = load(GenerateRequestSchema)
    generated = generate_problem(read_settings(options))
    return json_response(GenerateResultSchema().dump(generated))


@bp.post("/assignments/grade")
@operation(
    summary="Grade a class, each student against that student's variant",
    description="The assignment is a generator template with its seed; each student's "
    "variant is the problem /v1/problems/generate gives for that seed and the student's id, "
    "so the handout and the grading agree, and regrading gives the same grades. Each grade "
    "is as /v1/grade gives it, with a summary. A malformed answer scores 0 with its error "
    "(pointing at /answers/<student>/...); a bad template is a 422 pointing into "
    "/assignment.",
    tag="grading",
    request=AssignmentGradeRequestSchema,
    response=AssignmentGradeResultSchema,
    example={
        "assignment": {"type": "lottery", "seed": 5},
        "answers": {"ada": {"emv": 325, "attitude": "risk_averse"}},
    },
)
def grade_assignment_view() -> Response:
    options = load(AssignmentGradeRequestSchema)
    template = read_assignment(options["assignment"])
    rubric = parse_rubric(options["rubric"])
    answers, diagnose = options["answers"], options["diagnose"]
    if options["roster"] is None:
        # the caller names each student: every key is a student id as given
        grades = grade_assignment(template, answers, rubric, diagnose)
        unmatched: list[Unmatched] = []
        matched: dict[str, tuple[str, str]] = {}
    else:
        roster = read_roster(options["roster"])
        graded = grade_class(variant_grader(template), roster, answers, rubric, diagnose)
        grades, unmatched, matched = graded.grades, graded.unmatched, graded.matched
    summary = summarize(grades, len(unmatched))
    feedback = options["feedback"]
    return json_response(grades_json(grades, summary, feedback, unmatched, matched))
