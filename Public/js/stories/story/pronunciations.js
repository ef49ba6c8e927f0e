// Pronunciations: the story's lexicon as lines of "word = respelling | engine [[phonemes]]".
// The server reads the box as it reads a --lexicon file, and names the line that is wrong.
import { api, isAbort } from "../../shared/api.js";

/** One entry as a line of the box: "word = respelling | espeak-ng [[…]] | piper [[…]]". */
function lexiconLine(word, entry) {
  if (typeof entry === "string") return `${word} = ${entry}`;
  const { say, ...phonemes } = entry;
  const parts = Object.entries(phonemes).sort(([a], [b]) => a.localeCompare(b)).map(([engine, notation]) => `${engine} [[${notation}]]`);
  return `${word} = ${[say, ...parts].filter(Boolean).join(" | ")}`;
}

export function pronunciationsPart(view) {
  const { $, signal } = view;

  $("#lexicon-save").addEventListener("click", async () => {
    const status = $("#lexicon-status");
    // Read the box now: a re-render while the lines load below rewrites it from the saved lexicon.
    const text = $("#lexicon").value;
    try {
      await view.store?.loadAll(); // every line, to count those the change renders again
      const before = new Set((view.lines ?? []).filter((line) => line.cached).map((line) => line.index));
      await api(`/api/stories/${view.id}/lexicon`, { method: "PUT", json: { text }, signal });
      await view.refresh();
      await view.store.loadAll();
      const stale = view.lines.filter((line) => before.has(line.index) && !line.cached).length;
      const saved = Object.keys(view.reply.overrides.lexicon ?? {}).length;
      status.textContent = `Saved ${saved} pronunciation(s); ${stale} rendered line(s) will be rendered again.`;
    } catch (error) {
      if (!isAbort(error)) status.textContent = error.message;
    }
  }, { signal });

  return {
    render() {
      const entries = Object.entries(view.reply.overrides.lexicon ?? {}).sort(([a], [b]) => a.localeCompare(b));
      $("#lexicon").value = entries.map(([word, entry]) => lexiconLine(word, entry)).join("\n");
    },
  };
}
