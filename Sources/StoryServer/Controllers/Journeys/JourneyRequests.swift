import Foundation
import JourneyWorkflows
import Journeys
import Vapor

extension Request {
    /// The journeys use cases for the signed-in user.
    func journeys(_ config: ServerConfig) throws -> JourneyLibrary {
        JourneyLibrary(user: try user(config), routing: config.journeyRouting)
    }

    /// The journey in the `:id` parameter. `plan` and `styles` sit beside `{id}`, so Vapor routes
    /// them here when they are asked with a method they do not take: they answer 405 with
    /// `Allow`, as every other known path asked wrongly does, not "no journey with this id".
    func journeyID() throws -> UUID {
        let raw = parameters.get("id") ?? ""
        if let allowed = JourneysController.fixedPaths[raw] {
            throw APIError.methodNotAllowed(path: url.path, method: method, allowed: allowed)
        }
        return try uuidParameter("id", what: "journey")
    }
}

/// The bodies the journeys routes read. A travel mode left out (or null) is driving; a style left
/// out is fantasy; an empty voice or model is no choice (the defaults).
struct JourneyPlanBody: Decodable {
    var start: String
    var end: String
    var mode: TravelMode?

    var request: JourneyLibrary.PlanRequest {
        JourneyLibrary.PlanRequest(start: start, end: end, mode: mode ?? .driving)
    }
}

struct JourneyStartBody: Decodable {
    var start: String
    var end: String
    var mode: TravelMode?
    var style: String?
    var styleDescription: String?
    var voice: String?
    var model: String?

    enum CodingKeys: String, CodingKey {
        case start, end, mode, style, voice, model
        case styleDescription = "style_description"
    }

    var request: JourneyLibrary.StartRequest {
        var request = JourneyLibrary.StartRequest(start: start, end: end, mode: mode ?? .driving, styleDescription: styleDescription, voice: voice, model: model)
        if let style { request.style = style }
        return request
    }
}

struct PlayheadBody: Decodable {
    var part: Int
    var sentence: Int

    var playhead: Playhead { Playhead(part: part, sentence: sentence) }
}
