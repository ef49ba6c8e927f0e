// The player bar: Play/Pause, previous/next line and chapter, Stop, speed (remembered in this
// browser), the line being read (speaker, text, chapter, "line 120 of 2,224"), the time position
// (timeline.js), keyboard shortcuts (Space, ←/→, Shift+←/→), "Preparing audio…" while the line
// to play is not ready, and the remembered position per story. The Player itself
// (js/shared/player.js) fetches and plays.
import { Player } from "../../shared/player.js";
import { prose } from "./lines.js";
import { timelinePart } from "./timeline.js";

const speedKey = "storyvoice:speed";

export function playbackPart(view, chapters) {
  const { $, signal } = view;
  const speaking = { index: null, state: "stopped", waiting: false }; // a paused voice is not "now speaking"
  const timeline = timelinePart(view, chapters);
  const speed = $("#speed");
  if ([...speed.options].some((option) => option.value === localStorage.getItem(speedKey))) speed.value = localStorage.getItem(speedKey);

  function showLine() {
    const player = view.player;
    const index = speaking.index ?? player?.index ?? null;
    const line = index === null ? null : view.store?.get(index);
    const name = speaking.index === null ? null : line?.speaker_name;
    $("#now-speaking").textContent = speaking.waiting ? `Preparing audio…${name ? ` (${name})` : ""}`
      : !name ? "Now speaking: —"
        : speaking.state === "playing" ? `Now speaking: ${name}` : `Paused on: ${name}`;
    $("#now-text").replaceChildren(...(line ? prose(line.text) : []));
    const total = view.store?.total ?? 0;
    $("#position").textContent = total && index !== null ? `line ${(index + 1).toLocaleString()} of ${total.toLocaleString()}` : "";
    const number = chapters.chapterOf(index);
    const chapter = number === null ? null : chapters.chapter(number);
    $("#now-chapter").textContent = chapter ? chapter.title : "";
    $("#now-chapter").hidden = !chapter;
    chapters.markCurrent(number);
    $("#prev-chapter").disabled = !chapters.count;
    $("#next-chapter").disabled = !chapters.count || number === chapters.count - 1;
    $("#prev-line").disabled = !total || index === 0;
    $("#next-line").disabled = !total || index === total - 1;
    const play = $("#play");
    play.classList.toggle("preparing", speaking.waiting);
    play.textContent = speaking.waiting ? "Preparing…" : speaking.state === "playing" ? "❚❚ Pause" : "▶ Play";
    timeline.update();
  }
  chapters.onChange(showLine);

  /** A new player over the current lines, keeping the position of the one it replaces and
   * playing on if it was playing (an analysis that finishes mid-listen re-voices the line
   * being read; it does not stop the reader). */
  function setUp() {
    const resumeAt = view.player?.index;
    const wasPlaying = Boolean(view.player?.playing);
    view.player?.dispose();
    Object.assign(speaking, { index: null, state: "stopped", waiting: false });
    timeline.reset();
    const store = view.store;
    const player = new Player({
      get length() { return store.total ?? 0; },
      get: (index) => store.get(index),
      line: (index) => store.line(index),
      audioUrl: (index) => (store.get(index)?.audio_url ?? `/api/stories/${view.id}/segments/${index}/audio`) + lineFormat,
    }, {
      positionKey: `storyvoice:position:${view.id}`,
      onLine: (index) => {
        speaking.index = index;
        if (index !== null) store.ensure(index).then(showLine, () => {});
        view.highlight(index, { preparing: speaking.waiting });
        showLine();
      },
      onState: (state) => {
        speaking.state = state;
        $("#play").setAttribute("aria-pressed", String(state === "playing"));
        if (state === "finished") $("#player-status").textContent = "The end.";
        showLine();
      },
      onWaiting: (waiting) => {
        speaking.waiting = waiting;
        view.highlight(speaking.index, { preparing: waiting });
        showLine();
      },
      onError: (message) => { $("#player-status").textContent = message; },
      onDuration: (index, seconds) => timeline.measuredLine(index, seconds),
      onTime: () => timeline.update(),
    });
    store.onChange(() => timeline.update()); // lines arriving make the estimates better
    if (resumeAt !== undefined && resumeAt < player.length) player.index = resumeAt;
    player.setSpeed(Number(speed.value));
    view.player = player;
    $("#play").setAttribute("aria-pressed", "false");
    player.warmUp();
    // The remembered line is marked (and scrolled to) before anything plays.
    view.highlight(player.index > 0 ? player.index : null);
    if (wasPlaying) player.play();
    else if (player.index > 0) $("#player-status").textContent = `Resumes at line ${player.index + 1}.`;
    showLine();
  }

  // The sticky player covers the top of the page: scrolling to a section, or tabbing to a
  // control, keeps what it reveals below the player rather than under it.
  const resize = new ResizeObserver(() => {
    const height = $("#player").offsetHeight;
    document.documentElement.style.scrollPaddingTop = height ? `${height + 8}px` : "";
  });
  resize.observe($("#player"));

  function toggle() {
    const player = view.player;
    if (!player) return;
    $("#player-status").textContent = "";
    if (player.playing) player.pause();
    else player.play();
  }

  /** Moves by `step` lines (keeps playing if playing). */
  function stepLine(step) {
    const player = view.player;
    if (!player?.length) return;
    view.followPlayhead?.();
    player.jump(player.index + step);
  }

  /** Moves to the previous (a few seconds into a chapter: its start) or next chapter. */
  function stepChapter(step) {
    const player = view.player;
    if (!player || !chapters.count) return;
    const number = chapters.chapterOf(player.index) ?? 0;
    let target = number + step;
    if (step < 0 && chapters.chapter(number) && player.index > chapters.chapter(number).first_line + 1) target = number;
    const chapter = chapters.chapter(Math.max(0, Math.min(chapters.count - 1, target)));
    view.followPlayhead?.();
    if (chapter) player.jump(chapter.first_line);
  }

  $("#play").addEventListener("click", toggle, { signal });
  $("#stop").addEventListener("click", () => view.player?.stop(), { signal });
  $("#prev-line").addEventListener("click", () => stepLine(-1), { signal });
  $("#next-line").addEventListener("click", () => stepLine(1), { signal });
  $("#prev-chapter").addEventListener("click", () => stepChapter(-1), { signal });
  $("#next-chapter").addEventListener("click", () => stepChapter(1), { signal });
  speed.addEventListener("change", () => {
    localStorage.setItem(speedKey, speed.value);
    view.player?.setSpeed(Number(speed.value));
    timeline.update();
  }, { signal });
  $("#show-current").addEventListener("click", () => {
    const index = view.player?.index;
    if (index === undefined) return;
    view.followPlayhead?.();
    $("#lines").scrollIntoView({ block: "start" });
    view.keepInView?.(index)?.querySelector(".line-text")?.focus({ preventScroll: true });
  }, { signal });

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = event.target.closest?.("input, textarea, select, [contenteditable], dialog");
    if (event.key === " ") {
      // Space toggles playback unless typing or on a control that uses it.
      if (typing || event.target.closest("button, summary, a")) return;
      event.preventDefault();
      toggle();
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (typing || document.querySelector("dialog[open]")) return;
      event.preventDefault();
      const step = event.key === "ArrowLeft" ? -1 : 1;
      if (event.shiftKey) stepChapter(step); else stepLine(step);
    }
  }, { signal });

  return {
    setUp,
    showLine,
    /** No sound, timers, requests or page styles left behind. */
    dispose() {
      view.player?.dispose();
      view.player = null;
      resize.disconnect();
      document.documentElement.style.scrollPaddingTop = "";
    },
  };
}

// Lines travel as Opus (about a tenth of the WAV) unless the server is on this machine, where
// the WAV costs nothing to send and nothing to decode.
const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
const lineFormat = !loopback && new Audio().canPlayType('audio/ogg; codecs="opus"') ? "?format=opus" : "";
