// The time position in the player bar, as an audiobook player shows it: time elapsed and left
// in the chapter (with a bar), and in the whole book. A line's time is its audio's duration once
// the player has fetched it, else an estimate from its characters at the pace measured so far
// (a line fitted through the lines fetched: seconds per line plus seconds per character; 15
// characters a second until then), plus the planned pause before it. Lines not fetched from the server yet count as the story's average
// line. Time left is at the current speed; time elapsed is the book's own time (at 1×).
import { formatDuration } from "../../shared/dom.js";

const defaultPace = { perLine: 0, perCharacter: 1 / 15 }; // before enough lines are measured

export function timelinePart(view, chapters) {
  const { $ } = view;
  const measured = new Map(); // line index -> seconds of audio (at 1×)
  const sums = { lines: 0, characters: 0, seconds: 0, squares: 0, products: 0 }; // of the lines measured
  let shown = "";

  /** Seconds per line and per character, fitted (least squares) through the lines measured. */
  function pace() {
    const { lines, characters, seconds, squares, products } = sums;
    if (lines < 5 || characters < 200) return defaultPace;
    const spread = lines * squares - characters * characters;
    const perCharacter = spread > 0 ? (lines * products - characters * seconds) / spread : 0;
    const perLine = (seconds - perCharacter * characters) / lines;
    // A fit that makes no sense (few lines, all alike): seconds per character alone.
    return perCharacter > 0 && perLine >= 0 ? { perLine, perCharacter } : { perLine: 0, perCharacter: seconds / characters };
  }

  /** Seconds lines [from, to) last at 1×, pauses included (estimated where not measured). */
  function span(from, to) {
    const store = view.store;
    if (!store || to <= from) return 0;
    const rate = pace();
    let seconds = 0, known = 0, knownPauses = 0;
    for (let index = from; index < to; index += 1) {
      const line = store.get(index);
      if (!line) continue;
      known += 1;
      knownPauses += line.pause_before ?? 0;
      seconds += (measured.get(index) ?? rate.perLine + line.text.length * rate.perCharacter) + (line.pause_before ?? 0);
    }
    const unknown = to - from - known;
    if (unknown > 0) {
      // Lines not fetched yet: the story's average line (the lines around the playhead, which
      // are the ones fetched first, may all be short dialogue).
      const characters = (view.story.character_count ?? 0) / (store.total || 1);
      seconds += unknown * (rate.perLine + characters * rate.perCharacter + (known ? knownPauses / known : 0.5));
    }
    return seconds;
  }

  /** "6 h 3 min", "12 min", "40 s". */
  function roughly(seconds) {
    const minutes = Math.round(seconds / 60);
    if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
    if (minutes < 60) return `${minutes} min`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  function update() {
    const player = view.player;
    const total = view.store?.total ?? 0;
    if (!player || !total) return;
    const index = Math.min(player.index, total - 1);
    const speed = player.speed || 1;
    const inLine = Math.min(player.lineTime, measured.get(index) ?? Infinity);
    const number = chapters.chapterOf(index);
    const chapter = number === null ? null : chapters.chapter(number);
    const first = chapter ? chapter.first_line : 0;
    const end = chapter ? chapter.first_line + chapter.line_count : total;
    const elapsed = span(first, index) + inLine;
    const left = Math.max(0, span(index, end) - inLine);
    const bookElapsed = span(0, index) + inLine;
    const bookLeft = Math.max(0, span(index, total) - inLine);
    const where = chapter ? "the chapter" : "the book";
    const text = `${formatDuration(elapsed)}|${formatDuration(left / speed)}|${roughly(bookLeft / speed)}|${speed}`;
    if (text === shown) return;
    shown = text;
    $("#time-elapsed").textContent = formatDuration(elapsed);
    $("#time-remaining").textContent = `−${formatDuration(left / speed)}`;
    const bar = $("#time-bar");
    bar.value = elapsed + left > 0 ? elapsed / (elapsed + left) : 0;
    bar.setAttribute("aria-label", `Position in ${where}`);
    $("#time-elapsed-label").textContent = ` elapsed in ${where},`;
    $("#time-remaining-label").textContent = ` left in ${where}`;
    $("#time-book").textContent = `Book: ${roughly(bookLeft / speed)} left${speed === 1 ? "" : ` at ${speed}×`}`;
    $("#time-book").title = `${formatDuration(bookElapsed)} of about ${formatDuration(bookElapsed + bookLeft)} at 1× `
      + "(lines not rendered yet are estimated from their text)";
    $("#time-position").hidden = false;
  }

  return {
    update,
    /** The player fetched line `index`: it lasts `seconds` at 1×. */
    measuredLine(index, seconds) {
      const line = view.store?.get(index);
      if (!line || measured.has(index)) return;
      measured.set(index, seconds);
      const characters = line.text.length;
      Object.assign(sums, { lines: sums.lines + 1, characters: sums.characters + characters, seconds: sums.seconds + seconds,
        squares: sums.squares + characters * characters, products: sums.products + characters * seconds });
      update();
    },
    /** The lines changed (a new analysis): what was measured no longer applies. */
    reset() {
      measured.clear();
      Object.assign(sums, { lines: 0, characters: 0, seconds: 0, squares: 0, products: 0 });
      shown = "";
    },
  };
}
