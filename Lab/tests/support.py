"""What the lab's tests share: the repository's paths, loading a script as a module (most have
hyphens in their names), running one as a program, and writing small files."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(TESTS, "..", ".."))
SCRIPTS = os.path.join(ROOT, "Lab", "scripts")
# The helpers the scripts import from their own folder (footage_labels, real_manifest).
sys.path.insert(0, SCRIPTS)


def load(filename):
    """The script Lab/scripts/`filename` as a module (its main() not run)."""
    name = "lab_" + filename[: -len(".py")].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, os.path.join(SCRIPTS, filename))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(path, args, env=None):
    """Runs the Python script at `path` with this interpreter; the CompletedProcess (text)."""
    return subprocess.run([sys.executable, path, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def tsv(path, header, rows):
    """A tab-separated file: the header, then each row (a list of fields)."""
    lines = ["\t".join(header)] + ["\t".join(str(v) for v in row) for row in rows]
    return write(path, "\n".join(lines) + "\n")


class TempCase(unittest.TestCase):
    """A test with a scratch folder of its own, self.tmp, removed afterwards."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lab-test-")
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path
