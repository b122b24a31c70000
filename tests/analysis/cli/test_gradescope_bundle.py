"""The bundle as Gradescope builds it: ``setup.sh`` in a throw-away root laid out as
Gradescope's container (``source/`` the unzipped bundle, ``submission/``,
``submission_metadata.json``, ``results/``), then ``run_autograder`` on a right and a wrong
answer, with no override of the grader's Python.

Real: the zip that ``arbiter autograder`` writes; the pinned requirements installed from
the package index (through uv's cache) by the project's own uv (``.tools/bin/uv``, passed as
``UV``); this machine's system Python, Debian 12's 3.11, which is EXTERNALLY-MANAGED as
Ubuntu 24.04's is. Faked: ``apt-get``, and ``python3``, ``pip``, ``pip3`` on ``PATH`` record
their calls (``python3`` then runs the system's), so that the test sees that nothing was
installed system-wide. docs/gradescope.md says what this does not show.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request
import zipfile
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

import pytest

from analysis.cli import main
from analysis.cli.autograder import (
    CORE,
    MODULES,
    REQUIREMENTS,
    REQUIRES_PYTHON,
    UV_VERSION,
    requirements,
)
from tests.analysis.cli.test_autograder import (
    ADA,
    AIMA,
    RIGHT,
    build_assignment_bundle,
    check_fields,
    metadata,
    variant_key,
)

REPOSITORY = Path(__file__).resolve().parents[3]
UV = REPOSITORY / ".tools" / "bin" / "uv"
SYSTEM_PYTHON = Path("/usr/bin/python3")
PYPI = "https://pypi.org/simple"
INDEX = os.environ.get("UV_DEFAULT_INDEX") or os.environ.get("UV_INDEX_URL") or PYPI
WRONG = {"value": 12, "best_move": "root.2", "pruned_leaves": ["root.0.1"]}

RECORDER = """#!/bin/sh
echo "{name} $*" >> "{log}"
{then}
"""
LISTING = """
from importlib.metadata import distributions
print(*(f"{d.metadata['Name']}=={d.version}" for d in distributions()))
"""
CHECKED: dict[str, Any] = {"capture_output": True, "text": True, "check": True}


def unavailable(reason: str) -> None:
    """Skip on a developer's machine without what the test needs; fail in CI, which has it
    (make test installs uv, CI's machine reaches the index)."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI cannot run the Gradescope bundle: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def index() -> str:
    """The package index uv installs from, once checked that it answers (and that the
    project's uv and a system Python >= 3.11 are here)."""
    if not UV.exists():
        unavailable(f"{UV} is not installed (make test installs it)")
    version = [str(SYSTEM_PYTHON), "-c", "import sys; print(sys.version_info >= (3, 11))"]
    if not SYSTEM_PYTHON.exists() or subprocess.check_output(version, text=True) != "True\n":
        unavailable(f"no system Python >= 3.11 at {SYSTEM_PYTHON}")
    request = urllib.request.Request(f"{INDEX.rstrip('/')}/numpy/", method="HEAD")
    try:
        urllib.request.urlopen(request, timeout=10).close()
    except OSError as error:
        unavailable(f"the package index {INDEX} is unreachable ({error})")
    return INDEX


def gradescope_root(folder: Path, bundle: Path) -> Path:
    """The container's /autograder as Gradescope lays it out, with the bundle in source/,
    and a bin/ of recording fakes."""
    root = folder / "autograder"
    for part in ("source", "submission", "results"):
        (root / part).mkdir(parents=True)
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)
    fakes = folder / "bin"
    fakes.mkdir()
    log = folder / "calls.log"
    for name, then in [
        ("apt-get", "exit 0"),
        ("pip", "exit 1"),
        ("pip3", "exit 1"),
        ("python3", f'exec {SYSTEM_PYTHON} "$@"'),
    ]:
        fake = fakes / name
        fake.write_text(RECORDER.format(name=name, log=log, then=then))
        fake.chmod(0o755)
    return root


def environment(root: Path, **extra: str) -> dict[str, str]:
    """This process's environment (the index, its certificates, uv's cache) with the fakes
    and the system's Python first on PATH, and nothing that leads to the project's copy."""
    unset = ("VIRTUAL_ENV", "UV_PYTHON", "PYTHONPATH", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(PATH=f"{root.parent / 'bin'}:/usr/bin:/bin", AUTOGRADER_ROOT=str(root), **extra)
    return env


def set_up(root: Path) -> list[str]:
    """Run setup.sh as Gradescope does (as root here: apt-get is the fake); its calls."""
    # downloads never: the venv must stand on the system's Python 3.11
    env = environment(root, UV=str(UV), UV_PYTHON_DOWNLOADS="never")
    script = root / "source" / "setup.sh"
    done = subprocess.run([str(script)], env=env, cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return (root.parent / "calls.log").read_text().splitlines()


def grade(root: Path, answer: dict[str, Any], user: str | None = None) -> dict[str, Any]:
    """One submission: a fresh submission/ (and its metadata), run_autograder, results.json."""
    for part in ("submission", "results"):
        shutil.rmtree(root / part)
        (root / part).mkdir()
    (root / "submission" / "answer.json").write_text(json.dumps(answer))
    if user is not None:
        (root / "submission_metadata.json").write_text(user)
    script = root / "source" / "run_autograder"
    subprocess.run([str(script)], env=environment(root), cwd=root, check=True, timeout=60)
    results: dict[str, Any] = json.loads((root / "results" / "results.json").read_text())
    check_fields(results)
    return results


def check_installed(root: Path, calls: list[str]) -> None:
    """apt-get was asked for Python and venv; pip never ran outside the venv, which stands on
    the system's Python and holds the pinned requirements, nothing else."""
    assert "apt-get update -qq" in calls
    assert any(c.startswith("apt-get install") and "python3-venv" in c for c in calls), calls
    assert not any(c.startswith(("pip", "python3 -m pip")) for c in calls), calls
    venv = root / "venv" / "bin" / "python"
    assert venv.resolve() == SYSTEM_PYTHON.resolve()
    probe = (
        "import sys, numpy, analysis; "
        "print(sys.prefix, sys.base_prefix, numpy.__file__, analysis.__file__)"
    )
    where = subprocess.run(
        [venv, "-c", probe], env=environment(root), cwd=root / "source", **CHECKED
    )
    prefix, base, numpy, arbiter = where.stdout.split()
    assert prefix == str(root / "venv") and base == "/usr"
    assert numpy.startswith(str(root / "venv" / "lib"))
    assert arbiter.startswith(str(root / "source" / "analysis"))
    # exactly the pins (test_the_requirements_... shows that they cover the core's imports)
    listing = subprocess.run(
        [venv, "-c", LISTING], env=environment(root), cwd=root / "source", **CHECKED
    )
    lines = (root / "source" / "requirements.txt").read_text().lower().splitlines()
    pins = {line for line in lines if ";" not in line}
    conditional = {line.partition(" ;")[0] for line in lines if ";" in line}
    assert pins <= set(listing.stdout.lower().split()) <= pins | conditional


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zip of ``arbiter autograder problem.json`` for AIMA's tree."""
    folder = tmp_path_factory.mktemp("build")
    (folder / "problem.json").write_text(json.dumps(AIMA))
    zipped = folder / "autograder.zip"
    assert main(["autograder", str(folder / "problem.json"), "--output", str(zipped)]) == 0
    return zipped


@pytest.mark.slow
@pytest.mark.usefixtures("index")
def test_a_problem_bundle_builds_and_grades(bundle: Path, tmp_path: Path) -> None:
    root = gradescope_root(tmp_path, bundle)
    check_installed(root, set_up(root))
    right = grade(root, RIGHT)
    assert right["score"] == 4
    assert [(t["name"], t["score"]) for t in right["tests"]] == [
        ("value", 1),
        ("best_move", 1),
        ("pruned_leaves", 2),
    ]
    wrong = grade(root, WRONG)
    assert wrong["score"] == 0 and sum(t["max_score"] for t in wrong["tests"]) == 4


@pytest.mark.slow
@pytest.mark.usefixtures("index")
def test_an_assignment_bundle_builds_and_grades_each_students_variant(tmp_path: Path) -> None:
    bundle = build_assignment_bundle(tmp_path, "--student-field", "sid,email")
    root = gradescope_root(tmp_path, bundle)
    check_installed(root, set_up(root))
    assert variant_key("s1001") != variant_key(ADA)  # else right and wrong were alike
    ada = metadata(email=ADA, sid="s1001")  # the sid, tried first, names the variant
    right = grade(root, variant_key("s1001"), ada)
    maximum = sum(t["max_score"] for t in right["tests"])
    assert maximum > 0 and right["score"] == maximum
    assert all(t["score"] == t["max_score"] for t in right["tests"])
    wrong = grade(root, variant_key(ADA), ada)  # the variant of her email is not hers
    assert sum(t["max_score"] for t in wrong["tests"]) == maximum
    assert wrong["score"] < maximum


def test_without_a_recent_system_python_setup_asks_uv_for_the_built_ones(
    bundle: Path, tmp_path: Path
) -> None:
    """Ubuntu 22.04's case, as far as it can be tried here: no system Python >= 3.11 on
    PATH, so setup.sh asks uv for a managed CPython of the version the pins were made on
    (here refused: downloads are off); apt-get is skipped when told."""
    if not UV.exists():
        unavailable(f"{UV} is not installed (make test installs it)")
    root = gradescope_root(tmp_path, bundle)
    bare = tmp_path / "bare"  # no Python on PATH at all
    bare.mkdir()
    (bare / "id").symlink_to(shutil.which("id") or "/usr/bin/id")
    env = environment(root, UV=str(UV), UV_PYTHON_DOWNLOADS="never", AUTOGRADER_APT="no")
    env["PATH"] = str(bare)
    script = root / "source" / "setup.sh"
    done = subprocess.run(["/bin/bash", script], env=env, cwd=root, capture_output=True, text=True)
    assert done.returncode != 0
    built_on = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert f"No interpreter found for Python {built_on} in managed installations" in done.stderr
    assert not (tmp_path / "calls.log").exists()  # neither apt-get nor a pip ran


def test_the_requirements_are_what_the_bundled_core_imports(bundle: Path) -> None:
    """Every import of a bundled module is the standard library's, the core's, or one of
    REQUIREMENTS (each of which is also the module's name); and they are all pinned."""
    imported: set[str] = set()
    with zipfile.ZipFile(bundle) as archive:
        for name in archive.namelist():
            if name.endswith(".py"):
                for node in ast.walk(ast.parse(archive.read(name))):
                    if isinstance(node, ast.Import):
                        imported.update(alias.name.split(".")[0] for alias in node.names)
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        imported.add(node.module.split(".")[0])
        pins = archive.read("requirements.txt").decode().splitlines()
    expected = {MODULES.get(name, name) for name in REQUIREMENTS}
    assert imported - sys.stdlib_module_names - set(CORE) == expected
    pinned = {re.sub(r"==.*", "", pin) for pin in pins}
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+==[^ ;]+( ; .+)?", pin) for pin in pins), pins
    assert set(REQUIREMENTS) | {"mpmath", "pillow", "contourpy"} <= pinned  # and their own


def test_setup_pins_the_projects_uv_and_python() -> None:
    """The uv that setup.sh installs is the Makefile's; the Python it requires, pyproject's."""
    makefile = (REPOSITORY / "Makefile").read_text()
    assert re.search(rf"^UV_VERSION\s*:=\s*{re.escape(UV_VERSION)}$", makefile, re.MULTILINE)
    pyproject = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())
    assert pyproject["project"]["requires-python"] == REQUIRES_PYTHON


def test_a_requirement_under_a_marker_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """python-dateutil made to need tzdata on some platforms only, and a package not
    installed here on Windows only, and pytest for an extra."""

    class Dateutil:
        metadata = {"Name": "python-dateutil"}
        version = "9.9"
        requires = [
            'tzdata ; os_name == "nt"',
            'tzdata; python_version < "3.13" and sys_platform == "linux"',
            'not-installed-here; os_name == "nt"',
            'pytest; extra == "dev"',
        ]

    monkeypatch.setattr(
        "analysis.cli.autograder.distribution",
        lambda name: Dateutil() if name == "python-dateutil" else distribution(name),
    )
    pins = requirements().splitlines()
    assert "python-dateutil==9.9" in pins
    [tzdata] = [pin for pin in pins if pin.startswith("tzdata==")]
    assert tzdata.endswith(
        ' ; (os_name == "nt") or (python_version < "3.13" and sys_platform == "linux")'
    )
    assert not any(pin.startswith(("pytest", "not-installed-here")) for pin in pins)
