import Foundation
import Journeys
import Logging
import NIOHTTP1
import VendorHTTP

/// A ``Geocoder`` over Nominatim's search (`GET /search?q=…&format=jsonv2&limit=1`). "lat,lon"
/// is read without asking. Nominatim's usage policy asks every application to identify itself
/// with its User-Agent, and the public server to be asked at most once a second: the transport's
/// limiter should hold one request at a time.
public struct NominatimGeocoder: Geocoder {
    public let service: JourneyService
    public let userAgent: String
    let transport: VendorTransport
    let logger: Logger

    public init(service: JourneyService, userAgent: String = JourneyServicesConfiguration.defaultUserAgent, transport: VendorTransport, logger: Logger = Logger(label: "storyvoice.journeys.nominatim")) {
        self.service = service
        self.userAgent = userAgent
        self.transport = transport
        self.logger = logger
    }

    public func place(for query: String) async throws -> Place {
        if let coordinate = Coordinate(text: query) { return Place(name: coordinate.text, coordinate: coordinate) }
        var components = URLComponents()
        components.path = "/search"
        components.queryItems = [
            URLQueryItem(name: "q", value: query), URLQueryItem(name: "format", value: "jsonv2"), URLQueryItem(name: "limit", value: "1"),
        ]
        // URLComponents leaves "+" alone in a query, which a server reads as a space.
        let pathAndQuery = (components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? "")).replacingOccurrences(of: "+", with: "%2B")
        let request = VendorRequest(
            method: .GET, url: service.baseURL + pathAndQuery,
            headers: [("accept", "application/json"), ("user-agent", userAgent), ("accept-language", "en")]
        )
        let reply: VendorReply
        do {
            reply = try await transport.send(request, logger: logger, errorMessage: Self.errorMessage)
        } catch {
            throw service.error(for: error)
        }
        return try Self.place(from: reply.body, query: query, service: service)
    }

    /// The first result of a search answer: `lat` and `lon` as strings, `name` (jsonv2) and
    /// `display_name`; an empty array means nothing matched.
    static func place(from body: Data, query: String, service: JourneyService) throws -> Place {
        guard let results = JSONValue(parsing: body)?.arrayValue else {
            throw service.unreadable("not a Nominatim search answer (a JSON array)")
        }
        guard let first = results.first else {
            throw JourneyError.unknownPlace(query, hint: "\(service.name) found nothing; check the spelling, or add the town and country")
        }
        guard let latitude = first["lat"]?.stringValue.flatMap(Double.init), let longitude = first["lon"]?.stringValue.flatMap(Double.init) else {
            throw service.unreadable("the place has no lat and lon")
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { throw service.unreadable("the place is off the globe (lat \(latitude), lon \(longitude))") }
        let label = first["display_name"]?.stringValue
        let name = first["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            ?? label?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            ?? query
        return Place(name: name, coordinate: coordinate, label: label)
    }

    /// Nominatim's error body: `{"error": {"code": 400, "message": "…"}}` or `{"error": "…"}`.
    static func errorMessage(_ body: Data) -> String? {
        guard let json = JSONValue(parsing: body) else { return nil }
        return json["error"]?["message"]?.stringValue ?? json["error"]?.stringValue
    }
}
