import Foundation

/// `GET /mobile/usage-stats`: every field of the mobile app's `UsageStats`, nulls included.
public struct UsageStats: Codable, Equatable, Sendable {
    public var appType = "mobile_consumer"
    public var isTrialActive: Bool
    public var trialCallsRemaining: Int
    public var trialCallsUsed: Int
    public var callsMadeToday: Int
    public var callsMadeThisWeek: Int
    public var callsMadeThisMonth: Int
    public var callsMadeTotal: Int
    public var isSubscribed: Bool
    public var subscriptionTier: String?
    public var upgradeRecommended: Bool
    public var totalCallDurationThisWeek: Int
    public var totalCallDurationThisMonth: Int
    public var addonCallsRemaining: Int
    public var addonCallsExpiry: String?
    public var weekStartDate: String
    public var monthStartDate: String

    enum CodingKeys: String, CodingKey {
        case appType = "app_type", isTrialActive = "is_trial_active", trialCallsRemaining = "trial_calls_remaining"
        case trialCallsUsed = "trial_calls_used", callsMadeToday = "calls_made_today"
        case callsMadeThisWeek = "calls_made_this_week", callsMadeThisMonth = "calls_made_this_month"
        case callsMadeTotal = "calls_made_total", isSubscribed = "is_subscribed", subscriptionTier = "subscription_tier"
        case upgradeRecommended = "upgrade_recommended", totalCallDurationThisWeek = "total_call_duration_this_week"
        case totalCallDurationThisMonth = "total_call_duration_this_month", addonCallsRemaining = "addon_calls_remaining"
        case addonCallsExpiry = "addon_calls_expiry", weekStartDate = "week_start_date", monthStartDate = "month_start_date"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appType, forKey: .appType)
        try c.encode(isTrialActive, forKey: .isTrialActive)
        try c.encode(trialCallsRemaining, forKey: .trialCallsRemaining)
        try c.encode(trialCallsUsed, forKey: .trialCallsUsed)
        try c.encode(callsMadeToday, forKey: .callsMadeToday)
        try c.encode(callsMadeThisWeek, forKey: .callsMadeThisWeek)
        try c.encode(callsMadeThisMonth, forKey: .callsMadeThisMonth)
        try c.encode(callsMadeTotal, forKey: .callsMadeTotal)
        try c.encode(isSubscribed, forKey: .isSubscribed)
        try c.encode(subscriptionTier, forKey: .subscriptionTier)
        try c.encode(upgradeRecommended, forKey: .upgradeRecommended)
        try c.encode(totalCallDurationThisWeek, forKey: .totalCallDurationThisWeek)
        try c.encode(totalCallDurationThisMonth, forKey: .totalCallDurationThisMonth)
        try c.encode(addonCallsRemaining, forKey: .addonCallsRemaining)
        try c.encode(addonCallsExpiry, forKey: .addonCallsExpiry)
        try c.encode(weekStartDate, forKey: .weekStartDate)
        try c.encode(monthStartDate, forKey: .monthStartDate)
    }
}

extension CallLedger {
    /// The usage report at `now`. Weeks and months are the caller's own cycles: the
    /// subscription's when one is in force, else counted from the trial's start.
    public func usageStats(at now: Date) -> UsageStats {
        let allowance = allowance(at: now)
        let anchor = allowance.subscription?.anchor ?? trialStartedAt
        let weekStart = Self.cycleStart(anchor: anchor, period: CallPlan.basic.cycle, at: now)
        let monthStart = Self.cycleStart(anchor: anchor, period: CallPlan.premium.cycle, at: now)
        let dayStart = Self.cycleStart(anchor: Date(timeIntervalSince1970: 0), period: CallPlan.day, at: now)
        let placed = calls.filter { $0.placedAt <= now }
        let counted = placed.filter(\.counts)
        func made(since start: Date) -> [LedgerCall] { counted.filter { $0.placedAt >= start } }
        func seconds(_ calls: [LedgerCall]) -> Int { calls.reduce(0) { $0 + ($1.durationSeconds ?? 0) } }
        let isSubscribed = allowance.subscription != nil
        return UsageStats(
            isTrialActive: allowance.trialCallsLeft > 0,
            trialCallsRemaining: allowance.trialCallsLeft,
            trialCallsUsed: allowance.trialCallsUsed,
            callsMadeToday: made(since: dayStart).count,
            callsMadeThisWeek: made(since: weekStart).count,
            callsMadeThisMonth: made(since: monthStart).count,
            // Every call placed, as the call history lists and counts them (`total_calls`); the
            // day, week and month counts are what the plan charged (the app shows them as
            // "2/5"), so a call given back is in the total and not in those.
            callsMadeTotal: placed.count,
            isSubscribed: isSubscribed,
            subscriptionTier: allowance.subscription?.plan.tierName,
            upgradeRecommended: allowance.upgradeRecommended,
            totalCallDurationThisWeek: seconds(made(since: weekStart)),
            totalCallDurationThisMonth: seconds(made(since: monthStart)),
            addonCallsRemaining: allowance.addonCallsLeft,
            addonCallsExpiry: allowance.addons.first?.purchase.expiresAt.map(CallDates.string),
            weekStartDate: CallDates.string(weekStart),
            monthStartDate: CallDates.string(monthStart)
        )
    }
}

extension Allowance {
    /// Nothing left, or a trial down to its last call with nothing else to fall back on.
    public var upgradeRecommended: Bool {
        guard subscription == nil else { return next == nil }
        return addonCallsLeft + trialCallsLeft <= 1
    }
}

/// The API's dates: ISO 8601 in UTC to the second, as the mobile app's examples show.
public enum CallDates {
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    public static func date(_ string: String) -> Date? {
        if let plain = try? Date(string, strategy: Date.ISO8601FormatStyle(timeZone: .gmt)) { return plain }
        return try? Date(string, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
