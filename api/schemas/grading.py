"""Envelopes of the grading and problem-generator endpoints.

Problems, answers and rubrics are raw fields checked by ``analysis.grading`` in one pass,
so that every error carries a pointer into ``/answer/...`` (a node id the tree lacks, a
value that is not a number). Every response is dumped through its result schema here, so
that a field added to a result dataclass never reaches the API unannounced.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app
from marshmallow import Schema, fields, post_dump, validate

from analysis.grading.feedback import FEEDBACK_LEVELS, hint, status
from analysis.grading.generator_settings import (
    LOTTERY_UTILITIES,
    MATRIX_KINDS,
    MAX_ATTEMPTS,
    MAX_LEAF_VALUE,
    MAX_SEED,
    MAX_STUDENT_ID,
    PROBLEM_TYPES,
)
from api.schemas.fields import IntegersOrInteger, StrictBoolean, StrictInteger
from games.errors import LimitExceededError

PROBLEM_DOC = (
    'A solve request tagged with its type: {"type": "minimax" | "alphabeta" | "expectimax" '
    '| "maxn", "tree": ..., "root": "max", "depth": null, "prune_on_equality": true, '
    '"tie_break": "leftmost", "max_sum": null}; or {"type": "matrix", "A": ..., "B": ...}; '
    'or {"type": "lottery", "lottery": ..., "utility": ...}; or {"type": "preferences", '
    '"prizes": ..., "lotteries": ..., "preferences": ...}; or {"type": "eu-consistency", '
    '"lotteries": ..., "choices": ..., "increasing": false}; or {"type": "extensive", "efg": '
    '"<.efg text>" | "game": {JSON form}, "player": "<name>"} (the body of '
    "/v1/extensive/solve; player: whose strategy is asked, default the first). Any of them "
    "may carry "
    '"questions": the answer fields graded (a list, or {field: points}); without it the '
    "type's default (docs/grading.md). A field asked and not answered scores 0."
)
ANSWER_DOC = (
    "What the student wrote, with the solve response's field names: value, best_move, "
    "nodes ({id: value} or {id: {value}}), principal_variation, pruned, pruned_leaves, "
    "evaluated_leaves; or a plain {id: value} map; pure_equilibria, equilibria ([{row: [p, ...], "
    "col: [q, ...]}]) (matrix problems); emv, "
    "expected_utility, certainty_equivalent, risk_premium, attitude (lottery problems); "
    "axioms ({name: true/false or {holds}}), utility ({prize: number} or null) (preference "
    "problems); consistent (bool), witness ({prize: utility} or null) (eu-consistency "
    "problems); value, strategy ({information set: {action: p}}, graded by its exact worst "
    "case: right when it guarantees the value), profile ({player: strategy}, right when its "
    "exact NashConv is 0) (extensive problems). "
    'Numbers may be exact strings ("1/2").'
)
RUBRIC_DOC = (
    "points (per field), required (fields asked besides the problem's questions), "
    "partial_credit (default "
    'true), tolerance ("exact" or {"mode": "absolute" | "relative", "amount": x}), '
    'sets ("set" or "ordered").'
)


LEVEL_FULL = "At feedback full only."
FEEDBACK_DOC = (
    "What the grade shows (docs/grading.md#feedback-levels): score (the total only), "
    "fields (and each field's points and status), hints (and hints drawn from the "
    "student's own answer, no value of the key), full (and the key's entries beside the "
    "student's; the default)."
)


def feedback_field() -> fields.String:
    return fields.String(
        load_default="full",
        validate=validate.OneOf(FEEDBACK_LEVELS),
        metadata={"description": FEEDBACK_DOC},
    )


class GradeRequestSchema(Schema):
    problem = fields.Raw(required=True, metadata={"description": PROBLEM_DOC})
    answer = fields.Raw(required=True, metadata={"description": ANSWER_DOC})
    rubric = fields.Raw(load_default=None, allow_none=True, metadata={"description": RUBRIC_DOC})
    diagnose = StrictBoolean(
        load_default=True,
        metadata={"description": "Look for the usual mistakes when the answer is wrong."},
    )
    feedback = feedback_field()


class BatchAnswers(fields.Dict):
    """Answers keyed by student id, refused with a 413 past ``ARBITER_MAX_BATCH_ANSWERS``
    before any is read."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        limit = current_app.config["ARBITER_MAX_BATCH_ANSWERS"]
        if isinstance(value, dict) and len(value) > limit:
            raise LimitExceededError(
                f"the batch has {len(value)} answers; at most {limit} are graded in one "
                "request (the server's ARBITER_MAX_BATCH_ANSWERS)",
                "/answers",
            )
        return super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]


class GradeBatchRequestSchema(Schema):
    problem = fields.Raw(required=True, metadata={"description": PROBLEM_DOC})
    answers = BatchAnswers(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={
            "description": "Answers keyed by student id; each as in /v1/grade. At most "
            "ARBITER_MAX_BATCH_ANSWERS (default 10,000); more is a 413 pointing at /answers."
        },
    )
    rubric = fields.Raw(load_default=None, allow_none=True, metadata={"description": RUBRIC_DOC})
    diagnose = StrictBoolean(load_default=True)


class FieldScoreSchema(Schema):
    """What a single grade and a batch say of each graded field."""

    field = fields.String(required=True, metadata={"description": "Answer field graded."})
    score = fields.Float(required=True)
    max_score = fields.Float(required=True)
    correct = fields.Boolean(metadata={"description": LEVEL_FULL})
    missing = fields.List(
        fields.String(),
        metadata={
            "description": "Entries of the key the answer lacks (in a batch the first 50; "
            "missing_count gives how many)."
        },
    )
    extra = fields.List(
        fields.String(),
        metadata={"description": "Entries the key does not have (in a batch the first 50)."},
    )
    wrong = fields.List(
        fields.String(),
        metadata={
            "description": "Nodes with a wrong value; for preference and EU-consistency "
            "answers, the axioms answered wrongly or the indices of the statements/choices "
            "the given utility does not reproduce (in a batch the first 50)."
        },
    )
    feedback = fields.String(metadata={"description": LEVEL_FULL})
    status = fields.Function(
        status,
        required=True,
        metadata={
            "description": "right, partly right (some of its points), wrong, not answered, "
            "or unreadable (error says why; the field scores 0, the others are graded)."
        },
    )
    error = fields.Nested(
        "AnswerErrorSchema",
        metadata={"description": "Present when the field could not be read: why, and where."},
    )

    @post_dump
    def _error_only_when_set(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if data.get("error") is None:
            data.pop("error", None)
        return data


class GradedItemSchema(FieldScoreSchema):
    expected = fields.Raw(
        metadata={
            "description": "The answer key's entry; its numbers are JSON numbers (exact "
            "values beside them in expected_exact when needed). " + LEVEL_FULL
        },
    )
    expected_exact = fields.Raw(
        metadata={
            "description": "Present only when some number in expected is not exact (a "
            "fraction, an integer beyond 64 bits): expected again, with every number as its "
            'exact string ("2/3", "18446744073709551616").'
        }
    )
    given = fields.Raw(
        metadata={
            "description": "What the student wrote (integers beyond 64 bits as their exact "
            "strings). " + LEVEL_FULL
        },
    )
    hint = fields.Function(
        hint,
        metadata={
            "description": "The field's feedback drawn from the student's own answer (no "
            "value of the key): at feedback hints and full."
        },
    )

    @post_dump
    def _exact_only_when_needed(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if data.get("expected_exact") is None:
            data.pop("expected_exact", None)
        return data


class DiagnosisSchema(Schema):
    code = fields.String(
        required=True,
        metadata={
            "description": "Stable code: strict_pruning, prune_on_equality, "
            "alpha_not_passed_at_root, right_to_left, wrong_root_player, depth_off_by_one, "
            "depth_in_rounds, uniform_chance, wrong_tie_break, evaluated_pruned_leaf, "
            "first_departure, no_usual_mistake, one_sided_best_response, own_indifference, "
            "emv_as_certainty_equivalent, "
            "utility_not_inverted, risk_premium_sign, missed_eu_violation, "
            "spurious_eu_violation, exploitable_strategy, profitable_deviation, "
            "not_a_distribution, missing_infoset, value_of_other_player, "
            "value_of_uniform_play."
        },
    )
    message = fields.String(metadata={"description": "With the key's values. " + LEVEL_FULL})
    hint = fields.String(
        metadata={
            "description": "The mistake named without the key's values: at feedback hints and full."
        }
    )
    node = fields.String(allow_none=True, metadata={"description": LEVEL_FULL})


class AnswerErrorSchema(Schema):
    pointer = fields.String(
        required=True, metadata={"description": "JSON pointer into the request body."}
    )
    message = fields.String(required=True)


class ScoredSchema(Schema):
    """What a single grade and a student's grade in a batch share."""

    score = fields.Float(required=True)
    max_score = fields.Float(required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": "graded; unreadable (the answer is not an object: error says "
            "why, the score is 0); missing (a roster student without an answer, scored 0)."
        },
    )
    diagnosis = fields.List(
        fields.Nested(DiagnosisSchema),
        metadata={"description": "The mistakes recognised: at feedback hints and full."},
    )
    error = fields.Nested(
        AnswerErrorSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "Why the answer could not be read at all (it is not a JSON "
            "object; the score is then 0); null otherwise."
        },
    )
    errors = fields.List(
        fields.Nested(AnswerErrorSchema),
        metadata={
            "description": "The fields that could not be read, each scored 0 (on its item) "
            "while the others are graded, and names that are no field of such answers: at "
            "feedback fields and above."
        },
    )
    ignored = fields.List(
        fields.String(),
        metadata={
            "description": "Answer fields given that the problem does not ask (its questions, "
            "or its type's default): not read, not graded. At feedback fields and above."
        },
    )


class GradeResultSchema(ScoredSchema):
    items = fields.List(
        fields.Nested(GradedItemSchema),
        metadata={"description": "Each field graded: at feedback fields and above."},
    )


class BatchItemSchema(FieldScoreSchema):
    missing_count = fields.Integer(required=True)
    extra_count = fields.Integer(required=True)
    wrong_count = fields.Integer(required=True)


class BatchGradeSchema(ScoredSchema):
    items = fields.List(fields.Nested(BatchItemSchema), required=True)


class CodeCountSchema(Schema):
    code = fields.String(required=True)
    count = fields.Integer(required=True)


class GradeSummarySchema(Schema):
    count = fields.Integer(
        required=True, metadata={"description": "Rows: every roster student, with a roster."}
    )
    graded = fields.Integer(required=True, metadata={"description": "Answers graded."})
    errors = fields.Integer(
        required=True,
        metadata={
            "description": "Answers that are not objects (scored 0 in mean and distribution)."
        },
    )
    missing = fields.Integer(
        required=True,
        metadata={"description": "Roster students without an answer (scored 0)."},
    )
    unmatched = fields.Integer(
        required=True,
        metadata={"description": "Answers that belong to no roster student (not graded)."},
    )
    max_score = fields.Float(required=True)
    mean = fields.Float(allow_none=True, required=True)
    median = fields.Float(allow_none=True, required=True)
    full_marks = fields.Integer(required=True)
    distribution = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Students per tenth of the maximum: 0-10%, ..., 90-100%."},
    )
    common_mistakes = fields.List(
        fields.Nested(CodeCountSchema),
        required=True,
        metadata={
            "description": "Diagnosis codes, most frequent first (first_departure, which says "
            "where an answer goes wrong rather than how, is not counted)."
        },
    )


class GradeBatchResultSchema(Schema):
    key = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={
            "description": "The answer key once for the whole batch: each graded field's "
            "expected entry (the items' expected in /v1/grade) and, beside a field whose "
            "entry has an inexact number, <field>_exact (the items' expected_exact)."
        },
    )
    results = fields.Dict(
        keys=fields.String(), values=fields.Nested(BatchGradeSchema), required=True
    )
    summary = fields.Nested(GradeSummarySchema, required=True)


def dump_batch(key: dict[str, Any], results: Mapping[str, Any], summary: Any) -> dict[str, Any]:
    """:class:`GradeBatchResultSchema`'s dump, fast: each student's grade is written field by
    field with the names the schemas declare (marshmallow's own dump of 5,000 students
    would take seconds), so that nothing the schemas do not name is sent."""
    nested = ("items", "diagnosis", "error", "errors")
    grade_names = [n for n in BatchGradeSchema().fields if n not in nested]
    item_names = [n for n in BatchItemSchema().fields if n not in ("status", "error")]
    diagnosis_names = list(DiagnosisSchema().fields)
    error_names = list(AnswerErrorSchema().fields)

    def error_of(error: Any) -> dict[str, Any]:
        return {n: getattr(error, n) for n in error_names}

    written = {}
    for student, grade in results.items():
        entry = {name: getattr(grade, name) for name in grade_names}
        items = []
        for item in grade.items:
            shown = {n: getattr(item, n) for n in item_names}
            shown["status"] = status(item)
            if item.error is not None:
                shown["error"] = error_of(item.error)
            items.append(shown)
        entry["items"] = items
        entry["diagnosis"] = [{n: getattr(d, n) for n in diagnosis_names} for d in grade.diagnosis]
        error = grade.error
        entry["error"] = None if error is None else error_of(error)
        entry["errors"] = [error_of(e) for e in grade.errors]
        written[student] = entry
    body: dict[str, Any] = GradeBatchResultSchema(exclude=("results",)).dump(
        {"key": key, "summary": summary}
    )
    return {"key": body["key"], "results": written, "summary": body["summary"]}


class GenerateRequestSchema(Schema):
    type = fields.String(load_default="alphabeta", validate=validate.OneOf(PROBLEM_TYPES))
    depth = StrictInteger(
        load_default=3,
        validate=validate.Range(min=1, max=8),
        metadata={
            "description": "Plies of a tree; moves after the deal of an extensive problem (2 or 3)."
        },
    )
    branching = IntegersOrInteger(
        1,
        10,
        (2, 2),
        repeat=2,
        load_default=lambda: [2, 3],
        metadata={
            "description": "[min, max] children per internal node, or one number for both "
            "(trees); cards dealt and actions per move, 2 or 3 (extensive problems)."
        },
    )
    values = IntegersOrInteger(
        -MAX_LEAF_VALUE,
        MAX_LEAF_VALUE,
        (2, 2),
        repeat=2,
        load_default=lambda: [0, 20],
        metadata={
            "description": "[min, max] leaf values or payoffs (integers, at most 1e15 in "
            "magnitude), or one number for both."
        },
    )
    root = fields.String(load_default="max", validate=validate.OneOf(["max", "min"]))
    prune_on_equality = StrictBoolean(
        load_default=True, metadata={"description": "The pruning convention (alpha-beta)."}
    )
    seed = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={
            "description": "Same request and seed, same problem; absent or null: a fresh "
            "seed is drawn and returned in seed."
        },
    )
    student = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=MAX_STUDENT_ID),
        metadata={
            "description": "A student id: seed and student together pick that student's "
            "variant (SHA-256 of both), the same on every machine."
        },
    )
    min_pruned_leaves = StrictInteger(load_default=0, validate=validate.Range(min=0))
    unique_best_move = StrictBoolean(load_default=False)
    no_ties = StrictBoolean(
        load_default=False,
        metadata={"description": "No two children of a MAX/MIN node share a value."},
    )
    denominators = IntegersOrInteger(
        1,
        100,
        (1, None),
        load_default=lambda: [2, 3, 4],
        metadata={"description": "Allowed denominators of probabilities (or one number)."},
    )
    max_attempts = StrictInteger(
        load_default=200,
        validate=validate.Range(min=1, max=MAX_ATTEMPTS),
        metadata={
            "description": "Most problems drawn; all the draws share the request's time limit "
            "(a 413 when it passes first)."
        },
    )
    players = StrictInteger(
        load_default=3,
        validate=validate.Range(min=2, max=6),
        metadata={"description": "Players of a max^n tree."},
    )
    matrix = fields.String(
        load_default="pure",
        validate=validate.OneOf(MATRIX_KINDS),
        metadata={
            "description": "Matrix problems: a game with pure equilibria, one whose only "
            "equilibrium is fully mixed (2x2), or one solved by iterated strict dominance "
            "(3x3)."
        },
    )
    utility = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(LOTTERY_UTILITIES),
        metadata={
            "description": "Lottery problems: sqrt(x) (risk averse) or x^2 (risk seeking); "
            "null draws one."
        },
    )
    consistent = StrictBoolean(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Preference and EU-consistency problems: whether an expected "
            "utility explains the statements; null draws either."
        },
    )


class GenerateResultSchema(Schema):
    problem = fields.Raw(required=True, metadata={"description": "Post it to /v1/grade as is."})
    answer = fields.Raw(
        required=True,
        metadata={
            "description": "The key, written as a student's answer (numbers as integers or "
            "exact strings): posted to /v1/grade with problem it scores full marks."
        },
    )
    statement = fields.String(
        required=True, metadata={"description": "What the problem asks, in Markdown."}
    )
    figure = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The figure as an SVG document (the tree, the lottery's risk "
            "profile), or null where none fits (matrix, preference and EU-consistency "
            "problems: the statement holds the table or the list)."
        },
    )
    seed = fields.Integer(
        required=True, metadata={"description": "The seed drawn from (given, or drawn afresh)."}
    )
    student = fields.String(
        required=True, allow_none=True, metadata={"description": "Whose variant this is."}
    )
    attempts = fields.Integer(required=True, metadata={"description": "Problems drawn."})


class AssignmentGradeRequestSchema(Schema):
    assignment = fields.Raw(
        required=True,
        metadata={
            "description": "The template every student's variant is drawn from: the body of "
            "/v1/problems/generate with its seed (required) and no student."
        },
    )
    answers = BatchAnswers(
        keys=fields.String(validate=validate.Length(min=1, max=MAX_STUDENT_ID)),
        values=fields.Raw(),
        required=True,
        metadata={
            "description": "Answers keyed by student id; each is graded against that "
            "student's variant (as /v1/problems/generate gives it for seed and student)."
        },
    )
    rubric = fields.Raw(load_default=None, allow_none=True, metadata={"description": RUBRIC_DOC})
    diagnose = StrictBoolean(load_default=True)
    roster = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The class: a list of student ids, or of {id, email, name, lms_id} "
            "(id required). Each answer's key is then matched to a student (exact id, then "
            "case, e-mail, Canvas and Moodle file names: docs/grading.md#roster); an answer "
            "no student owns is listed in unmatched and graded against nothing, and a "
            "student without an answer gets a grade with status missing, scored 0. Without "
            "a roster each key is taken as a student id exactly as given."
        },
    )
    feedback = feedback_field()


class MatchedSchema(Schema):
    answer = fields.String(required=True, metadata={"description": "The answer's key."})
    rule = fields.String(required=True)


class UnmatchedSchema(Schema):
    answer = fields.String(required=True, metadata={"description": "The answer's key."})
    reason = fields.String(required=True)


class AssignmentGradeResultSchema(Schema):
    results = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(GradeResultSchema),
        required=True,
        metadata={
            "description": "Each student's grade as /v1/grade gives it, against the "
            "student's own variant (expected: that variant's key); a malformed answer "
            "scores 0 out of the variant's maximum, with its error."
        },
    )
    matched = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(MatchedSchema),
        required=True,
        metadata={
            "description": "With a roster: each student's answer (its key) and the rule that "
            "matched it (exact, case, email, canvas, canvas name, moodle); empty without."
        },
    )
    unmatched = fields.List(
        fields.Nested(UnmatchedSchema),
        required=True,
        metadata={"description": "Answers that belong to no roster student: not graded."},
    )
    summary = fields.Nested(GradeSummarySchema, required=True)
