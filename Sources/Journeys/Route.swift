/// The way from one place to another: how far, how long, and its line (latitude first).
public struct Route: Sendable, Hashable, Codable {
    /// Who worked it out: a routing service along real roads, or the offline estimate.
    public enum Source: String, Sendable, Hashable, Codable {
        case router
        case estimate
    }

    public var distanceMeters: Double
    public var durationSeconds: Double
    public var line: [Coordinate]
    public var source: Source

    public init(distanceMeters: Double, durationSeconds: Double, line: [Coordinate], source: Source) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.line = line
        self.source = source
    }

    private enum CodingKeys: String, CodingKey {
        case distanceMeters = "distance_m"
        case durationSeconds = "duration_s"
        case line
        case source
    }
}
