import Foundation
import JourneyServices
import Journeys
import TestSupport
import VendorHTTP

/// The places and roads the loopback servers know, and clients pointed at them.
enum Loopbacks {
    static let oxford = Place(name: "Oxford", latitude: 51.7520, longitude: -1.2577)
    static let cambridge = Place(name: "Cambridge", latitude: 52.2053, longitude: 0.1218)
    static let reykjavik = Place(name: "Reykjavík", latitude: 64.14, longitude: -21.92)
    static let farAway = Place(name: "Middle of the Atlantic", latitude: 40, longitude: -40)

    static let stops = [oxford, cambridge, reykjavik].map { OSRMWire.Stop($0.name, latitude: $0.latitude, longitude: $0.longitude) }
    /// Oxford–Cambridge is 135 km in 1 h 50; Reykjavík is on an island of its own.
    static let legs = [OSRMWire.Leg(from: "Oxford", to: "Cambridge", distance: 135_000, duration: 6_600)]
    static let osrm = OSRMWire.handler(stops: stops, legs: legs)

    static let nominatim = NominatimWire.handler([
        .init(query: "Oxford, UK", name: "Oxford", displayName: "Oxford, Oxfordshire, England, United Kingdom", lat: "51.7520131", lon: "-1.2578499"),
        .init(query: "Cambridge, UK", name: "Cambridge", displayName: "Cambridge, Cambridgeshire, England, United Kingdom", lat: "52.2055314", lon: "0.1186637"),
        .init(query: "Reykjavík", name: "Reykjavík", displayName: "Reykjavík, Capital Region, Iceland", lat: "64.1459810", lon: "-21.9422367"),
        .init(query: "Oxford Circus", name: "Oxford Circus", displayName: "Oxford Circus, London, England, United Kingdom", lat: "51.5152", lon: "-0.1418"),
    ])

    /// An answer that comes after every client timeout in these tests.
    static let slowReply = LoopbackReply(status: 200, json: ["code": "Ok"], delay: .seconds(3))

    static func transport(timeout: Double = loopbackTimeout, attempts: Int = 3) -> VendorTransport {
        VendorTransport(key: nil, timeout: timeout, retry: RetryPolicy(maxAttempts: attempts), limiter: ConcurrencyLimiter(limit: 4), sleep: { _ in })
    }

    static func router(_ server: LoopbackServer, mode: TravelMode = .driving, timeout: Double = loopbackTimeout, attempts: Int = 3) -> OSRMRouter {
        let variable = JourneyServicesConfiguration.osrmVariable(for: mode)
        return OSRMRouter(services: [mode: JourneyService(name: "the \(mode.rawValue) router", baseURL: server.baseURL + "/", variable: variable)], transport: transport(timeout: timeout, attempts: attempts))
    }

    static func geocoder(_ server: LoopbackServer, timeout: Double = loopbackTimeout, attempts: Int = 3) -> NominatimGeocoder {
        NominatimGeocoder(service: JourneyService(name: "the geocoder", baseURL: server.baseURL, variable: JourneyServicesConfiguration.nominatimVariable), transport: transport(timeout: timeout, attempts: attempts))
    }

    /// The base URL of a server that has stopped: connections to it are refused.
    static func stoppedServerURL() async throws -> String {
        try await LoopbackServer.withServer { $0.baseURL }
    }
}

extension JourneyError {
    func says(_ kind: Kind, _ phrases: String...) -> Bool {
        self.kind == kind && phrases.allSatisfy { message.contains($0) }
    }
}
