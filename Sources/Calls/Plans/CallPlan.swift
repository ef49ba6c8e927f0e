import Foundation

/// The plans a caller can be on, and what each allows. A cycle is counted from the caller's own
/// start (see `CallLedger`), never from a calendar week or month.
public enum CallPlan: String, CaseIterable, Codable, Sendable {
    case trial, basic, premium

    public static let day: TimeInterval = 86_400

    /// Calls allowed in one cycle (the whole trial is one cycle).
    public var callsPerCycle: Int {
        switch self {
        case .trial: 3
        case .basic: 5
        case .premium: 30
        }
    }

    /// The length of one cycle: the trial's 7 days, basic's week, premium's 30-day month.
    public var cycle: TimeInterval {
        switch self {
        case .trial, .basic: 7 * Self.day
        case .premium: 30 * Self.day
        }
    }

    /// Seconds a call may last on this plan.
    public var durationLimit: Int { self == .premium ? 120 : 60 }

    /// The name the mobile app shows and branches on (`mobile_basic`, `mobile_premium`).
    public var tierName: String { "mobile_\(rawValue)" }
}

/// What an App Store product buys.
public enum CallProduct: String, CaseIterable, Codable, Sendable {
    case basicWeekly = "speech_assistant_basic_weekly"
    case premiumMonthly = "speech_assistant_premium_monthly"
    case addonCalls = "speech_assistant_addon_calls"

    /// Addon packs: 5 calls, usable for 30 days from purchase, on the current plan's duration.
    public static let addonCallCount = 5
    public static let addonLifetime: TimeInterval = 30 * CallPlan.day

    /// The plan a subscription product puts the caller on; nil for the addon pack.
    public var plan: CallPlan? {
        switch self {
        case .basicWeekly: .basic
        case .premiumMonthly: .premium
        case .addonCalls: nil
        }
    }

    /// Reads a product id, and the names older clients send for the same products
    /// (`speech_assistant_weekly`, the legacy upgrade's `mobile_weekly`…).
    public init?(productID: String) {
        if let exact = CallProduct(rawValue: productID) {
            self = exact
            return
        }
        switch productID.lowercased() {
        case "speech_assistant_weekly", "mobile_weekly", "mobile_basic", "basic": self = .basicWeekly
        case "speech_assistant_monthly", "mobile_monthly", "mobile_premium", "premium": self = .premiumMonthly
        case "addon", "speech_assistant_addon": self = .addonCalls
        default: return nil
        }
    }
}
