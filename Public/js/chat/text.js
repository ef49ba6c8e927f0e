// Small helpers the chat screens share: text counted as the server counts it, ids, settings.

const segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

/** The text's grapheme clusters (what a reader counts as characters; an emoji is one), as the
 * server counts them: the timeline's `typed{count}` and the 2,000-character limit. */
export function graphemes(text) {
  return segmenter ? Array.from(segmenter.segment(text), (part) => part.segment) : Array.from(text);
}

/** An id for a new person or message (the server keeps the ids the page makes). */
export function newID() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const formats = [
  { id: "tiktok", name: "TikTok 9:16", width: 1080, height: 1920 },
  { id: "instagram", name: "Instagram 1:1", width: 1080, height: 1080 },
  { id: "youtube", name: "YouTube 16:9", width: 1920, height: 1080 },
];

export const speeds = [
  { id: "slow", name: "Slow" },
  { id: "normal", name: "Normal" },
  { id: "fast", name: "Fast" },
];

/** Export settings as query parameters (the timeline takes the same settings as the export). */
export function settingsQuery(settings) {
  return new URLSearchParams(Object.entries(settings).map(([key, value]) => [key, String(value)])).toString();
}

/** "Message 3 is …": the 0-based index of the message a server message names, or null. */
export function messageIndexIn(text) {
  const found = /^Message (\d+)\b/.exec(text ?? "");
  return found ? Number(found[1]) - 1 : null;
}

/** "a minute ago"-style dates are not worth it here: "26 Nov 2026, 23:40". */
export function when(date) {
  return new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Black or white, whichever reads better on `color` (#RRGGBB): WCAG's relative luminance. */
export function inkOn(color) {
  const channels = (color.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i) ?? [null, "8e", "8e", "93"]).slice(1)
    .map((hex) => parseInt(hex, 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}
