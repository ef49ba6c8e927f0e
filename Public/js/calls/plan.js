// The plan card: trial or plan, calls left in this cycle, extra (addon) calls, the length of a
// call, and — when the server recommends it or no call is left — the plans, bought in the
// iPhone app (the web takes no payments).
import { isAbort } from "../shared/api.js";
import { el } from "../shared/dom.js";
import { calls, seconds, upgradeWhere, when } from "./common.js";
import { checkPermission, pricing, usageStats } from "./api.js";

const planNames = { mobile_basic: "Basic plan", mobile_premium: "Premium plan" };

/** `onLoaded(permission)` after each load (the call panel shows the plan's call length). */
export function planCard({ signal, onLoaded }) {
  const element = el("section", { id: "calls-plan", className: "card calls-plan", "aria-labelledby": "calls-plan-title", dataset: { state: "loading" } },
    el("h3", { id: "calls-plan-title" }, "Your plan"),
    el("p", { className: "hint" }, "Loading…"));
  let plans = null; // GET /mobile/pricing, once loaded

  async function refresh() {
    try {
      const [usage, permission] = await Promise.all([usageStats(signal), checkPermission(signal)]);
      plans ??= await pricing(signal).catch(() => null);
      draw(usage, permission);
      onLoaded?.(permission);
    } catch (error) {
      if (isAbort(error)) return;
      element.dataset.state = "failed";
      element.replaceChildren(el("h3", { id: "calls-plan-title" }, "Your plan"),
        el("p", { className: "error", role: "alert" }, `Your plan could not be loaded: ${error.message}`));
    }
  }

  function draw(usage, permission) {
    const details = permission.details ?? {};
    const name = usage.is_subscribed ? (planNames[usage.subscription_tier] ?? "Your plan") : usage.is_trial_active ? "Free trial" : "No plan";
    const left = details.calls_remaining_this_month ?? details.calls_remaining_this_week
      ?? (usage.is_trial_active ? usage.trial_calls_remaining : 0);
    const cycle = details.calls_remaining_this_month !== undefined ? "this month"
      : usage.is_subscribed ? "this week" : usage.is_trial_active ? "in your trial" : "";
    const addons = usage.addon_calls_remaining ?? 0;
    Object.assign(element.dataset, { state: "ready", status: permission.status, canCall: String(permission.can_make_call),
      callsLeft: String(left), addonCalls: String(addons) });
    const tile = (label, value, extra, id) => el("div", { className: "calls-stat", id },
      el("dt", {}, label), el("dd", {}, value), extra ? el("dd", { className: "hint" }, extra) : null);
    const upgrade = usage.upgrade_recommended || !permission.can_make_call;
    element.replaceChildren(
      el("div", { className: "calls-plan-head" },
        el("h3", { id: "calls-plan-title" }, name),
        el("span", { className: `calls-badge ${permission.can_make_call ? "ok" : "stop"}` }, permission.can_make_call ? "Ready to call" : "No calls left")),
      el("dl", { className: "calls-stats" },
        tile("Calls left", String(left), cycle, "calls-left"),
        tile("Extra calls", String(addons), addons && usage.addon_calls_expiry ? `until ${when(usage.addon_calls_expiry)}` : "add-on packs"),
        tile("Each call", details.duration_limit ? `up to ${seconds(details.duration_limit)}` : "—", null),
        tile("This week", calls(usage.calls_made_this_week ?? 0), "made")),
      el("p", { id: "calls-plan-message", className: upgrade ? "calls-plan-message warn" : "calls-plan-message" }, details.message ?? ""),
      details.trial_ends ? el("p", { className: "hint" }, `The trial ends ${when(details.trial_ends)}.`) : null,
      plansBlock(upgrade));
  }

  /** The plans: open when an upgrade is recommended, a disclosure otherwise. */
  function plansBlock(open) {
    if (!plans?.plans?.length) return null;
    const cards = el("ul", { className: "calls-plans", "aria-label": "Plans" },
      ...plans.plans.map((plan) => el("li", { className: "calls-plan-option", dataset: { plan: plan.id } },
        el("h4", {}, plan.name),
        el("p", { className: "calls-price" }, plan.price, el("span", { className: "hint" }, ` / ${plan.billing === "monthly" ? "month" : plan.billing === "weekly" ? "week" : plan.billing}`)),
        el("p", {}, `${plan.calls}, ${plan.duration_limit}`),
        plan.features?.length ? el("ul", { className: "hint" }, ...plan.features.map((feature) => el("li", {}, feature))) : null)),
      plans.addon ? el("li", { className: "calls-plan-option", dataset: { plan: "addon" } },
        el("h4", {}, plans.addon.name),
        el("p", { className: "calls-price" }, plans.addon.price),
        el("p", {}, `${plans.addon.calls}, valid ${plans.addon.expires}`),
        plans.addon.description ? el("p", { className: "hint" }, plans.addon.description) : null) : null);
    return el("details", { className: "calls-upgrade", id: "calls-upgrade", open },
      el("summary", {}, open ? "Upgrade in the iPhone app" : "Plans"),
      el("p", { className: "hint" }, upgradeWhere), cards);
  }

  return { element, refresh };
}
