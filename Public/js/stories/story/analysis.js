// Analysis: the Analyse button, the optional AI model (cost shown and confirmed first), AI voice
// suggestions, and the live progress of their jobs with a Cancel button. Every failure (a
// request refused, a job that failed) is shown at once under the Analyse button with what to do
// about it (Settings for a missing or refused key, Try again where that may help).
import { timeLeftEstimator } from "../../shared/progress.js";
import { defaultModels } from "../../shared/models.js";
import { api, followJob, isAbort } from "../../shared/api.js";
import { confirmDialog, el } from "../../shared/dom.js";

const localModel = "qwen2.5-coder-1.5b";

/** "about 4 minutes" for a run of the model on this machine. */
export function duration(seconds) {
  if (seconds == null) return "an unknown time";
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} seconds`;
  if (seconds < 5400) return `about ${Math.round(seconds / 60)} minutes`;
  return `about ${(seconds / 3600).toFixed(1)} hours`;
}

export function money(usd) {
  return usd == null ? "an unknown price" : usd < 0.01 ? `under $0.01` : `about $${usd.toFixed(2)}`;
}

export function analysisPart(view) {
  const { $, signal } = view;
  const on = (selector, type, handler) => $(selector).addEventListener(type, handler, { signal });

  /** The chosen model as `provider:name`, or null for offline only. */
  function chosenModel() {
    const provider = $("#model-provider").value;
    if (!provider) return null;
    if (provider === "local") return "local";
    return `${provider}:${$("#model-name").value.trim() || defaultModels[provider]}`;
  }

  /** Shows what the chosen mode would send and cost, and asks before anything is sent. */
  async function confirmModelAnalysis(llm, mode) {
    const { estimates } = await api(`/api/stories/${view.id}/analyze/estimate`, { method: "POST", json: { llm }, signal });
    const chosen = estimates.find((estimate) => estimate.mode === mode);
    const other = estimates.find((estimate) => estimate.mode !== mode);
    const tokens = (estimate) => (estimate.input_tokens + estimate.output_tokens).toLocaleString();
    if (llm === "local") {
      // It labels worse than the offline analysis, so hybrid asks it for character descriptions only.
      const sent = chosen.lines_sent === 0
        ? "it describes the characters and relabels no line (on the novels measured, its labels were worse than the offline analysis)"
        : `${chosen.lines_sent.toLocaleString()} of ${chosen.dialogue_lines.toLocaleString()} lines`;
      const text = `${mode === "full" ? "Full" : "Hybrid"} analysis with ${localModel}, running on this machine (free, nothing leaves it): `
        + `${sent}, ${duration(chosen.local_seconds)}. `
        + `(${other.mode}: ${duration(other.local_seconds)}.) A model of your own (Settings) is faster. Start?`;
      return confirmDialog(text, "Start");
    }
    const text = `${mode === "full" ? "Full" : "Hybrid"} analysis with ${llm}: ${chosen.lines_sent.toLocaleString()} of `
      + `${chosen.dialogue_lines.toLocaleString()} lines in ${chosen.requests} request(s), ~${tokens(chosen)} tokens, ${money(chosen.cost_usd)}. `
      + `(${other.mode}: ~${tokens(other)} tokens, ${money(other.cost_usd)}.) Send it to your model?`;
    return confirmDialog(text, "Send");
  }

  // ---- Failures, where the user is looking --------------------------------------------------

  const providerNames = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Google Gemini" };

  /** Says what went wrong under the Analyse button, with what to do about it. */
  function showAlert(heading, message, actions = []) {
    const alert = $("#story-alert");
    alert.replaceChildren(el("p", {}, el("strong", {}, heading), " ", message),
      ...actions.map(([label, action]) => typeof action === "string"
        ? el("a", { className: "button", href: action }, label)
        : el("button", { type: "button", className: "secondary small", onclick: action }, label)),
      el("button", { type: "button", className: "secondary small", "aria-label": "Dismiss this message", onclick: () => {
        clearAlert();
        $("#analyze").focus();
      } }, "Dismiss"));
    alert.scrollIntoView({ block: "nearest" });
    performance.mark("storyvoice:story-alert", { detail: { heading } });
  }

  function clearAlert() {
    $("#story-alert").replaceChildren();
  }

  /** What to do about a failure: a sentence and the actions that help (a retry where it may). */
  function advice(error, llm, retry) {
    const message = error?.message ?? String(error ?? "unknown error");
    const provider = providerNames[llm?.split(":")[0]] ?? "your model's provider";
    const settings = ["Open Settings", "#/account"];
    // The server's message may already say what to do; then only the buttons are added.
    const guided = /check|add one|settings|try again/i.test(message);
    const say = (advice) => `${message.replace(/\.?$/, ".")}${guided ? "" : ` ${advice}`}`;
    if (error?.code === "missing_key" || /no .*key|api key is|key is (not )?set|missing.*key/i.test(message)) {
      return [`${say(`Add your ${provider} key in Settings.`)} Or choose “This machine” as the model: free, and nothing leaves it.`, [settings]];
    }
    if (/\b(401|403)\b|unauthori[sz]ed|forbidden|invalid.*key|key.*(refused|invalid|rejected)|incorrect api key/i.test(message)) {
      return [say(`${provider} refused the key: check it in Settings.`), [settings]];
    }
    if (/dns|resolve|host|network|offline|connect|unreachable|timed? ?out/i.test(message)) {
      return [say(`This machine could not reach ${provider}: check its internet connection, then try again.`), retry ? [["Try again", retry]] : []];
    }
    if (/\b429\b|rate.?limit|quota|credit|billing/i.test(message)) {
      return [say(`Your ${provider} account is limited: wait a minute or check its billing, then try again.`), retry ? [["Try again", retry]] : []];
    }
    return [message, retry ? [["Try again", retry]] : []];
  }

  function fail(heading, error, llm, retry) {
    const [text, actions] = advice(error, llm, retry);
    showAlert(heading, text, actions);
  }

  // ---- Jobs: progress, cancel, outcome ---------------------------------------------------------

  /**
   * Follows a job in the progress box with a Cancel button until it ends; resolves with its
   * final snapshot (status "cancelled" once the server says so).
   */
  async function follow(jobId, label) {
    const box = $("#analysis-progress");
    const bar = $("#analysis-bar");
    const status = $("#analysis-status");
    const cancel = $("#analysis-cancel");
    $("#analysis-label").textContent = label;
    box.hidden = false;
    cancel.hidden = false;
    cancel.disabled = false;
    bar.value = 0;
    status.textContent = "Waiting for a worker…";
    $("#analyze").disabled = true;
    $("#suggest-voices").disabled = true;
    let cancelled;
    const whenCancelled = new Promise((resolve) => { cancelled = resolve; });
    const stop = new AbortController();
    const stopFollowing = () => stop.abort();
    signal.addEventListener("abort", stopFollowing, { once: true });
    let pressed = false; // Cancel was pressed: focus goes back to Analyse when it goes
    cancel.onclick = async () => {
      pressed = true;
      cancel.disabled = true;
      status.textContent = "Cancelling…";
      try {
        const job = await api(`/api/jobs/${jobId}/cancel`, { method: "POST", signal });
        if (job?.status === "cancelled") cancelled(job);
        else if (job?.status === "succeeded" || job?.status === "failed") status.textContent = "It had already finished.";
      } catch (error) {
        if (isAbort(error)) return;
        if (error.status === 409) {
          status.textContent = "It had already finished.";
          return;
        }
        cancel.disabled = false;
        status.textContent = "";
        fail("Could not cancel.", error.status === 404 || error.status === 405
          ? { message: "This server cannot cancel jobs yet (it is older than this page)." } : error);
      }
    };
    const timeLeft = timeLeftEstimator();
    try {
      return await Promise.race([
        followJob(jobId, (snapshot) => {
          bar.value = snapshot.progress ?? 0;
          if (snapshot.status === "queued") status.textContent = "Waiting for a worker…";
          else if (snapshot.status === "running") status.textContent = [snapshot.message ?? `${label}…`, timeLeft(snapshot.progress)].filter(Boolean).join(" · ");
        }, { signal: stop.signal }),
        whenCancelled,
      ]);
    } finally {
      stop.abort();
      signal.removeEventListener("abort", stopFollowing);
      const hadFocus = pressed || document.activeElement === cancel;
      cancel.hidden = true;
      cancel.onclick = null;
      $("#analyze").disabled = false;
      $("#suggest-voices").disabled = false;
      if (hadFocus) $("#analyze").focus(); // not lost with the hidden button
      signal.throwIfAborted();
    }
  }

  /** Starts an analysis (a model's, once its cost was confirmed) and follows it to its end. */
  async function analyse(llm, mode) {
    const retry = () => run(() => analyse(llm, mode));
    let job;
    try {
      job = await api(`/api/stories/${view.id}/analyze`, { method: "POST", json: llm ? { llm, mode } : {}, signal });
    } catch (error) {
      if (isAbort(error)) throw error;
      return fail("The analysis did not start.", error, llm, retry);
    }
    await followAnalysis(job.id, llm, retry);
  }

  async function followAnalysis(jobId, llm, retry) {
    const done = await follow(jobId, !llm ? "Analysis" : llm === "local" ? "Analysis with the model on this machine" : `Analysis with ${llm}`);
    const status = $("#analysis-status");
    if (done.status === "succeeded") {
      status.textContent = "Analysis finished." + modelReport(done.result);
      await view.refresh();
    } else if (done.status === "cancelled") {
      await view.refresh(); // what the server kept: the previous analysis, or the offline one if it had finished
      status.textContent = view.reply?.analysis ? "Analysis cancelled. The story keeps its analysis." : "Analysis cancelled. The story is not analysed yet.";
    } else {
      status.textContent = "Analysis failed.";
      $("#analysis-progress").hidden = true; // the alert says it all
      fail("The analysis failed.", { message: done.error ?? "unknown error" }, llm, retry ?? (() => run(() => analyse(llm, $("#model-mode").value))));
    }
  }

  /** Runs a user's action; whatever escapes it is shown in the alert. */
  async function run(action) {
    clearAlert();
    try {
      await action();
    } catch (error) {
      if (!isAbort(error)) fail("Something went wrong.", error);
    }
  }

  on("#model-provider", "change", () => {
    const provider = $("#model-provider").value;
    $("#model-name").placeholder = provider === "local" ? localModel : (defaultModels[provider] ?? "");
    $("#model-name").disabled = provider === "local";
    $("#suggest-voices").hidden = !provider || !view.reply?.analysis;
  });

  on("#analyze", "click", () => run(async () => {
    const llm = chosenModel();
    const mode = $("#model-mode").value;
    if (llm) {
      let confirmed;
      try {
        confirmed = await confirmModelAnalysis(llm, mode);
      } catch (error) {
        if (isAbort(error)) throw error;
        return fail("Could not estimate the cost.", error, llm, () => $("#analyze").click());
      }
      if (!confirmed) return;
    }
    await analyse(llm, mode);
  }));

  async function suggestVoices(llm) {
    const retry = () => run(() => suggestVoices(llm));
    let job;
    try {
      job = await api(`/api/stories/${view.id}/cast/suggest`, { method: "POST", json: { llm }, signal });
    } catch (error) {
      if (isAbort(error)) throw error;
      return fail("Voice suggestion did not start.", error, llm, retry);
    }
    const done = await follow(job.id, llm === "local" ? "Voices from the model on this machine" : `Voices from ${llm}`);
    const status = $("#analysis-status");
    if (done.status === "succeeded") {
      const result = JSON.parse(done.result ?? "{}");
      status.textContent = `Your model chose voices for ${result.suggested ?? 0} of ${result.asked ?? 0} character(s); the others keep the offline casting.`;
      await view.refresh();
    } else if (done.status === "cancelled") {
      await view.refresh();
      status.textContent = "Voice suggestion cancelled.";
    } else {
      status.textContent = "Voice suggestion failed.";
      $("#analysis-progress").hidden = true;
      fail("Voice suggestion failed.", { message: done.error ?? "unknown error" }, llm, retry);
    }
  }

  on("#suggest-voices", "click", () => run(async () => {
    const llm = chosenModel();
    if (!llm) return;
    const speaking = view.reply.analysis.characters.filter((character) => character.lines > 0 && !view.reply.overrides.characters[character.id]);
    const who = llm === "local" ? `${localModel} (on this machine, free, roughly ${duration(speaking.length * 8)})` : llm;
    if (!await confirmDialog(`Ask ${who} to choose voices for ${speaking.length} character(s) (one short request each)? Voices you chose yourself are kept.`, "Ask")) return;
    await suggestVoices(llm);
  }));

  return {
    /** Shows whether the story has an analysis yet. */
    render(analyzed) {
      $("#analyze").textContent = analyzed ? "Analyse again" : "Analyse";
      $("#suggest-voices").hidden = !analyzed || !$("#model-provider").value;
    },
    /** Follows an analysis that was already running when the page opened. */
    async resume() {
      try {
        const { jobs } = await api("/api/jobs", { signal });
        const running = jobs.find((job) => job.kind === "analyze" && (job.status === "queued" || job.status === "running"));
        if (running) await followAnalysis(running.id, null, null);
      } catch (error) {
        if (!isAbort(error)) fail("Could not follow the analysis.", error);
      }
    },
  };
}

/** What the model did, from the analysis job's result, or "" for an offline analysis. */
function modelReport(result) {
  const run = JSON.parse(result ?? "{}");
  if (run.requests === undefined) return "";
  const notes = run.notes?.length ? ` Notes: ${run.notes.join(" ")}` : "";
  return ` Your model labelled ${run.model_labelled} line(s) in ${run.requests} request(s) `
    + `(${(run.input_tokens + run.output_tokens).toLocaleString()} tokens, ${money(run.cost_usd)}).${notes}`;
}
