import Calls
import Foundation
import Persistence

/// `POST /mobile/make-call`'s answer.
public struct MakeCallResponse: Codable, Equatable, Sendable {
    public struct Usage: Codable, Equatable, Sendable {
        public var callsRemainingThisWeek: Int?
        public var callsRemainingThisMonth: Int?
        public var addonCallsRemaining: Int
        public var upgradeRecommended: Bool

        enum CodingKeys: String, CodingKey {
            case callsRemainingThisWeek = "calls_remaining_this_week", callsRemainingThisMonth = "calls_remaining_this_month"
            case addonCallsRemaining = "addon_calls_remaining", upgradeRecommended = "upgrade_recommended"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(callsRemainingThisWeek, forKey: .callsRemainingThisWeek)
            try c.encode(callsRemainingThisMonth, forKey: .callsRemainingThisMonth)
            try c.encode(addonCallsRemaining, forKey: .addonCallsRemaining)
            try c.encode(upgradeRecommended, forKey: .upgradeRecommended)
        }

        init(_ allowance: Allowance) {
            callsRemainingThisWeek = allowance.callsRemainingThisWeek
            callsRemainingThisMonth = allowance.callsRemainingThisMonth
            addonCallsRemaining = allowance.addonCallsLeft
            upgradeRecommended = allowance.upgradeRecommended
        }
    }

    public var callSid: String
    public var status: String
    public var durationLimit: Int
    public var usageStats: Usage

    enum CodingKeys: String, CodingKey {
        case callSid = "call_sid", status, durationLimit = "duration_limit", usageStats = "usage_stats"
    }
}

/// One row of `GET /mobile/call-history`.
public struct CallHistoryItem: Codable, Equatable, Sendable {
    public var id: Int
    public var phoneNumber: String
    public var scenario: String
    public var status: String
    public var createdAt: String
    public var callSid: String
    /// Beyond the spec (the app ignores what it does not decode): seconds connected, once known.
    public var durationSeconds: Int?

    enum CodingKeys: String, CodingKey {
        case id, phoneNumber = "phone_number", scenario, status, createdAt = "created_at", callSid = "call_sid"
        case durationSeconds = "duration_seconds"
    }

    init(_ record: PhoneCallRow) {
        id = record.id
        phoneNumber = record.phoneNumber
        scenario = record.scenarioID
        status = record.status
        createdAt = CallDates.string(record.createdAt)
        // A browser's call has no Twilio SID; the app's struct wants a string.
        callSid = record.callSID ?? ""
        durationSeconds = record.durationSeconds
    }
}

public struct CallHistory: Codable, Equatable, Sendable {
    public var callHistory: [CallHistoryItem]
    public var totalCalls: Int

    enum CodingKeys: String, CodingKey { case callHistory = "call_history", totalCalls = "total_calls" }
}

/// `POST /mobile/schedule-call`'s answer, and a row of the schedule list.
public struct ScheduledCallView: Codable, Equatable, Sendable {
    public var scheduleID: Int
    public var phoneNumber: String
    public var scenario: String
    public var scheduledTime: String
    /// `scheduled`, `placed`, `cancelled`, `failed`.
    public var status: String
    /// Why it failed, or the call it placed.
    public var message: String?
    public var callID: Int?

    enum CodingKeys: String, CodingKey {
        case scheduleID = "schedule_id", phoneNumber = "phone_number", scenario, scheduledTime = "scheduled_time", status, message
        case callID = "call_id"
    }

    init(_ record: ScheduledCallRow) {
        scheduleID = record.id
        phoneNumber = record.phoneNumber
        scenario = record.scenarioID
        scheduledTime = CallDates.string(record.scheduledTime)
        status = record.status
        message = record.message
        callID = record.callID
    }
}

/// A scenario as `GET /mobile/scenarios` lists it: the app's fields, its voice and
/// temperature. The prompt is the server's (built-in) or the author's own (custom, shown only
/// to them).
public struct ScenarioView: Codable, Equatable, Sendable {
    public var id, name, description, icon, category: String
    public var isFamilyFriendly: Bool
    public var voice: String
    public var temperature: Double
    public var isCustom: Bool
    /// A custom scenario's prompt, for its author to edit; nil for built-in ones.
    public var prompt: String?

    enum CodingKeys: String, CodingKey {
        case id, name, description, icon, category, isFamilyFriendly = "is_family_friendly", voice, temperature
        case isCustom = "is_custom", prompt
    }

    public init(_ scenario: CallScenario) {
        id = scenario.id
        name = scenario.name
        description = scenario.description
        icon = scenario.icon
        category = scenario.category.displayName
        isFamilyFriendly = scenario.isFamilyFriendly
        voice = scenario.voice.rawValue
        temperature = scenario.temperature
        isCustom = scenario.category == .custom
        prompt = isCustom ? scenario.instructions.replacingOccurrences(of: "\n\n" + ScenarioCatalog.houseRules, with: "") : nil
    }
}

extension CallScenario.Category {
    /// As the app's `ScenarioCategory` spells it.
    public var displayName: String {
        switch self {
        case .entertainment: "Entertainment"
        case .professional: "Professional"
        case .emergency: "Emergency"
        case .romantic: "Romantic"
        case .family: "Family & Friends"
        case .motivational: "Motivational"
        case .celebration: "Celebration"
        case .custom: "Custom"
        }
    }
}

/// A browser call's ticket: where to open the media stream and the token its `start` carries.
public struct BrowserCallTicket: Codable, Equatable, Sendable {
    public var callID: Int
    public var token: String
    public var mediaStreamPath: String
    public var durationLimit: Int
    public var scenario: ScenarioView

    enum CodingKeys: String, CodingKey {
        case callID = "call_id", token, mediaStreamPath = "media_stream_path", durationLimit = "duration_limit", scenario
    }
}
