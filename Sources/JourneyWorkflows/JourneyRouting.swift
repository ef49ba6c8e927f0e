import Foundation
import JourneyServices
import Journeys

/// Where places and routes come from: the configured Nominatim and OSRM servers, else the
/// offline gazetteer (opened on first use, then shared) and the offline estimate.
public final class JourneyRouting: Sendable {
    public let configuration: JourneyServicesConfiguration
    private let gazetteerDirectory: URL
    private let gazetteer = LockedGazetteer()

    public init(configuration: JourneyServicesConfiguration, gazetteerDirectory: URL = Gazetteer.defaultDirectory()) {
        self.configuration = configuration
        self.gazetteerDirectory = gazetteerDirectory
    }

    /// From `STORYVOICE_OSRM_URL_*`, `STORYVOICE_NOMINATIM_URL` and the rest (docs/journeys.md).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(JourneyError) -> JourneyRouting {
        JourneyRouting(configuration: try JourneyServicesConfiguration(environment: environment), gazetteerDirectory: Gazetteer.defaultDirectory(environment: environment))
    }

    public func router() -> any Router { configuration.router() }

    public func geocoder() throws(JourneyError) -> any Geocoder {
        let directory = gazetteerDirectory, gazetteer = gazetteer
        let geocoder = try configuration.geocoder { () throws(JourneyError) in try gazetteer.open(directory) }
        guard configuration.geocoder != nil else { return geocoder }
        // Nominatim reads "lat,lon" without asking; the gazetteer, when installed, names it.
        return CoordinateNamingGeocoder(base: geocoder) { try? gazetteer.open(directory) }
    }

    /// What the places shown must credit: GeoNames when they come from the offline gazetteer.
    public var attribution: String? {
        configuration.geocoder == nil ? "Places from GeoNames (geonames.org), CC BY 4.0" : nil
    }

    /// Plans a trip with these services.
    public func plan(from start: String, to end: String, mode: TravelMode, wordsPerMinute: Double = JourneyPlanner.defaultWordsPerMinute) async throws -> JourneyPlan {
        try await JourneyPlanner.plan(from: start, to: end, mode: mode, geocoder: try geocoder(), router: router(), wordsPerMinute: wordsPerMinute)
    }
}

/// The gazetteer, opened once.
private final class LockedGazetteer: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: Gazetteer?

    func open(_ directory: URL) throws(JourneyError) -> Gazetteer {
        lock.lock()
        defer { lock.unlock() }
        if let opened { return opened }
        let gazetteer = try Gazetteer(directory: directory)
        opened = gazetteer
        return gazetteer
    }
}
