/// Finds the place a person means by a name, an address or "lat,lon". Live (a Nominatim server)
/// and offline (the installed gazetteer) implementations are injected.
public protocol Geocoder: Sendable {
    /// The best place for `query`; throws ``JourneyError`` (`unknownPlace` when there is none).
    func place(for query: String) async throws -> Place

    /// The towns a route passes, in order along it, for its map (none from a geocoder that
    /// cannot list places near a line).
    func towns(along line: [Coordinate], from start: Place, to end: Place) -> [Place]
}

extension Geocoder {
    public func towns(along line: [Coordinate], from start: Place, to end: Place) -> [Place] { [] }
}

/// Works out the route between two places for a travel mode. Live (OSRM servers) and offline
/// (``TripEstimate``) implementations are injected.
public protocol Router: Sendable {
    /// Throws ``JourneyError`` (`noRoute` when the places are not connected).
    func route(from start: Place, to end: Place, mode: TravelMode) async throws -> Route
}
