// Analysis: the Analyse button, the optional AI model (cost shown and confirmed first), AI voice
// suggestions, and the live progress of the analysis job.
import { api, followJob, isAbort } from "../../shared/api.js";
import { confirmDialog } from "../../shared/dom.js";

const defaultModels = { openai: "gpt-4o-mini", anthropic: "claude-3-5-haiku-latest", gemini: "gemini-2.0-flash" };
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
      const text = `${mode === "full" ? "Full" : "Hybrid"} analysis with ${localModel}, running on this machine (free, nothing leaves it): `
        + `${chosen.lines_sent.toLocaleString()} of ${chosen.dialogue_lines.toLocaleString()} lines, ${duration(chosen.local_seconds)}. `
        + `(${other.mode}: ${duration(other.local_seconds)}.) A model of your own (Settings) is faster. Start?`;
      return confirmDialog(text, "Start");
    }
    const text = `${mode === "full" ? "Full" : "Hybrid"} analysis with ${llm}: ${chosen.lines_sent.toLocaleString()} of `
      + `${chosen.dialogue_lines.toLocaleString()} lines in ${chosen.requests} request(s), ~${tokens(chosen)} tokens, ${money(chosen.cost_usd)}. `
      + `(${other.mode}: ~${tokens(other)} tokens, ${money(other.cost_usd)}.) Send it to your model?`;
    return confirmDialog(text, "Send");
  }

  async function follow(jobId) {
    const box = $("#analysis-progress");
    const bar = $("#analysis-bar");
    const status = $("#analysis-status");
    box.hidden = false;
    $("#analyze").disabled = true;
    const job = await followJob(jobId, (snapshot) => {
      bar.value = snapshot.progress;
      status.textContent = snapshot.status === "queued" ? "Waiting for a worker…" : (snapshot.message ?? "Analysing…");
    }, { signal });
    $("#analyze").disabled = false;
    if (job.status === "succeeded") {
      status.textContent = "Analysis finished." + modelReport(job.result);
      await view.refresh();
    } else {
      status.textContent = `Analysis failed: ${job.error ?? "unknown error"}. Try again.`;
    }
  }

  on("#model-provider", "change", () => {
    const provider = $("#model-provider").value;
    $("#model-name").placeholder = provider === "local" ? localModel : (defaultModels[provider] ?? "");
    $("#model-name").disabled = provider === "local";
    $("#suggest-voices").hidden = !provider || !view.reply?.analysis;
  });

  on("#analyze", "click", async () => {
    try {
      const llm = chosenModel();
      const mode = $("#model-mode").value;
      if (llm && !await confirmModelAnalysis(llm, mode)) return;
      const job = await api(`/api/stories/${view.id}/analyze`, { method: "POST", json: llm ? { llm, mode } : {}, signal });
      await follow(job.id);
    } catch (error) {
      if (!isAbort(error)) $("#analysis-status").textContent = error.message;
    }
  });

  on("#suggest-voices", "click", async () => {
    const status = $("#model-status");
    const llm = chosenModel();
    if (!llm) return;
    const speaking = view.reply.analysis.characters.filter((character) => character.lines > 0 && !view.reply.overrides.characters[character.id]);
    const who = llm === "local" ? `${localModel} (on this machine, free, roughly ${duration(speaking.length * 8)})` : llm;
    if (!await confirmDialog(`Ask ${who} to choose voices for ${speaking.length} character(s) (one short request each)? Voices you chose yourself are kept.`, "Ask")) return;
    try {
      $("#suggest-voices").disabled = true;
      const job = await api(`/api/stories/${view.id}/cast/suggest`, { method: "POST", json: { llm }, signal });
      const done = await followJob(job.id, (snapshot) => { status.textContent = snapshot.message ?? "Asking your model…"; }, { signal });
      if (done.status === "succeeded") {
        const result = JSON.parse(done.result ?? "{}");
        status.textContent = `Your model chose voices for ${result.suggested ?? 0} of ${result.asked ?? 0} character(s); the others keep the offline casting.`;
        await view.refresh();
      } else {
        status.textContent = `Voice suggestion failed: ${done.error ?? "unknown error"}.`;
      }
    } catch (error) {
      if (!isAbort(error)) status.textContent = error.message;
    } finally {
      $("#suggest-voices").disabled = false;
    }
  });

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
        if (running) await follow(running.id);
      } catch (error) {
        if (!isAbort(error)) $("#analysis-status").textContent = error.message;
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
