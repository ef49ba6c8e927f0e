// Words and small pieces the Calls screens share: categories, voices, dates, plans.
import { el } from "../shared/dom.js";

/** The categories in the order the app shows them; scenarios of another category go last. */
export const categories = ["Entertainment", "Professional", "Emergency", "Romantic", "Family & Friends", "Motivational", "Celebration", "Custom"];

/** The filters the voice table gives (the server's values, and what to call them). */
export const voiceFilters = [
  { name: "gender", label: "Gender", values: [["male", "Male"], ["female", "Female"]] },
  { name: "accent", label: "Accent", values: [["american", "American"], ["british", "British"]] },
  { name: "personality", label: "Personality", values: [["warm_engaging", "Warm & engaging"], ["energetic_upbeat", "Energetic & upbeat"],
    ["gentle_supportive", "Gentle & supportive"], ["professional_neutral", "Professional & neutral"]] },
];

/** "Alloy" for "alloy" (the voice ids are the Realtime API's). */
export function voiceName(id) {
  return id ? id[0].toUpperCase() + id.slice(1) : "";
}

/** "27 Nov 2026, 07:40". */
export function when(date) {
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? String(date ?? "") : parsed.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** "1 min 5 s", "45 s". */
export function seconds(total) {
  if (!Number.isFinite(total)) return "";
  const s = Math.round(total);
  return s >= 60 ? `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}` : `${s} s`;
}

/** "1 call", "3 calls". */
export function calls(count) {
  return `${count} call${count === 1 ? "" : "s"}`;
}

/** "Completed", "In progress"… from the history's status words. */
export function statusName(status) {
  const names = { initiated: "Started", queued: "Queued", ringing: "Ringing", "in-progress": "In progress", in_progress: "In progress",
    completed: "Completed", busy: "Busy", failed: "Failed", "no-answer": "No answer", canceled: "Cancelled", cancelled: "Cancelled",
    scheduled: "Scheduled", placed: "Placed" };
  return names[status] ?? (status ? status[0].toUpperCase() + status.slice(1).replaceAll(/[_-]/g, " ") : "");
}

/** The upgrade options of a 402 (or of the permission check) as a short list. */
export function upgradeList(options) {
  if (!options?.length) return null;
  return el("ul", { className: "calls-upgrades" }, ...options.map((option) =>
    el("li", {}, el("strong", {}, planName(option.plan)), ` ${option.price ?? ""}`, option.calls ? ` · ${option.calls.replace("/", " a ")}` : "")));
}

function planName(plan) {
  return { basic: "Basic", premium: "Premium", addon: "Extra calls" }[plan] ?? plan ?? "";
}

/** Where purchases happen (the web takes no payments). */
export const upgradeWhere = "Plans are bought in the StoryVoice iPhone app (App Store); they apply here at once.";
