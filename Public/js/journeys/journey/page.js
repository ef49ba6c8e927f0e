// #/journeys/:id — the journey's player, made of the modules beside this one: what it shows
// (display.js), listening as the story is told (listening.js, through js/shared/audio-queue.js),
// the server's side of it (updates.js: the playhead, the journey read again while it is told),
// the lock screen (media-session.js) and the audiobook (download.js). They share one `view`
// object that lives as long as the screen is mounted and goes with it.
import { api, isAbort } from "../../shared/api.js";
import { $, markup } from "../../shared/dom.js";
import { autoplayKey } from "../common.js";
import { routeDrawing } from "../route.js";
import { displayPart } from "./display.js";
import { downloadPart } from "./download.js";
import { listeningPart } from "./listening.js";
import { mediaSessionPart } from "./media-session.js";
import { updatesPart } from "./updates.js";

const html = `
<section id="journey" aria-labelledby="journey-title">
  <p class="back"><a href="#/journeys">← Journeys</a></p>
  <h2 id="journey-title"></h2>
  <p id="journey-meta" class="hint"></p>
  <p id="journey-error" class="error" role="alert" hidden></p>
  <div class="journey-layout">
    <div id="journey-map"></div>
    <div id="journey-player" class="journey-player" data-state="idle">
      <p class="journey-where"><span id="journey-where"></span> <span id="journey-ahead" class="hint"></span></p>
      <div class="journey-controls">
        <button type="button" id="journey-previous" class="secondary icon" aria-label="Previous part" title="Previous part">⏮</button>
        <button type="button" id="journey-play" aria-keyshortcuts="Space">Play</button>
        <button type="button" id="journey-next" class="secondary icon" aria-label="Next part" title="Next part">⏭</button>
        <label class="journey-speed">Speed
          <select id="journey-speed"></select>
        </label>
      </div>
      <p id="journey-status" role="status" aria-live="polite"></p>
      <audio id="journey-audio" preload="auto"></audio>
    </div>
  </div>
  <section class="journey-part" aria-labelledby="journey-text-title">
    <h3 id="journey-text-title">Part 1</h3>
    <p id="journey-text" class="journey-text"></p>
  </section>
  <section class="journey-parts" aria-labelledby="journey-parts-title">
    <h3 id="journey-parts-title">Parts</h3>
    <ol id="journey-parts"></ol>
  </section>
  <section class="journey-export" aria-labelledby="journey-export-title">
    <h3 id="journey-export-title">Download</h3>
    <p class="hint">An audiobook (M4B) of the parts told so far, a chapter per part.</p>
    <div class="actions">
      <button type="button" id="journey-export-start" class="secondary">Download audio</button>
      <progress id="journey-export-bar" max="1" value="0" hidden aria-label="Export progress"></progress>
      <span id="journey-export-link"></span>
    </div>
    <p id="journey-export-status" role="status" aria-live="polite"></p>
  </section>
</section>`;

export default function journeyScreen() {
  let stop = () => {};

  return {
    async mount(container, params, context) {
      const { signal } = context;
      let journey;
      try {
        journey = await api(`/api/journeys/${encodeURIComponent(params.id)}`, { signal });
      } catch (error) {
        if (isAbort(error) || error.code === "session_ended") throw error;
        if (error.status === 404 || error.status === 400) {
          return context.showProblem("Journey not found", "There is no journey of yours at this address: it may have been deleted.", [["/journeys", "Go to your journeys"]]);
        }
        throw error;
      }
      container.replaceChildren(markup(html));

      const view = {
        $: (selector) => $(selector, container),
        signal,
        context,
        journey,
        position: { part: journey.playhead?.part ?? 1, sentence: journey.playhead?.sentence ?? 0 },
        ended: false,
        disposed: false,
        total: () => view.journey.plan.parts,
        partOf: (number) => view.journey.parts.find((part) => part.number === number) ?? null,
        key: (part, sentence) => `${part}:${sentence}`,
      };
      view.drawing = routeDrawing(journey.plan, { label: "The route" });
      view.$("#journey-map").append(view.drawing.element);

      displayPart(view);
      const updates = updatesPart(view);
      const listening = listeningPart(view);
      view.mediaSession = mediaSessionPart(view);
      downloadPart(view);

      // --- Stopping with the screen ----------------------------------------------------------
      view.stop = () => {
        if (view.disposed) return;
        view.disposed = true;
        updates.dispose();
        listening.dispose();
        view.mediaSession.dispose();
      };
      stop = view.stop;
      signal.addEventListener("abort", view.stop, { once: true });

      // --- Start -----------------------------------------------------------------------------
      view.settle();
      view.render();
      view.schedulePoll();
      if (sessionStorage.getItem(autoplayKey) === journey.id) {
        sessionStorage.removeItem(autoplayKey);
        view.play();
      } else if (journey.status === "failed" && !journey.parts.length) {
        view.say(journey.error ?? "This story could not go on.", { error: true });
      } else {
        const begun = view.position.part > 1 || view.position.sentence > 0;
        view.say(begun ? `Press Play to go on from part ${view.position.part}.` : "Press Play to listen.");
      }
    },
    unmount() {
      stop();
    },
  };
}
