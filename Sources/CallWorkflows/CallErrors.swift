import Calls
import Platform

/// The calls' refusals that several use cases share (`ServiceError`, the one error type). The
/// calls API answers a malformed or impossible request 400 (its FastAPI contract), not 422.
extension ServiceError {
    static func invalidCall(_ error: CallsError) -> ServiceError {
        switch error {
        case .invalidPhoneNumber(let message): ServiceError(.badRequest, code: "invalid_phone_number", message)
        case .invalidScenario(let message): ServiceError(.badRequest, code: "invalid_scenario", message)
        }
    }

    static func unknownScenario(_ id: String) -> ServiceError {
        ServiceError(.badRequest, code: "unknown_scenario", "There is no scenario \"\(id)\"; GET /mobile/scenarios lists them.")
    }

    static let twilioNotConfigured = ServiceError(
        .unavailable, code: "telephony_not_configured",
        "Phone calls are not available on this server yet. Until they are, try the scenario in the browser from the web app's Calls page. Nothing was counted.")
}
