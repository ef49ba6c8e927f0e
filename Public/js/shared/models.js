// The language models a user can choose wherever something is written (talk, chat stories,
// journeys, the story analysis): the one on this machine, then each provider's default with
// the user's own key from Settings. One list, so a new default model changes everywhere.
import { el } from "./dom.js";

export const providerModels = [
  { id: "openai:gpt-4o-mini", provider: "openai", model: "gpt-4o-mini", name: "OpenAI gpt-4o-mini (your key)" },
  { id: "anthropic:claude-3-5-haiku-latest", provider: "anthropic", model: "claude-3-5-haiku-latest", name: "Anthropic Claude Haiku (your key)" },
  { id: "gemini:gemini-2.0-flash", provider: "gemini", model: "gemini-2.0-flash", name: "Gemini 2.0 Flash (your key)" },
];

/** Each provider's default model: { openai: "gpt-4o-mini", … }. */
export const defaultModels = Object.fromEntries(providerModels.map((entry) => [entry.provider, entry.model]));

/** The <option>s of a model <select>: this machine first (in `local`'s words, value ""), then each provider's. */
export function modelOptions(local = "This machine (free, private)") {
  return [el("option", { value: "" }, local), ...providerModels.map((entry) => el("option", { value: entry.id }, entry.name))];
}
