// The player wiring: Play/Pause, Stop, speed, Space to toggle, "Now speaking", and the
// remembered position per story. The Player itself (js/shared/player.js) fetches and plays.
import { Player } from "../../shared/player.js";

export function playbackPart(view) {
  const { $, signal } = view;
  const speaking = { index: null, state: "stopped" }; // a paused voice is not "now speaking"

  function showSpeaker() {
    const name = speaking.index === null ? null : view.lines[speaking.index]?.speaker_name;
    $("#now-speaking").textContent = !name ? "Now speaking: —"
      : speaking.state === "playing" ? `Now speaking: ${name}` : `Paused on: ${name}`;
  }

  /** A new player over the current lines, keeping the position of the one it replaces. */
  function setUp() {
    const resumeAt = view.player?.index;
    view.player?.dispose();
    Object.assign(speaking, { index: null, state: "stopped" });
    showSpeaker();
    const player = new Player(view.lines, {
      positionKey: `storyvoice:position:${view.id}`,
      onLine: (index) => {
        view.highlight(index);
        speaking.index = index;
        showSpeaker();
      },
      onState: (state) => {
        speaking.state = state;
        showSpeaker();
        $("#play").textContent = state === "playing" ? "❚❚ Pause" : "▶ Play";
        $("#play").setAttribute("aria-pressed", String(state === "playing"));
        if (state === "finished") $("#player-status").textContent = "The end.";
      },
      onError: (message) => { $("#player-status").textContent = message; },
    });
    if (resumeAt !== undefined && resumeAt < view.lines.length) player.index = resumeAt;
    player.setSpeed(Number($("#speed").value));
    view.player = player;
    player.warmUp();
    // The remembered line is marked (and scrolled to) before anything plays.
    view.highlight(player.index > 0 ? player.index : null);
    if (player.index > 0) $("#player-status").textContent = `Resumes at line ${player.index + 1}.`;
  }

  // The sticky player covers the top of the page: scrolling to a section, or tabbing to a
  // control, keeps what it reveals below the player rather than under it.
  const resize = new ResizeObserver(() => {
    const height = $("#player").offsetHeight;
    document.documentElement.style.scrollPaddingTop = height ? `${height + 8}px` : "";
  });
  resize.observe($("#player"));

  $("#play").addEventListener("click", () => {
    const player = view.player;
    if (!player) return;
    $("#player-status").textContent = "";
    if (player.playing) player.pause();
    else player.play();
  }, { signal });
  $("#stop").addEventListener("click", () => view.player?.stop(), { signal });
  $("#speed").addEventListener("change", (event) => view.player?.setSpeed(Number(event.target.value)), { signal });
  document.addEventListener("keydown", (event) => {
    // Space toggles playback unless typing or on a control that uses it (or a dialog is open).
    if (event.key !== " " || event.target.closest("input, textarea, select, button, summary, a, dialog")) return;
    event.preventDefault();
    $("#play").click();
  }, { signal });

  return {
    setUp,
    /** No sound, timers, requests or page styles left behind. */
    dispose() {
      view.player?.dispose();
      view.player = null;
      resize.disconnect();
      document.documentElement.style.scrollPaddingTop = "";
    },
  };
}
