/// How the listener travels.
public enum TravelMode: String, Sendable, Hashable, Codable, CaseIterable {
    case walking
    case cycling
    case driving

    /// The profile name in an OSRM request path: the names of OSRM's own profiles (`foot.lua`,
    /// `bicycle.lua` as `bike`, `car.lua`). A stock osrm-routed serves the one profile it was built
    /// with whatever the path says, which is why each mode has its own base URL.
    public var osrmProfile: String {
        switch self {
        case .walking: "foot"
        case .cycling: "bike"
        case .driving: "car"
        }
    }
}
