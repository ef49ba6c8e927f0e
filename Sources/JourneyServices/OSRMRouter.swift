import Foundation
import Journeys
import Logging
import NIOHTTP1
import VendorHTTP

/// A ``Router`` over OSRM's route service (`GET /route/v1/{profile}/{lon},{lat};{lon},{lat}`),
/// one server per travel mode: a stock osrm-routed serves only the profile it was built with.
public struct OSRMRouter: Router {
    /// The server for each mode; a mode without one is not routed here.
    public let services: [TravelMode: JourneyService]
    public let userAgent: String
    let transport: VendorTransport
    let logger: Logger

    public init(
        services: [TravelMode: JourneyService], userAgent: String = JourneyServicesConfiguration.defaultUserAgent, transport: VendorTransport,
        logger: Logger = Logger(label: "storyvoice.journeys.osrm")
    ) {
        self.services = services
        self.userAgent = userAgent
        self.transport = transport
        self.logger = logger
    }

    /// The request path for a trip: OSRM wants longitude first.
    public static func path(from start: Coordinate, to end: Coordinate, mode: TravelMode) -> String {
        func pair(_ point: Coordinate) -> String { String(format: "%.6f,%.6f", point.longitude, point.latitude) }
        return "/route/v1/\(mode.osrmProfile)/\(pair(start));\(pair(end))?overview=full&geometries=geojson&alternatives=false&steps=false"
    }

    public func route(from start: Place, to end: Place, mode: TravelMode) async throws -> Route {
        guard let service = services[mode] else {
            throw JourneyError(.invalidRequest, "No router is configured for \(mode.rawValue) — set \(JourneyServicesConfiguration.osrmVariable(for: mode)).")
        }
        let request = VendorRequest(
            method: .GET, url: service.baseURL + Self.path(from: start.coordinate, to: end.coordinate, mode: mode),
            headers: [("accept", "application/json"), ("user-agent", userAgent)]
        )
        let reply: VendorReply
        do {
            reply = try await transport.send(request, logger: logger, errorMessage: Self.errorMessage)
        } catch {
            if case .requestRejected = error.kind, let (code, message) = Self.codeAndMessage(error.detail) {
                throw Self.error(code: code, message: message, start: start, end: end, mode: mode, service: service)
            }
            throw service.error(for: error)
        }
        return try Self.route(from: reply.body, start: start, end: end, mode: mode, service: service)
    }

    /// Reads a route service answer: `code` "Ok" and the first route's distance (m), duration (s)
    /// and GeoJSON line of [longitude, latitude] pairs.
    static func route(from body: Data, start: Place, end: Place, mode: TravelMode, service: JourneyService) throws -> Route {
        guard let json = JSONValue(parsing: body), let code = json["code"]?.stringValue else {
            throw service.unreadable("not an OSRM answer: no code")
        }
        guard code == "Ok" else {
            throw error(code: code, message: json["message"]?.stringValue, start: start, end: end, mode: mode, service: service)
        }
        guard let first = json["routes"]?[0] else {
            throw error(code: "NoRoute", message: nil, start: start, end: end, mode: mode, service: service)
        }
        guard let distance = first["distance"]?.doubleValue, let duration = first["duration"]?.doubleValue else {
            throw service.unreadable("the route has no distance or duration")
        }
        // An encoded polyline (OSRM's default) here means the server ignored geometries=geojson.
        let geometry = first["geometry"]
        guard geometry == nil || geometry?["coordinates"]?.arrayValue != nil else {
            throw service.unreadable("the route's line is not GeoJSON (ask for geometries=geojson)")
        }
        let points = geometry?["coordinates"]?.arrayValue ?? []
        var line: [Coordinate] = []
        line.reserveCapacity(points.count)
        for point in points {
            guard let longitude = point[0]?.doubleValue, let latitude = point[1]?.doubleValue else {
                throw service.unreadable("the route's line is not GeoJSON [longitude, latitude] pairs (ask for geometries=geojson)")
            }
            line.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        if line.count < 2 { line = [start.coordinate, end.coordinate] }
        return Route(distanceMeters: distance, durationSeconds: duration, line: line, source: .router)
    }

    /// OSRM's error body (`{"code": "NoRoute", "message": "…"}`) kept as "code|message" in the
    /// transport's failure detail, which carries one string.
    static func errorMessage(_ body: Data) -> String? {
        guard let json = JSONValue(parsing: body) else { return nil }
        guard let code = json["code"]?.stringValue else { return json["message"]?.stringValue }
        return "\(code)|\(json["message"]?.stringValue ?? "")"
    }

    static func codeAndMessage(_ detail: String?) -> (String, String?)? {
        guard let detail, let bar = detail.firstIndex(of: "|") else { return nil }
        let code = String(detail[..<bar]), message = String(detail[detail.index(after: bar)...])
        guard !code.isEmpty, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return (code, message.isEmpty ? nil : message)
    }

    static func error(code: String, message: String?, start: Place, end: Place, mode: TravelMode, service: JourneyService) -> JourneyError {
        let said = message.map { " (the router said: \($0))" } ?? ""
        switch code {
        case "NoRoute":
            return JourneyError(.noRoute, "There is no \(mode.rawValue) route from \(start.name) to \(end.name)\(said) — they may be on different islands or continents; choose other places or another way to travel.")
        case "NoSegment":
            return JourneyError(.noRoad, "\(start.name) or \(end.name) is too far from any road or path \(service.name) knows\(said) — choose a point nearer a road, or check that \(service.variable) serves this region.")
        case "TooBig":
            return JourneyError(.invalidRequest, "\(service.name.capitalizedFirst) refused the trip as too big (TooBig)\(said).")
        case "InvalidUrl", "InvalidService", "InvalidVersion", "InvalidOptions", "InvalidQuery", "InvalidValue":
            return JourneyError(.invalidRequest, "\(service.name.capitalizedFirst) at \(service.baseURL) refused the request as \(code)\(said) — check that \(service.variable) points at an OSRM server.")
        default:
            return JourneyError(.serviceUnavailable, "\(service.name.capitalizedFirst) at \(service.baseURL) answered \(code)\(said).")
        }
    }
}
