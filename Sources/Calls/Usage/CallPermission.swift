import Foundation

/// `POST /mobile/check-call-permission`: whether a call may be placed now, and why not.
public struct CallPermission: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        case trialCallAvailable = "trial_call_available"
        case basicCallAvailable = "basic_call_available"
        case premiumCallAvailable = "premium_call_available"
        case addonCallAvailable = "addon_call_available"
        /// The guide's status list says `trial_exhausted`; its app compares with this word, and
        /// shows its upgrade alert only on it (issue 49).
        case trialExhausted = "trial_calls_exhausted"
        case weeklyLimitReached = "weekly_limit_reached"
        case monthlyLimitReached = "monthly_limit_reached"
        case upgradeRequired = "upgrade_required"
    }

    public struct Details: Codable, Equatable, Sendable {
        public var callsRemainingThisWeek: Int?
        public var callsRemainingThisMonth: Int?
        public var durationLimit: Int?
        public var addonCallsRemaining: Int?
        public var trialEnds: String?
        public var appType: String? = "mobile_consumer"
        public var message: String
        public var upgradeOptions: [UpgradeOption]?

        enum CodingKeys: String, CodingKey {
            case callsRemainingThisWeek = "calls_remaining_this_week", callsRemainingThisMonth = "calls_remaining_this_month"
            case durationLimit = "duration_limit", addonCallsRemaining = "addon_calls_remaining", trialEnds = "trial_ends"
            case appType = "app_type", message, upgradeOptions = "upgrade_options"
        }
    }

    public var canMakeCall: Bool
    public var status: Status
    public var details: Details

    enum CodingKeys: String, CodingKey {
        case canMakeCall = "can_make_call", status, details
    }
}

/// A plan to buy, as a refusal offers it.
public struct UpgradeOption: Codable, Equatable, Sendable {
    public var plan: String
    public var price: String
    public var calls: String
    public var productID: String

    enum CodingKeys: String, CodingKey { case plan, price, calls, productID = "product_id" }

    public static let basic = UpgradeOption(plan: "basic", price: "$4.99", calls: "5/week", productID: CallProduct.basicWeekly.rawValue)
    public static let premium = UpgradeOption(plan: "premium", price: "$25.00", calls: "30/month", productID: CallProduct.premiumMonthly.rawValue)
    public static let addon = UpgradeOption(plan: "addon", price: "$4.99", calls: "5 extra", productID: CallProduct.addonCalls.rawValue)
}

extension Allowance {
    /// The permission at this allowance's time.
    public func permission(trialEndsAt: Date) -> CallPermission {
        let plan = subscription?.plan
        var details = CallPermission.Details(
            callsRemainingThisWeek: callsRemainingThisWeek,
            callsRemainingThisMonth: callsRemainingThisMonth,
            durationLimit: durationLimit,
            addonCallsRemaining: addonCallsLeft,
            trialEnds: plan == nil && trialCallsLeft > 0 ? CallDates.string(trialEndsAt) : nil,
            message: ""
        )
        let status = self.status
        details.message = message(for: status)
        if next == nil { details.upgradeOptions = upgradeOptions }
        return CallPermission(canMakeCall: next != nil, status: status, details: details)
    }

    /// Calls left in the week's cycle: basic's allowance, or the trial's (one 7-day cycle); nil on premium.
    public var callsRemainingThisWeek: Int? {
        switch subscription?.plan {
        case .basic: subscriptionCallsLeft
        case .premium: nil
        case .trial, nil: trialCallsLeft
        }
    }

    /// Calls left in premium's 30-day cycle; nil on any other plan.
    public var callsRemainingThisMonth: Int? { subscription?.plan == .premium ? subscriptionCallsLeft : nil }

    public var status: CallPermission.Status {
        switch next {
        case .subscription(.premium, _): return .premiumCallAvailable
        case .subscription: return .basicCallAvailable
        case .trial: return .trialCallAvailable
        case .addon: return .addonCallAvailable
        case .unpaid, nil:
            switch subscription?.plan {
            case .basic: return .weeklyLimitReached
            case .premium: return .monthlyLimitReached
            case .trial, nil: return trialCallsUsed >= CallPlan.trial.callsPerCycle ? .trialExhausted : .upgradeRequired
            }
        }
    }

    /// What to buy from here: a bigger plan, or an addon pack for a subscriber who ran out.
    public var upgradeOptions: [UpgradeOption] {
        switch subscription?.plan {
        case .premium: [.addon]
        case .basic: [.premium, .addon]
        case .trial, nil: [.basic, .premium]
        }
    }

    func message(for status: CallPermission.Status) -> String {
        func calls(_ n: Int) -> String { n == 1 ? "1 call" : "\(n) calls" }
        switch status {
        case .trialCallAvailable: return "You have \(calls(trialCallsLeft)) left in your free trial"
        case .basicCallAvailable: return "You have \(calls(subscriptionCallsLeft)) remaining this week"
        case .premiumCallAvailable: return "You have \(calls(subscriptionCallsLeft)) remaining this month"
        case .addonCallAvailable: return "You have \(calls(addonCallsLeft)) from your addon pack"
        case .trialExhausted: return "Trial calls exhausted. Upgrade to Basic ($4.99/week) for 5 calls per week!"
        case .weeklyLimitReached:
            return "You have used this week's 5 calls. Buy 5 more calls ($4.99) or upgrade to Premium for 30 calls a month."
        case .monthlyLimitReached: return "You have used this month's 30 calls. Buy 5 more calls for $4.99."
        case .upgradeRequired: return "Your free trial has ended. Choose a plan to keep calling."
        }
    }
}

/// The body of a 402 from `make-call`: the spec's `{"detail": {error, message, upgrade_options, timestamp}}`.
public struct PaymentRequired: Codable, Equatable, Sendable, Error {
    public struct Detail: Codable, Equatable, Sendable {
        public var error: String
        public var message: String
        public var upgradeOptions: [UpgradeOption]
        public var timestamp: String

        enum CodingKeys: String, CodingKey { case error, message, upgradeOptions = "upgrade_options", timestamp }
    }

    public var detail: Detail

    public init(permission: CallPermission, now: Date) {
        detail = Detail(
            error: permission.status.rawValue, message: permission.details.message,
            upgradeOptions: permission.details.upgradeOptions ?? [], timestamp: CallDates.string(now))
    }
}
