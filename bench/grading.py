"""Benchmark: grading a course, through the command line and through the batch endpoints.

0. Start-up: a fresh ``arbiter grade assignment.json ANSWER.json`` of one student's
   alpha-beta answer, the median wall time of several runs against the floor of any
   Python command line, ``python -c pass``, run in turn with it (target: under 1.5 s).
   Grading a tree imports neither SymPy, SciPy nor matplotlib, which only the other
   families need (``tests/analysis/cli/test_startup.py`` checks it).
1. The command line with variants, as an instructor runs it: a roster of N student ids,
   ``arbiter problem generate --roster`` writes one alpha-beta variant per student, the
   benchmark writes each student's answer (right, partly right, or malformed: text that
   is not JSON, or a field of the wrong type), then ``arbiter grade assignment.json
   ANSWERS`` grades the class against each student's variant (JSON with the summary, and
   the CSV gradebook). Each command runs in its own process: wall time and that child's
   peak resident set (its own ``VmHWM``, written as it exits: ``os.wait4``'s
   ``ru_maxrss`` would report this benchmark's resident set when that is larger, since
   Linux carries it into a forked child).
2. The endpoints through Flask's test client, in answers per second: ``POST /v1/grade``
   one request per answer, ``POST /v1/grade/batch`` with every answer to one ~230-node
   alpha-beta problem (the key, the key under strict pruning, and random corruptions, so
   that most go through the diagnosis), and ``POST /v1/assignments/grade`` with the
   class's answers of step 1, each against its own variant.

The counts of full marks and of malformed answers are checked against what was written,
so a benchmark that graded wrongly would stop rather than report.

Run: .venv/bin/python bench/grading.py [--students N] [--answers N] [--seed S] [--repeats R]
[--startup-runs N] [--startup-only]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.grading.problem_generator import ProblemSettings, generate_problem  # noqa: E402
from analysis.trees.alpha_beta import alpha_beta  # noqa: E402
from analysis.trees.json_output import alpha_beta_json  # noqa: E402
from api import create_app  # noqa: E402
from bench.trees import best_of  # noqa: E402
from games.trees.parser import parse_tree  # noqa: E402

VARIANTS = {"type": "alphabeta", "depth": 4, "branching": [2, 3], "min_pruned_leaves": 3}
"""The assignment's template: a tree of 4 plies, 2 or 3 moves a node, 3 leaves pruned."""


@dataclass(frozen=True)
class Run:
    """One command's wall time and its process's peak resident set."""

    seconds: float
    peak_mib: float
    stdout: bytes


PEAK_WRAPPER = """
import atexit, os, runpy, sys

def _peak():
    with open("/proc/self/status") as status, open(os.environ["BENCH_PEAK_FILE"], "w") as out:
        out.write(next(line.split()[1] for line in status if line.startswith("VmHWM:")))

atexit.register(_peak)
sys.argv[0] = "arbiter"
runpy.run_module("analysis.cli", run_name="__main__", alter_sys=True)
"""
"""Runs ``python -m analysis.cli`` and writes the process's peak resident set (KiB) as it
exits (``sys.exit`` included) to the file ``BENCH_PEAK_FILE`` names."""


def run_cli(*argv: str) -> Run:
    """``python -m analysis.cli ARGV`` in a child process, timed, with its peak RSS."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile(suffix=".peak") as peak,
    ):
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", PEAK_WRAPPER, *argv],
            cwd=ROOT,
            stdout=out,
            stderr=err,
            env={**os.environ, "BENCH_PEAK_FILE": peak.name},
        )
        child.wait()
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            message = err.read().decode()[:500]
            raise SystemExit(f"arbiter {' '.join(argv)} failed: {message}")
        return Run(seconds, int(Path(peak.name).read_text()) / 1024, out.read())


def arbiter_command() -> list[str]:
    """The ``arbiter`` script installed beside this Python, else ``python -m analysis.cli``."""
    script = Path(sys.executable).with_name("arbiter")
    return [str(script)] if script.exists() else [sys.executable, "-m", "analysis.cli"]


def median_wall(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The median wall seconds of each command, each run a fresh process, the commands run
    in turn so that they share whatever else the machine is doing."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(seconds) for name, seconds in times.items()}


def startup_benchmark(runs: int, seed: int) -> None:
    """Step 0: a fresh ``arbiter grade`` of one alpha-beta answer against its assignment."""
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as temporary:
        folder = Path(temporary)
        roster = folder / "roster.txt"
        roster.write_text("u00000\n")
        settings = folder / "settings.json"
        settings.write_text(json.dumps(VARIANTS))
        variants = folder / "variants"
        run_cli(
            "problem", "generate", str(settings), "--seed", str(seed),
            "--roster", str(roster), "--output", str(variants),
        )  # fmt: skip
        key = json.loads((variants / "u00000.json").read_text())["answer"]
        answer = folder / "u00000.json"
        answer.write_text(json.dumps(key))
        assignment = str(variants / "assignment.json")
        grade = [*arbiter_command(), "grade", assignment, str(answer), "--format", "csv"]
        rows = list(csv.DictReader(io.StringIO(subprocess.check_output(grade, text=True))))
        assert rows[0]["score"] == rows[0]["max_score"] != "0", rows  # it really graded
        floor = "python -c pass (the floor)"
        commands = {
            "arbiter grade, one alpha-beta answer": grade,
            "python -c 'import analysis.cli' (its imports)": [
                sys.executable, "-c", "import analysis.cli"
            ],
            floor: [sys.executable, "-c", "pass"],
        }  # fmt: skip
        medians = median_wall(commands, runs)
        print(f"start-up, a fresh process each, median of {runs} (run in turn; target 1.5 s):")
        for name, seconds in medians.items():
            print(f"  {name:46} {seconds:6.3f} s  {seconds / medians[floor]:5.1f}x the floor")


KINDS = ("right",) * 4 + ("partly",) * 4 + ("not_json", "bad_field")
"""What the students hand in, in turn: 4 in 10 right, 4 partly right, 2 malformed."""


def tree_nodes(problem: dict[str, Any]) -> int:
    """The number of nodes of a tree problem."""
    return len(parse_tree(problem["tree"]).ids)


def class_answers(
    keys: dict[str, dict[str, Any]], seed: int
) -> tuple[dict[str, str], dict[str, str]]:
    """Each student's answer file text (:data:`KINDS`): the key; the key with a pruned leaf
    dropped and another move named; a file cut off half way (not JSON); a value that is
    no number.
    Returns the texts and, per student, which kind each is."""
    rng = random.Random(seed)
    texts: dict[str, str] = {}
    kinds: dict[str, str] = {}
    for index, (student, key) in enumerate(sorted(keys.items())):
        answer = dict(key)  # the generator's key, written as a student writes it
        kind = KINDS[index % len(KINDS)]
        if kind == "partly":
            answer["pruned_leaves"] = rng.sample(
                answer["pruned_leaves"], len(answer["pruned_leaves"]) - 1
            )
            moves = sorted({node for node in key["nodes"] if node.count(".") == 1})
            answer["best_move"] = next(m for m in moves if m != key["best_move"])
        text = json.dumps(answer)
        if kind == "not_json":
            text = text[: len(text) // 2]  # a file cut off half way
        elif kind == "bad_field":
            text = json.dumps({**answer, "value": "about " + str(answer["value"])})
        texts[student] = text
        kinds[student] = kind
    return texts, kinds


def check_class(grades: dict[str, Any], kinds: dict[str, str]) -> None:
    """The grades say what the answers were: full marks exactly for the right ones, an
    error exactly for the malformed ones, something in between for the partly right."""
    for student, kind in kinds.items():
        grade = grades[student]
        full = grade["score"] == grade["max_score"] > 0
        # a malformed answer is refused whole (error) or a field at a time (errors)
        failed = grade.get("error") is not None or bool(grade.get("errors"))
        expected = {
            "right": (True, False),
            "partly": (False, False),
            "not_json": (False, True),
            "bad_field": (False, True),
        }
        assert (full, failed) == expected[kind], (student, kind, grade)
        if kind == "partly":
            assert 0 < grade["score"] < grade["max_score"], (student, grade)


def cli_benchmark(students: int, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Step 1; returns the assignment and the class's answers for the endpoint."""
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as temporary:
        folder = Path(temporary)
        roster = folder / "roster.txt"
        roster.write_text("".join(f"u{number:05d}\n" for number in range(students)))
        settings = folder / "settings.json"
        settings.write_text(json.dumps(VARIANTS))
        variants = folder / "variants"
        made = run_cli(
            "problem", "generate", str(settings), "--seed", str(seed),
            "--roster", str(roster), "--output", str(variants),
        )  # fmt: skip
        made_variants = {
            path.stem: json.loads(path.read_text())
            for path in variants.glob("*.json")
            if path.name != "assignment.json"
        }
        keys = {student: variant["answer"] for student, variant in made_variants.items()}
        assert len(keys) == students
        texts, kinds = class_answers(keys, seed)
        answers = folder / "answers"
        answers.mkdir()
        for student, text in texts.items():
            (answers / f"{student}.json").write_text(text)
        assignment = folder / "variants" / "assignment.json"
        graded = run_cli("grade", str(assignment), str(answers))
        report = json.loads(graded.stdout)
        check_class(report["results"], kinds)
        gradebook = run_cli("grade", str(assignment), str(answers), "--format", "csv")
        rows = list(csv.DictReader(io.StringIO(gradebook.stdout.decode())))
        assert len(rows) == students
        nodes = max(tree_nodes(variant["problem"]) for variant in made_variants.values())
        counts = {kind: list(kinds.values()).count(kind) for kind in sorted(set(kinds.values()))}
        print(
            f"command line: {students} students, one alpha-beta variant each (up to {nodes} nodes)"
        )
        print(f"  answers: {', '.join(f'{k} {v}' for k, v in counts.items())}")
        for name, result in (
            ("problem generate --roster", made),
            ("grade (JSON + summary)", graded),
            ("grade --format csv", gradebook),
        ):
            rate = students / result.seconds
            print(
                f"  arbiter {name:27} {result.seconds:6.2f} s  {rate:6.0f} students/s  "
                f"peak {result.peak_mib:5.0f} MiB"
            )
        summary = report["summary"]
        print(
            f"  mean {summary['mean']:.2f} / {summary['max_score']:g}, "
            f"{summary['full_marks']} full marks, {summary['errors']} malformed"
        )
        # the endpoint takes JSON: an answer that is not JSON cannot be posted
        posted = {
            student: json.loads(text)
            for student, text in texts.items()
            if kinds[student] != "not_json"
        }
        assignment_body = json.loads(assignment.read_text())
        return assignment_body, {"answers": posted, "kinds": kinds}


def batch_answers(
    problem: dict[str, Any], key: dict[str, Any], count: int, seed: int
) -> dict[str, Any]:
    """The key, the key under strict pruning, and random corruptions of values and leaves."""
    rng = random.Random(seed)
    tree = parse_tree(problem["tree"])
    strict = alpha_beta_json(alpha_beta(tree, prune_on_equality=False), None)
    leaves = [tree.ids[i] for i in tree.leaves()]
    out: dict[str, Any] = {}
    for student in range(count):
        source = strict if student % 4 == 1 else key
        answer = {
            "value": source["value"],
            "best_move": source["best_move"],
            "nodes": {
                # the solver's JSON holds {value, bound} per node, the generator's key the value
                name: entry["value"] if isinstance(entry, dict) else entry
                for name, entry in source["nodes"].items()
                if name.count(".") < 4
            },
            "pruned_leaves": list(source["pruned_leaves"]),
        }
        if student % 4 >= 2:
            for name in rng.sample(sorted(answer["nodes"]), 5):
                answer["nodes"][name] = rng.randint(0, 20)
            answer["pruned_leaves"] = rng.sample(leaves, len(answer["pruned_leaves"]))
            answer["value"] = rng.randint(0, 20)
        out[f"s{student:04d}"] = answer
    return out


def endpoint_benchmark(
    count: int, seed: int, repeats: int, assignment: dict[str, Any], posted: dict[str, Any]
) -> None:
    """Step 2: answers per second of the three grading endpoints."""
    client = create_app({"TESTING": True}).test_client()
    generated = generate_problem(
        ProblemSettings(depth=4, branching=(3, 4), seed=seed, min_pruned_leaves=20)
    )
    answers = batch_answers(generated.problem, generated.answer, count, seed)
    batch = {"problem": generated.problem, "answers": answers}
    body = orjson.dumps(batch)

    def post(path: str, data: bytes, accept: str = "application/json") -> None:
        response = client.post(
            path, data=data, content_type="application/json", headers={"Accept": accept}
        )
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        response.get_data()

    singles = [
        orjson.dumps({"problem": generated.problem, "answer": answer})
        for answer in answers.values()
    ]

    def one_at_a_time() -> None:
        for single in singles:
            post("/v1/grade", single)

    one_time = best_of(repeats, one_at_a_time)
    json_time = best_of(repeats, lambda: post("/v1/grade/batch", body))
    csv_time = best_of(repeats, lambda: post("/v1/grade/batch", body, "text/csv"))
    summary = orjson.loads(
        client.post("/v1/grade/batch", data=body, content_type="application/json").get_data()
    )["summary"]
    class_body = orjson.dumps(
        {"assignment": assignment["assignment"], "answers": posted["answers"]}
    )
    class_count = len(posted["answers"])
    class_time = best_of(repeats, lambda: post("/v1/assignments/grade", class_body))
    report = client.post("/v1/assignments/grade", data=class_body, content_type="application/json")
    kinds = {s: k for s, k in posted["kinds"].items() if s in posted["answers"]}
    check_class(orjson.loads(report.get_data())["results"], kinds)
    nodes = tree_nodes(generated.problem)
    print(f"endpoints (Flask test client, best of {repeats}):")
    rows = (
        (f"POST /v1/grade, {count} requests", count, one_time),
        (f"POST /v1/grade/batch, {count} answers (JSON)", count, json_time),
        (f"POST /v1/grade/batch, {count} answers (CSV)", count, csv_time),
        (f"POST /v1/assignments/grade, {class_count} variants", class_count, class_time),
    )
    for name, answered, seconds in rows:
        print(f"  {name:46} {seconds:6.3f} s  {answered / seconds:7.0f} answers/s")
    print(
        f"  batch problem: {nodes} nodes; mean {summary['mean']:.2f} / "
        f"{summary['max_score']:g}; mistakes: "
        + ", ".join(f"{m['code']} x{m['count']}" for m in summary["common_mistakes"][:4])
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=1000, help="roster size (default 1000)")
    parser.add_argument(
        "--answers", type=int, default=1000, help="answers to the batch problem (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--startup-runs", type=int, default=9, help="runs of the start-up step (default 9)"
    )
    parser.add_argument("--startup-only", action="store_true", help="run the start-up step only")
    args = parser.parse_args()
    startup_benchmark(args.startup_runs, args.seed)
    if args.startup_only:
        return
    assignment, posted = cli_benchmark(args.students, args.seed)
    endpoint_benchmark(args.answers, args.seed, args.repeats, assignment, posted)


if __name__ == "__main__":
    main()
