#!/usr/bin/env python3
"""Measures the offline language model (scripts/local-model.py serve) on this machine.

    .venv/bin/python bench/local-llm.py                      # launches the server itself
    .venv/bin/python bench/local-llm.py --threads 2
    .venv/bin/python bench/local-llm.py --url http://127.0.0.1:PORT --pid PID   # a running server
                                                             # (key in $STORYVOICE_LOCAL_LLM_KEY)

Reports: load time; prompt and generation speed (llama.cpp's `timings`); time to the first
streamed token for a ~100-token prompt; wall time of three tasks (a 12-message conversation
generated as JSON under a JSON schema, a 150-word story part, a one-paragraph reply); the
server's peak resident memory; the load average before and after. Prompt caching is turned off
per request (`cache_prompt: false`) so every figure includes reading the whole prompt.
Standard library only. Prints a table to stderr and one JSON object to stdout.
"""

import argparse
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

STORY = (
    "Mara kept the lighthouse on Gull Rock for eleven winters. Every evening she climbed the ninety "
    "steps, trimmed the wick, wound the clockwork that turned the lens, and wrote the weather in a "
    "ledger nobody read. The supply boat came on the first Monday of each month, weather allowing, "
    "and the weather rarely allowed. One November night a small boy rowed to the rock alone in a "
    "storm, soaked and silent, carrying a sealed letter addressed to her in her dead brother's hand."
)

CONVERSATION_SCHEMA = {
    "type": "object",
    "properties": {
        "messages": {
            "type": "array",
            "minItems": 12,
            "maxItems": 12,
            "items": {
                "type": "object",
                "properties": {
                    "speaker": {"type": "string", "enum": ["Mara", "Tom"]},
                    "text": {"type": "string", "maxLength": 200},
                },
                "required": ["speaker", "text"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["messages"],
    "additionalProperties": False,
}


class Client:
    def __init__(self, url: str, key: str):
        self.url = url.rstrip("/")
        self.key = key

    def request(self, path: str, body=None, timeout: float = 900):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, headers={
            "Authorization": f"Bearer {self.key}", "Content-Type": "application/json"})
        return urllib.request.urlopen(request, timeout=timeout)

    def chat(self, body: dict) -> tuple:
        started = time.monotonic()
        with self.request("/v1/chat/completions", dict(body, cache_prompt=False)) as response:
            answer = json.load(response)
        return answer, time.monotonic() - started

    def first_token(self, body: dict) -> dict:
        """Streams; returns the time to the first content token and to the end."""
        started = time.monotonic()
        first = None
        pieces = []
        timings = {}
        with self.request("/v1/chat/completions", dict(body, stream=True, cache_prompt=False)) as response:
            for raw in response:
                line = raw.decode().strip()
                if not line.startswith("data: ") or line == "data: [DONE]":
                    continue
                chunk = json.loads(line[6:])
                timings = chunk.get("timings", timings)
                for choice in chunk.get("choices", []):
                    content = (choice.get("delta") or {}).get("content")
                    if content:
                        if first is None:
                            first = time.monotonic() - started
                        pieces.append(content)
        return {"first_token_s": round(first, 2) if first else None,
                "total_s": round(time.monotonic() - started, 2),
                "prompt_tokens": timings.get("prompt_n"), "tokens": timings.get("predicted_n")}


def messages(system: str, user: str) -> list:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def task_summary(answer: dict, seconds: float) -> dict:
    timings = answer.get("timings", {})
    choice = answer["choices"][0]
    return {"wall_s": round(seconds, 2), "finish_reason": choice["finish_reason"],
            "prompt_tokens": timings.get("prompt_n"), "tokens": timings.get("predicted_n"),
            "prompt_tps": round(timings.get("prompt_per_second", 0), 1),
            "gen_tps": round(timings.get("predicted_per_second", 0), 1),
            "text": choice["message"]["content"]}


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def cpu_seconds(pid) -> float:
    """The server's user + system CPU time so far: a task's cost, whatever else the machine runs."""
    if not pid:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mib(pid) -> float:
    if not pid:
        return None
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (without /v1); default: launch one")
    parser.add_argument("--pid", type=int, help="the running server's process id, for its peak memory")
    parser.add_argument("--model", help="GGUF to launch (default: the bundled model)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--ctx-size", type=int, default=4096)
    parser.add_argument("--speculative", choices=["none", "ngram"], default="none", help="passed to the launched server")
    args = parser.parse_args()

    results = {"load_average_before": load_average(), "threads": args.threads}
    server = None
    if args.url:
        key = os.environ.get("STORYVOICE_LOCAL_LLM_KEY", "")
        url, pid = args.url, args.pid
    else:
        key = secrets.token_urlsafe(24)
        command = [sys.executable, str(PROJECT / "scripts/local-model.py"), "serve",
                   "--threads", str(args.threads), "--ctx-size", str(args.ctx_size), "--speculative", args.speculative]
        if args.model:
            command += ["--model", args.model]
        started = time.monotonic()
        server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=dict(os.environ, STORYVOICE_LOCAL_LLM_KEY=key))
        ready = json.loads(server.stdout.readline() or "{}")
        if not ready.get("ready"):
            print(f"bench: the server did not start: {ready.get('error', 'no answer')}", file=sys.stderr)
            return 1
        results["load_wall_s"] = round(time.monotonic() - started, 2)
        results["load_seconds_reported"] = ready["load_seconds"]
        results["model"] = ready["model"]
        url, pid = f"http://127.0.0.1:{ready['port']}", server.pid

    client = Client(url, key)
    try:
        # Speed: a ~300-token prompt and 128 generated tokens.
        answer, _ = client.chat({"messages": messages("You are a careful editor.", STORY * 3 +
                                                      "\n\nRetell this story in your own words."),
                                 "max_tokens": 128, "temperature": 0})
        timings = answer["timings"]
        results["speed"] = {"prompt_tokens": timings["prompt_n"],
                            "prompt_tps": round(timings["prompt_per_second"], 1),
                            "gen_tokens": timings["predicted_n"],
                            "gen_tps": round(timings["predicted_per_second"], 1)}

        # Time to first streamed token, ~100-token prompt.
        results["first_token"] = client.first_token({
            "messages": messages("You are a narrator.", STORY[:420] + " Continue the story."), "max_tokens": 16})

        # A 12-message conversation as JSON, constrained by the schema.
        cpu = cpu_seconds(pid)
        answer, seconds = client.chat({
            "messages": messages(
                "You write dialogue for audiobooks. Answer with JSON only.",
                STORY + "\n\nWrite the conversation between Mara and the boy (Tom) when he arrives: "
                        "exactly 12 messages, alternating, each one or two short sentences."),
            "max_tokens": 900, "temperature": 0.7,
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "conversation", "strict": True, "schema": CONVERSATION_SCHEMA}}})
        conversation = task_summary(answer, seconds)
        conversation["cpu_s"] = round(cpu_seconds(pid) - cpu, 1)
        try:
            parsed = json.loads(conversation["text"])
            conversation["valid_json"] = True
            conversation["messages"] = len(parsed["messages"])
        except (ValueError, KeyError, TypeError):
            conversation["valid_json"] = False
        results["conversation_json"] = conversation

        # A 150-word story part.
        cpu = cpu_seconds(pid)
        answer, seconds = client.chat({
            "messages": messages("You are a novelist.", STORY + "\n\nWrite the next part of the story, about 150 "
                                 "words, in the same style. Prose only."),
            "max_tokens": 400, "temperature": 0.7})
        story = task_summary(answer, seconds)
        story["cpu_s"] = round(cpu_seconds(pid) - cpu, 1)
        story["words"] = len(story["text"].split())
        results["story_part"] = story

        # A one-paragraph reply.
        cpu = cpu_seconds(pid)
        answer, seconds = client.chat({
            "messages": messages("You answer listeners' questions about the audiobook briefly.",
                                 "Who is Mara and why does the boy's letter matter? One short paragraph."),
            "max_tokens": 200, "temperature": 0.7})
        reply = task_summary(answer, seconds)
        reply["cpu_s"] = round(cpu_seconds(pid) - cpu, 1)
        reply["words"] = len(reply["text"].split())
        results["short_reply"] = reply

        results["peak_rss_mib"] = peak_rss_mib(pid)
        results["load_average_after"] = load_average()
    finally:
        if server:
            server.stdin.close()        # the server exits on end of input
            server.wait(timeout=30)

    for name in ("conversation_json", "story_part", "short_reply"):
        results[name]["text"] = results[name]["text"][:300]
    report = [
        f"load average before/after: {results['load_average_before']} / {results['load_average_after']}, "
        f"threads {args.threads}, speculative {args.speculative}",
        f"load: {results.get('load_wall_s', '-')} s to the ready line (server says {results.get('load_seconds_reported', '-')} s)",
        f"prompt {results['speed']['prompt_tps']} tok/s ({results['speed']['prompt_tokens']} tokens), "
        f"generation {results['speed']['gen_tps']} tok/s ({results['speed']['gen_tokens']} tokens)",
        f"first streamed token: {results['first_token']['first_token_s']} s for a "
        f"{results['first_token']['prompt_tokens']}-token prompt",
    ]
    for name in ("conversation_json", "story_part", "short_reply"):
        task = results[name]
        extra = (f", valid JSON {task['valid_json']}, {task.get('messages')} messages" if name == "conversation_json"
                 else f", {task['words']} words")
        report.append(f"{name}: {task['wall_s']} s, {task['cpu_s']} s of CPU ({task['prompt_tokens']} prompt + {task['tokens']} tokens, "
                      f"finish {task['finish_reason']}{extra})")
    report.append(f"peak RSS of the server: {results['peak_rss_mib']} MiB")
    print("\n".join(report), file=sys.stderr)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
