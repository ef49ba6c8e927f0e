import Foundation
import Problems

/// Why a journey cannot be planned, in words a user can act on, with a stable code for the API.
public struct JourneyError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Nothing is called that (or the words after the comma name no country or region known).
        case unknownPlace = "unknown_place"
        /// A place given in more than ``PlaceName/maximumLength`` characters.
        case placeTooLong = "place_too_long"
        /// The start and the destination are the same place.
        case samePlace = "same_place"
        /// The trip takes longer than ``JourneyPlanner/maximumDuration``.
        case tooLong = "too_long"
        /// The places are not connected for this travel mode (OSRM `NoRoute`).
        case noRoute = "no_route"
        /// A place is too far from any road or path (OSRM `NoSegment`).
        case noRoad = "no_road"
        /// The request could not be made as asked (a bad setting, a query a service refused).
        case invalidRequest = "invalid_request"
        /// A routing or geocoding service could not be reached, failed, or answered nonsense.
        case serviceUnavailable = "service_unavailable"
        /// A routing or geocoding service did not answer in time.
        case serviceTimeout = "service_timeout"
        /// The offline gazetteer is not installed.
        case gazetteerMissing = "gazetteer_missing"
        /// An unknown story style, or a description that is missing or too long.
        case invalidStyle = "invalid_style"
    }

    public var kind: Kind
    public var message: String
    /// The request field the refusal is about (`start`, `end`), when it is about one place.
    public var field: String?

    public init(_ kind: Kind, _ message: String, field: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
    }

    /// The same refusal, about `field`.
    public func about(_ field: String) -> JourneyError {
        var error = self
        error.field = field
        return error
    }

    public var code: String { kind.rawValue }
    public var description: String { message }

    public static func unknownPlace(_ query: String, hint: String? = nil) -> JourneyError {
        JourneyError(.unknownPlace, "No place called “\(query)” was found\(hint.map { " — \($0)" } ?? " — check the spelling, add the country (“Oxford, UK”), or give “latitude,longitude”").")
    }

    public static var placeTooLong: JourneyError {
        JourneyError(.placeTooLong, "A place can be at most \(PlaceName.maximumLength) characters — give a town's name (“Oxford, UK”), an address, or “latitude,longitude”.")
    }

    public static func samePlace(_ start: Place, _ end: Place) -> JourneyError {
        let same = start.name == end.name ? "“\(start.name)”" : "“\(start.name)” and “\(end.name)” (the same place)"
        return JourneyError(.samePlace, "The start and the destination are both \(same) — choose a destination somewhere else.")
    }

    public static func tooLong(durationSeconds: Double, mode: TravelMode) -> JourneyError {
        JourneyError(.tooLong, "This trip takes \(Duration.seconds(durationSeconds).spokenLength) \(mode.rawValue); a journey story can be at most \(Duration.seconds(JourneyPlanner.maximumDuration).spokenLength) — choose a nearer destination, or a faster way to travel.")
    }
}

extension Duration {
    /// "2 h 05 min", "14 min", "45 s": how long a trip takes, as the CLI and messages say it.
    public var spokenLength: String {
        let total = Int((Double(components.seconds) + Double(components.attoseconds) / 1e18).rounded())
        let hours = total / 3600, minutes = (total % 3600) / 60, seconds = total % 60
        if hours > 0 { return String(format: "%d h %02d min", hours, minutes) }
        if minutes > 0 { return seconds >= 30 && minutes < 10 ? "\(minutes) min \(seconds) s" : "\(minutes) min" }
        return "\(seconds) s"
    }
}

extension JourneyError: Problem {
    public var problemKind: ProblemKind {
        switch kind {
        case .unknownPlace, .placeTooLong, .samePlace, .tooLong, .noRoute, .noRoad, .invalidStyle: .invalid
        case .invalidRequest: .badRequest
        case .serviceUnavailable, .gazetteerMissing: .unavailable
        case .serviceTimeout: .timeout
        }
    }
}
