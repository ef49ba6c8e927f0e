import Foundation
import Journeys
import VendorHTTP

/// The routing and geocoding services named in the environment, or the offline defaults:
///
/// - `STORYVOICE_OSRM_URL_WALKING`, `…_CYCLING`, `…_DRIVING`: an OSRM server per travel mode
///   (a mode without one is estimated offline);
/// - `STORYVOICE_NOMINATIM_URL`: a Nominatim server (else the installed gazetteer);
/// - `STORYVOICE_JOURNEY_TIMEOUT`: seconds for one request (default 10);
/// - `STORYVOICE_JOURNEY_USER_AGENT`: the User-Agent sent (Nominatim's policy asks that it name
///   the application; add a contact for a public server).
public struct JourneyServicesConfiguration: Sendable {
    public static let nominatimVariable = "STORYVOICE_NOMINATIM_URL"
    public static let timeoutVariable = "STORYVOICE_JOURNEY_TIMEOUT"
    public static let userAgentVariable = "STORYVOICE_JOURNEY_USER_AGENT"
    public static let defaultUserAgent = "StoryVoice/0.1 (journeys)"

    public static func osrmVariable(for mode: TravelMode) -> String {
        "STORYVOICE_OSRM_URL_\(mode.rawValue.uppercased())"
    }

    public var routers: [TravelMode: JourneyService]
    public var geocoder: JourneyService?
    /// Seconds for one request; three tries in all for a timeout, a 429 or a 5xx.
    public var timeout: Double
    public var userAgent: String
    /// Shared by every router and geocoder made from this configuration, so a server holds the
    /// limits across requests: four routes at once, one search (Nominatim's policy).
    let routerLimiter = ConcurrencyLimiter(limit: 4)
    let geocoderLimiter = ConcurrencyLimiter(limit: 1)

    public init(routers: [TravelMode: JourneyService] = [:], geocoder: JourneyService? = nil, timeout: Double = 10, userAgent: String = defaultUserAgent) {
        self.routers = routers
        self.geocoder = geocoder
        self.timeout = timeout
        self.userAgent = userAgent
    }

    /// Reads the variables above; a URL that is not http(s), or a timeout that is not a positive
    /// number, is refused with the variable named.
    public init(environment: [String: String]) throws(JourneyError) {
        func url(_ variable: String) throws(JourneyError) -> String? {
            guard let value = environment[variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            guard let parsed = URL(string: value), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
                throw JourneyError(.invalidRequest, "\(variable) is “\(value)”, which is not an http:// or https:// URL.")
            }
            return value
        }
        var routers: [TravelMode: JourneyService] = [:]
        for mode in TravelMode.allCases {
            let variable = Self.osrmVariable(for: mode)
            if let base = try url(variable) { routers[mode] = JourneyService(name: "the \(mode.rawValue) router", baseURL: base, variable: variable) }
        }
        let geocoder = try url(Self.nominatimVariable).map { JourneyService(name: "the geocoder", baseURL: $0, variable: Self.nominatimVariable) }
        var timeout = 10.0
        if let text = environment[Self.timeoutVariable], !text.isEmpty {
            guard let value = Double(text), value > 0, value.isFinite else {
                throw JourneyError(.invalidRequest, "\(Self.timeoutVariable) is “\(text)”; it must be a number of seconds above 0.")
            }
            timeout = value
        }
        let agent = environment[Self.userAgentVariable].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultUserAgent
        self.init(routers: routers, geocoder: geocoder, timeout: timeout, userAgent: agent)
    }

    /// Planning waits on these, so failures are retried briefly: 3 tries, 0.5–4 s apart.
    public static let retry = RetryPolicy(maxAttempts: 3, baseDelay: 0.5, maxDelay: 4, maxRetryAfter: 10)

    func transport(_ limiter: ConcurrencyLimiter) -> VendorTransport {
        VendorTransport(key: nil, timeout: timeout, retry: Self.retry, limiter: limiter)
    }

    /// OSRM for the modes that have a server, the offline estimate for the others.
    public func router() -> any Router {
        ModeRouter(osrm: routers.isEmpty ? nil : OSRMRouter(services: routers, userAgent: userAgent, transport: transport(routerLimiter)))
    }

    /// Nominatim when configured, else the gazetteer
    /// `offline` loads (only then: a configured geocoder never reads it).
    public func geocoder(offline: () throws(JourneyError) -> Gazetteer) throws(JourneyError) -> any Geocoder {
        if let geocoder { return NominatimGeocoder(service: geocoder, userAgent: userAgent, transport: transport(geocoderLimiter)) }
        return GazetteerGeocoder(gazetteer: try offline())
    }
}

/// Routes each mode with OSRM when it has a server, else with ``EstimatingRouter``.
struct ModeRouter: Router {
    var osrm: OSRMRouter?

    func route(from start: Place, to end: Place, mode: TravelMode) async throws -> Route {
        if let osrm, osrm.services[mode] != nil { return try await osrm.route(from: start, to: end, mode: mode) }
        return try await EstimatingRouter().route(from: start, to: end, mode: mode)
    }
}
