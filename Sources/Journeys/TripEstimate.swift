/// The offline route: the great-circle distance times a detour factor, at a typical speed.
///
/// The figures (see docs/journeys.md): roads and paths are longer than the straight line by
/// about a quarter to a third (circuity studies measure 1.2–1.4 for road networks; footpaths
/// cut more corners than roads). Walking and cycling speeds are those OSRM's own foot and bicycle
/// profiles assume (5 and 15 km/h), so the estimate and a live router agree in spirit. Driving
/// starts and ends in town: the first and last 5 km at 30 km/h, the rest at 80 km/h (a mix of
/// A-roads and motorways); Oxford to Cambridge comes out at 138 km and just under two hours.
public struct TripEstimate: Sendable, Hashable {
    public var detourFactor: Double
    /// Metres a second on the open part of the trip.
    public var speed: Double
    /// Metres of the trip, split between its two ends, at `townSpeed`.
    public var townMeters: Double
    public var townSpeed: Double

    public init(detourFactor: Double, speed: Double, townMeters: Double = 0, townSpeed: Double = 0) {
        self.detourFactor = detourFactor
        self.speed = speed
        self.townMeters = townMeters
        self.townSpeed = townSpeed
    }

    public static func forMode(_ mode: TravelMode) -> TripEstimate {
        switch mode {
        case .walking: TripEstimate(detourFactor: 1.25, speed: kmh(5))
        case .cycling: TripEstimate(detourFactor: 1.3, speed: kmh(15))
        case .driving: TripEstimate(detourFactor: 1.3, speed: kmh(80), townMeters: 10_000, townSpeed: kmh(30))
        }
    }

    static func kmh(_ value: Double) -> Double { value / 3.6 }

    /// The distance along the way, in metres.
    public func distance(from start: Coordinate, to end: Coordinate) -> Double {
        GreatCircle.distance(start, end) * detourFactor
    }

    /// Seconds to travel `distance` metres.
    public func duration(distance: Double) -> Double {
        let town = min(distance, townMeters)
        let townTime = town > 0 ? town / townSpeed : 0
        return townTime + (distance - town) / speed
    }

    public func route(from start: Coordinate, to end: Coordinate) -> Route {
        let distance = distance(from: start, to: end)
        return Route(distanceMeters: distance, durationSeconds: duration(distance: distance), line: GreatCircle.line(from: start, to: end), source: .estimate)
    }
}

/// The offline ``Router``: ``TripEstimate`` for every mode. Never fails.
public struct EstimatingRouter: Router {
    public init() {}

    public func route(from start: Place, to end: Place, mode: TravelMode) async throws -> Route {
        TripEstimate.forMode(mode).route(from: start.coordinate, to: end.coordinate)
    }
}
