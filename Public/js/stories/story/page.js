// The story page (#/stories/<id>): analysis with live progress, export, the player bar, the
// chapters and lines (filter, reassign), the cast (voices, previews, edits) and pronunciations.
// Each part is a module beside this one; they share one `view` object that lives as long as the
// screen is mounted and goes with it. The lines come by range (a LineStore): a novel's page is
// usable once its first screenful is in, and the rest arrives in the background.
import { cover } from "../../shared/cover.js";
import { api, APIError } from "../../shared/api.js";
import { $, markup } from "../../shared/dom.js";
import { sessionCache } from "../../shared/session.js";
import { analysisPart } from "./analysis.js";
import { castPart } from "./cast.js";
import { linesPart } from "./lines.js";
import { LineStore } from "./linestore.js";
import { chaptersPart } from "./chapters.js";
import { pronunciationsPart } from "./pronunciations.js";
import { playbackPart } from "./playback.js";
import { exportPart } from "./export.js";

const html = `
<section id="story" aria-labelledby="story-title">
  <div class="story-head">
    <div class="story-cover"></div>
    <div>
      <h2 id="story-title"></h2>
      <p id="story-meta" class="hint"></p>
    </div>
  </div>
  <div class="actions">
    <button type="button" id="analyze">Analyse</button>
  </div>
  <div id="story-alert" class="story-alert" role="alert"></div>
  <section id="export" class="export" aria-labelledby="export-title" hidden>
    <h3 id="export-title" class="visually-hidden">Export</h3>
    <div class="actions">
      <label>Export as <select id="export-format"><option value="m4b">M4B audiobook</option><option value="mp3">MP3</option></select></label>
      <label>Voices <select id="export-voices">
        <option value="fastest">Fastest</option><option value="hours">Ready in about…</option><option value="best">Best</option>
      </select></label>
      <label id="export-hours-label" hidden><input id="export-hours" type="number" min="0.25" max="72" step="0.25" value="2" size="4"> hours</label>
      <button type="button" id="export-start" class="secondary">Export</button>
      <label id="export-progress-label" hidden>Export <progress id="export-bar" max="1" value="0"></progress></label>
      <button type="button" id="export-cancel" class="secondary" hidden>Cancel export</button>
      <span id="export-download-row"></span>
    </div>
    <p role="status" id="export-status" class="hint"></p>
    <p id="export-estimate" class="hint"></p>
  </section>
  <details id="model-choice">
    <summary>Use an AI model (on this machine, or your own with a key from Settings)</summary>
    <p class="hint">The offline analysis always runs first. The model only labels who speaks each line; it never rewrites the story. You see the cost (or, on this machine, the time) before anything is sent.</p>
    <div class="row">
      <label>Model
        <select id="model-provider">
          <option value="">None: offline only</option>
          <option value="local">This machine: free, private, slower</option>
          <option value="openai">OpenAI</option>
          <option value="anthropic">Anthropic</option>
          <option value="gemini">Google Gemini</option>
        </select>
      </label>
      <label>Model name <input id="model-name" type="text" placeholder="gpt-4o-mini" autocomplete="off"></label>
      <label>Mode
        <select id="model-mode">
          <option value="hybrid">Hybrid: only the lines the offline analysis is unsure of</option>
          <option value="full">Full: every line of dialogue</option>
        </select>
      </label>
    </div>
    <div class="actions"><button type="button" id="suggest-voices" class="secondary" hidden>Suggest voices with AI</button></div>
  </details>
  <div id="analysis-progress" hidden>
    <div class="job-row">
      <label><span id="analysis-label">Analysis</span> <progress id="analysis-bar" max="1" value="0"></progress></label>
      <button type="button" id="analysis-cancel" class="secondary small" hidden>Cancel</button>
    </div>
    <p role="status" id="analysis-status"></p>
  </div>

  <section id="player" class="player-bar" aria-labelledby="player-title" hidden>
    <h3 id="player-title" class="visually-hidden">Listen</h3>
    <div class="now">
      <p class="now-where"><span id="now-chapter" hidden></span> <span id="position"></span></p>
      <p id="now-speaking" aria-live="polite">Now speaking: —</p>
      <p id="now-text" class="now-text"></p>
    </div>
    <div class="player-controls">
      <button type="button" id="prev-chapter" class="icon secondary" aria-label="Previous chapter" aria-keyshortcuts="Shift+ArrowLeft" title="Previous chapter (Shift+←)"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 5h2.5v14H5zM19 5v14L8.5 12z"/></svg></button>
      <button type="button" id="prev-line" class="icon secondary" aria-label="Previous line" aria-keyshortcuts="ArrowLeft" title="Previous line (←)">‹</button>
      <button type="button" id="play" aria-keyshortcuts="Space" title="Play or pause (Space)">▶ Play</button>
      <button type="button" id="next-line" class="icon secondary" aria-label="Next line" aria-keyshortcuts="ArrowRight" title="Next line (→)">›</button>
      <button type="button" id="next-chapter" class="icon secondary" aria-label="Next chapter" aria-keyshortcuts="Shift+ArrowRight" title="Next chapter (Shift+→)"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M16.5 5H19v14h-2.5zM5 5v14l10.5-7z"/></svg></button>
      <button type="button" id="stop" class="icon secondary" aria-label="Stop" title="Stop"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6.5 6.5h11v11h-11z"/></svg></button>
    </div>
    <div id="time-position" class="time-position" hidden>
      <span id="time-elapsed" class="time"></span><span id="time-elapsed-label" class="visually-hidden"></span>
      <progress id="time-bar" max="1" value="0"></progress>
      <span id="time-remaining" class="time"></span><span id="time-remaining-label" class="visually-hidden"></span>
      <span id="time-book" class="time-book"></span>
    </div>
    <div class="player-extras">
      <label class="speed">Speed
        <select id="speed">
          <option value="0.75">0.75×</option><option value="1" selected>1×</option>
          <option value="1.25">1.25×</option><option value="1.5">1.5×</option>
          <option value="2">2×</option><option value="3">3×</option>
        </select>
      </label>
      <button type="button" id="show-current" class="link">Show in the text</button>
    </div>
    <p role="status" id="player-status" class="hint"></p>
  </section>

  <section id="lines" aria-labelledby="lines-title" hidden>
    <div class="lines-head">
      <h3 id="lines-title">Lines</h3>
      <label>Show <select id="line-filter"><option value="">Everyone</option></select></label>
      <span id="line-filter-status" class="hint" role="status"></span>
    </div>
    <details id="chapters" class="chapters" hidden>
      <summary id="chapters-count">Chapters</summary>
      <ol id="chapter-list" class="chapter-list"></ol>
    </details>
    <ol id="line-list" class="lines" aria-labelledby="lines-title" tabindex="-1"></ol>
  </section>

  <section id="cast" aria-labelledby="cast-title" hidden>
    <h3 id="cast-title">Cast</h3>
    <ul id="cast-list" class="cards"></ul>
  </section>

  <section id="pronunciation" aria-labelledby="pronunciation-title" hidden>
    <h3 id="pronunciation-title">Pronunciations</h3>
    <p class="hint">One per line, <code>word = how to say it</code> (for example <code>Nuttel = Nuttle</code>). For the voices that read phonemes, add them after a bar: <code>Framton = FRAM-tun | espeak-ng [[fr'amt@n]] | piper [[fɹˈæmtən]]</code>; other voices use the respelling. The story's text never changes; only the lines these words change are rendered again.</p>
    <label class="block">Pronunciation lexicon <textarea id="lexicon" rows="3" spellcheck="false"></textarea></label>
    <div class="actions"><button type="button" id="lexicon-save">Save pronunciations</button></div>
    <p role="status" id="lexicon-status"></p>
  </section>

</section>`;

// The voice list, kept while the user is signed in (the shell empties it at sign-out).
const voiceCache = sessionCache();

export default function storyScreen() {
  let parts = null;

  return {
    async mount(container, { id }, { signal, setTitle, showProblem }) {
      container.replaceChildren(markup(`<p class="hint" role="status">Loading the story…</p>`));
      // The lines around the remembered position and the analysis are asked for at once, beside
      // the story (a story not analysed yet answers no lines; that answer is dropped).
      const remembered = Number(localStorage.getItem(`storyvoice:position:${id}`)) || 0;
      let early = newStore(remembered);
      let earlyReply = api(`/api/stories/${encodeURIComponent(id)}/analysis?segments=false`, { signal });
      earlyReply.catch(() => {}); // a story that cannot be loaded says so below
      let story;
      try {
        story = await api(`/api/stories/${encodeURIComponent(id)}?text=false`, { signal });
      } catch (error) {
        if (!(error instanceof APIError) || error.code === "session_ended") throw error;
        // Nothing of another story stays on screen: the reason takes the page's place.
        const missing = error.status === 404 || error.status === 400;
        showProblem(missing ? "Story not found" : "The story could not be loaded",
          missing ? "There is no such story in your library: it may have been deleted, or the address is wrong." : error.message,
          [["/stories", "Back to your stories"]]);
        return;
      }

      container.replaceChildren(markup(html));
      const root = $("#story", container);
      /** What the parts share while the screen is mounted. */
      const view = {
        id, story, signal,
        $: (selector) => root.querySelector(selector),
        reply: null, // the analysis reply: analysis, cast, overrides, render
        store: null, // the lines, fetched by range (a LineStore)
        get lines() { return this.store?.lines ?? null; }, // the lines fetched so far (sparse)
        voices: null,
        player: null,
        refresh,
      };
      view.$("#story-title").textContent = story.title;
      view.$(".story-cover").replaceChildren(cover(story.title));
      view.$("#story-meta").textContent = [story.author, `${story.character_count.toLocaleString()} characters of text`].filter(Boolean).join(" · ");
      setTitle(story.title);

      const chapters = chaptersPart(view);
      parts = {
        analysis: analysisPart(view),
        cast: castPart(view),
        lines: linesPart(view),
        chapters,
        pronunciations: pronunciationsPart(view),
        playback: playbackPart(view, chapters),
        export: exportPart(view),
      };
      view.keepInView = parts.lines.keepInView;

      /** A store for the lines, with the range around `index` on its way. */
      function newStore(index) {
        const store = new LineStore(id, signal);
        store.first = store.ensure(Math.max(0, index - 20), index + 60);
        store.first.catch(() => {});
        return store;
      }

      /** Reloads analysis, cast and lines, and rebuilds what shows them. */
      async function refresh() {
        const reply = await (earlyReply ?? api(`/api/stories/${id}/analysis?segments=false`, { signal }));
        earlyReply = null;
        view.reply = reply;
        const analyzed = Boolean(reply.analysis);
        parts.analysis.render(analyzed);
        for (const section of ["#player", "#cast", "#pronunciation", "#lines", "#export"]) view.$(section).hidden = !analyzed;
        if (!analyzed) {
          early = null; // lines asked for before an analysis are not the analysis' lines
          return;
        }
        // The new lines replace the old ones once their first range is in (no flash of empty rows).
        const store = (early && await early.first.then(() => early, () => null)) ?? newStore(view.player?.index ?? remembered);
        early = null;
        await store.first;
        view.store?.stop();
        view.store = store;
        parts.lines.attach();
        parts.playback.setUp();
        parts.export.render();
        performance.mark("storyvoice:story-interactive");
        const loading = chapters.load();
        if (!view.voices) view.voices = await voices(view);
        parts.cast.render();
        parts.pronunciations.render();
        await loading;
        parts.playback.showLine();
        // The rest of the lines, for the filter and the chapters, while the reader reads.
        store.loadAll().catch(() => {});
      }

      await refresh();
      if (story.analysis_state === "analyzing") parts.analysis.resume();
    },

    unmount() {
      // Requests, job streams and listeners stop with the shell's signal; the player and what
      // the page set outside its own markup are undone here.
      parts?.playback.dispose();
      parts = null;
    },
  };
}

async function voices(view) {
  if (voiceCache.has("voices")) return voiceCache.get("voices");
  try {
    const list = (await api("/api/voices", { signal: view.signal })).voices;
    voiceCache.set("voices", list);
    return list;
  } catch (error) {
    if (view.signal.aborted || error.code === "session_ended") throw error;
    view.$("#player-status").textContent = error.message;
    return [];
  }
}
