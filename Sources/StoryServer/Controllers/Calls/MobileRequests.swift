import CallWorkflows
import Calls
import Foundation
import Vapor

// The mobile app's request bodies, field for field as its integration guide sends them.

struct MakeCallBody: Decodable {
    var phone_number: String
    var scenario: String?
}

struct ScheduleCallBody: Decodable {
    var phone_number: String
    var scenario: String?
    var scheduled_time: String?
}

struct PurchaseBody: Decodable {
    var receipt_data: String
    var is_sandbox: Bool?
    var product_id: String?
    /// The legacy upgrade's field (`mobile_weekly`, `mobile_monthly`).
    var subscription_tier: String?
}

struct CustomScenarioBody: Decodable {
    var name: String
    var description: String?
    var icon: String?
    var prompt: String
    var voice: String
    var temperature: Double?

    var draft: CustomScenarioDraft {
        CustomScenarioDraft(name: name, description: description, icon: icon, prompt: prompt, voice: voice, temperature: temperature)
    }
}

struct BrowserCallBody: Decodable {
    var scenario: String?
}

struct AppStoreNotificationBody: Decodable {
    var signedPayload: String?
}

extension Request {
    func phoneCalls(_ config: ServerConfig) -> PhoneCalls { PhoneCalls(database: appDatabase, services: config.calls, logger: logger) }
    func callAccounts(_ config: ServerConfig) -> CallAccounts { CallAccounts(database: appDatabase, now: config.calls.now) }
    func callScenarios(_ config: ServerConfig) -> CallScenarios { CallScenarios(database: appDatabase, now: config.calls.now) }
    func purchases(_ config: ServerConfig) -> Purchases { Purchases(database: appDatabase, services: config.calls, logger: logger) }
    func scheduledCalls(_ config: ServerConfig) -> ScheduledCalls { ScheduledCalls(database: appDatabase, services: config.calls, logger: logger) }
}
