// What premium brings to chat stories, what it costs and how to get it: any subscription to the
// calls plans, bought in the StoryVoice iPhone app with this account, turns premium on here too
// (docs/chat-stories.md, "Plans"). The prices are the calls product's own (GET /mobile/pricing).
import { api, isAbort } from "../shared/api.js";
import { el } from "../shared/dom.js";

const brings = ["Unlimited videos a day", "No watermark", "All four looks", "Up to 8 people", "Stories written from a prompt", "Videos up to 10 minutes"];

/** The card for a free account; nothing for a premium one. */
export async function premiumCard({ signal, entitlement }) {
  if (entitlement?.premium) return null;
  let cheapest = null;
  try {
    const { plans } = await api("/mobile/pricing", { signal });
    const price = (plan) => Number.parseFloat(plan.price.replace(/[^0-9.]/g, "")) / (plan.billing === "weekly" ? 1 : 4.345);
    cheapest = [...(plans ?? [])].sort((a, b) => price(a) - price(b))[0] ?? null;
  } catch (error) {
    if (isAbort(error)) throw error;
  }
  const per = (billing) => (billing === "weekly" ? "week" : billing === "monthly" ? "month" : billing);
  return el("section", { className: "card premium-card", "aria-labelledby": "premium-title" },
    el("h3", { id: "premium-title" }, "Premium", el("span", { className: "badge" }, cheapest ? `from ${cheapest.price} / ${per(cheapest.billing)}` : "with a calls plan")),
    el("ul", { className: "premium-brings" }, ...brings.map((item) => el("li", {}, item))),
    el("p", { className: "hint" }, "How to get it: subscribe to any StoryVoice calls plan in the iPhone app (App Store), signed in with this account. ",
      "Premium turns on here by itself and lasts as long as the subscription; the calls come with it."));
}
