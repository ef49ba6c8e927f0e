// Export: the video's settings (also the animated preview's), the plan (videos left today, the
// watermark, the looks), starting an export and following its job live, then the download, a
// player of the result and a public share link. The latest export of the conversation is shown
// again when the page is opened (and followed if it is still being made).
import { api, followJob, isAbort } from "../shared/api.js";
import { el, formatDuration } from "../shared/dom.js";
import { downloadLink } from "../shared/download.js";
import { formats, messageIndexIn } from "./text.js";
import { premiumCard } from "./premium.js";
import { timeLeftEstimator } from "../shared/progress.js";

const remembered = "storyvoice:chat-export";

export function exportPart(view) {
  const { $, signal } = view;
  const form = $("#chat-export-form");
  const status = $("#chat-export-status");
  const bar = $("#chat-export-bar");
  const start = $("#chat-export-start");
  let current = null; // the export shown
  let following = null; // the export being made

  function say(text, { error = false } = {}) {
    status.textContent = text;
    status.classList.toggle("error", error);
  }

  // Settings, remembered in this browser.
  try {
    const saved = JSON.parse(localStorage.getItem(remembered) ?? "null");
    if (saved) {
      for (const [name, value] of Object.entries(saved)) {
        const field = form.elements[name] ?? $(`#chat-${name}`);
        if (!field) continue;
        if (field.type === "checkbox") field.checked = Boolean(value);
        else if ([...(field.options ?? [])].some((option) => option.value === String(value))) field.value = String(value);
      }
    }
  } catch {
    // A setting from an older page: the defaults stay.
  }

  /** The export settings as the API takes them (dark comes from the look's toggle). */
  function settings() {
    const elements = form.elements;
    return {
      format: elements.format.value,
      typing_speed: elements.typing_speed.value,
      keyboard: elements.keyboard.checked,
      typing_indicator: elements.typing_indicator.checked,
      sounds: elements.sounds.checked,
      dark: $("#chat-dark").checked,
      fps: Number(elements.fps.value),
    };
  }

  form.addEventListener("change", () => {
    localStorage.setItem(remembered, JSON.stringify(settings()));
    view.settingsChanged();
  }, { signal });

  /** "Free plan: 2 of 3 videos left today…", from GET /api/chat/entitlement. */
  function renderPlan() {
    const plan = view.entitlement;
    if (!plan) return;
    const parts = plan.premium
      ? [`Premium${plan.premium_until ? ` until ${new Date(plan.premium_until).toLocaleDateString()}` : ""}: unlimited videos, no watermark, every look, up to ${plan.max_characters} people.`]
      : [`Free plan: ${plan.exports_left_today} of ${plan.daily_export_limit} videos left today.`,
        "Free videos carry a “Made with StoryVoice” watermark;",
        `conversations between ${plan.max_characters} people, in the free look.`];
    $("#chat-plan").textContent = parts.join(" ");
    $("#chat-premium-more").hidden = !!plan.premium;
    if (!plan.premium && !$("#chat-premium").childElementCount) {
      premiumCard({ signal, entitlement: plan }).then((card) => $("#chat-premium").replaceChildren(card ?? "")).catch(() => {});
    }
    start.title = plan.exports_left_today === 0 ? "Today's free videos are used; the server says when the next is possible." : "";
  }

  async function refreshPlan() {
    try {
      view.entitlement = await api("/api/chat/entitlement", { signal });
      renderPlan();
      view.planChanged();
    } catch (error) {
      if (!isAbort(error)) $("#chat-plan").textContent = `The plan could not be read: ${error.message}`;
    }
  }

  function describe(exported) {
    const format = formats.find((entry) => entry.id === exported.settings.format);
    const length = exported.duration_ms ? `${formatDuration(exported.duration_ms / 1000)}, ` : "";
    return `${length}${format ? `${format.width}×${format.height}` : exported.settings.format} at ${exported.settings.fps} fps${exported.settings.watermark ? ", watermarked" : ""}`;
  }

  /** The finished video: download, watch, share. */
  function showResult(exported) {
    current = exported;
    const result = $("#chat-export-result");
    result.hidden = false;
    const link = downloadLink(exported.video_url, { signal, id: "chat-export-download", className: "button",
      onError: (message) => say(message, { error: true }) }, `Download the video (${describe(exported)})`);
    $("#chat-export-download").replaceWith(link);
    const video = $("#chat-export-video");
    // The player fetches with the session cookie: make sure it is fresh first.
    api("/api/me", { signal }).then(() => { video.src = exported.video_url; }).catch(() => {});
    showShare(exported);
  }

  function showShare(exported) {
    const box = $("#chat-share");
    box.hidden = !exported.share_url;
    if (!exported.share_url) return;
    const url = new URL(exported.share_url, location.origin).href;
    $("#chat-share-url").value = url;
    $("#chat-share-open").href = url;
  }

  $("#chat-export-share").addEventListener("click", async () => {
    if (!current) return;
    try {
      current = await api(`/api/chat/exports/${current.id}/share`, { method: "POST", signal });
      showShare(current);
      say("Anyone with the link can watch the video, without an account.");
      $("#chat-share-url").select();
    } catch (error) {
      if (!isAbort(error)) say(`The video could not be shared: ${error.message}`, { error: true });
    }
  }, { signal });

  // Ends the link: whoever has it can no longer watch (sharing again makes a new one).
  $("#chat-share-stop").addEventListener("click", async () => {
    if (!current?.share_url) return;
    try {
      current = await api(`/api/chat/exports/${current.id}/share`, { method: "DELETE", signal });
      showShare(current);
      say("The link no longer works. Share again for a new one.");
      $("#chat-export-share").focus();
    } catch (error) {
      if (!isAbort(error)) say(`The link could not be ended: ${error.message}`, { error: true });
    }
  }, { signal });

  $("#chat-share-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("#chat-share-url").value);
      say("Link copied.");
    } catch {
      $("#chat-share-url").select();
      say("Copy the selected link (Ctrl+C or ⌘C).");
    }
  }, { signal });

  /** Follows an export's job to the end, showing its progress. */
  async function follow(exported) {
    start.disabled = true;
    bar.hidden = false;
    following = exported;
    $("#chat-export-cancel").hidden = !exported.job_id;
    bar.value = exported.progress ?? 0;
    say(exported.status === "queued" ? "Waiting for a worker…" : "Making the video…");
    $("#chat-export-result").hidden = true;
    try {
      const timeLeft = timeLeftEstimator();
      const done = exported.job_id ? await followJob(exported.job_id, (job) => {
        bar.value = job.progress ?? 0;
        bar.textContent = `${Math.round((job.progress ?? 0) * 100)}%`;
        if (job.status === "queued") say("Waiting for a worker…");
        else if (job.status === "running") say([`Making the video… ${Math.round((job.progress ?? 0) * 100)}%`, timeLeft(job.progress)].filter(Boolean).join(" · "));
      }, { signal }) : null;
      // The job has finished; the export says how (read again for a moment if it has not caught up).
      let finished = await api(`/api/chat/exports/${exported.id}`, { signal });
      for (let tries = 0; tries < 20 && (finished.status === "queued" || finished.status === "running") && done?.status === "succeeded"; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        finished = await api(`/api/chat/exports/${exported.id}`, { signal });
      }
      if (finished.status === "succeeded") {
        bar.value = 1;
        say(`The video is ready (${describe(finished)}).`);
        showResult(finished);
      } else if (finished.status === "cancelled") {
        say("Export cancelled; it does not count against today's videos.");
      } else {
        say(`The video was not made: ${finished.error ?? done?.error ?? "the export stopped"}. The conversation is unchanged; export it again.`, { error: true });
      }
    } catch (error) {
      if (!isAbort(error)) say(`Lost track of the export: ${error.message}`, { error: true });
    } finally {
      if (!signal.aborted) {
        following = null;
        $("#chat-export-cancel").hidden = true;
        start.disabled = false;
        bar.hidden = true;
        refreshPlan();
      }
    }
  }

  // Cancelling stops the job; its events then end the follow ("cancelled": not counted today).
  $("#chat-export-cancel").addEventListener("click", async () => {
    if (!following?.job_id) return;
    try {
      await api(`/api/jobs/${following.job_id}/cancel`, { method: "POST", signal });
      say("Cancelling…");
    } catch (error) {
      if (!isAbort(error)) say(`The export could not be cancelled: ${error.message}`, { error: true });
    }
  }, { signal });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    start.disabled = true;
    say("Saving…");
    try {
      if (!await view.flush()) {
        say("The conversation is not saved yet (see above); the video would miss your last changes.", { error: true });
        return;
      }
      say("Starting the export…");
      const exported = await api(`/api/chat/conversations/${view.id}/exports`, { method: "POST", json: settings(), signal });
      await follow(exported);
    } catch (error) {
      if (isAbort(error)) return;
      say(error.message, { error: true });
      const index = messageIndexIn(error.message);
      if (index !== null) view.markMessage(index, error.message);
    } finally {
      if (!signal.aborted && bar.hidden) start.disabled = false;
    }
  }, { signal });

  /** The conversation's latest export, shown (or followed) when the page opens. */
  async function latest() {
    try {
      const { exports } = await api(`/api/chat/exports?conversation_id=${view.id}`, { signal });
      const last = exports[0];
      if (!last) return;
      if (last.status === "queued" || last.status === "running") await follow(last);
      else if (last.status === "succeeded") {
        say(`Your last video (${describe(last)}).`);
        showResult(last);
      }
    } catch (error) {
      if (!isAbort(error)) say(`Earlier videos could not be listed: ${error.message}`, { error: true });
    }
  }

  return { settings, refreshPlan, renderPlan, latest };
}
