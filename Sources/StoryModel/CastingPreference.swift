/// What automatic casting optimises for, a user's choice: how long they will wait for a book to
/// render on this machine. Every choice casts neural voices where the catalogue has them; the
/// slow ones (Kokoro, slower than real time on a small machine) go to the roles that speak most,
/// as far as the time allows.
///
/// Written as a string everywhere (settings, the API, `narrate --voices`): `fastest`, `best`, or
/// `hours:N` ("ready in about N hours").
public struct CastingPreference: Sendable, Hashable, RawRepresentable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The book renders at least `fastestSpeedup` times faster than it plays.
        case fastest
        /// The book renders in about `hours`.
        case hours
        /// The best voices for every role, however long it takes.
        case best
    }

    public let kind: Kind
    /// For `.hours`: the time allowed, a quarter of an hour to three days.
    public let hours: Double?

    /// "Fastest" renders a book at least this many times faster than it plays.
    public static let fastestSpeedup = 10.0
    public static let hourLimits = 0.25...72.0

    public static let fastest = CastingPreference(kind: .fastest, hours: nil)
    public static let best = CastingPreference(kind: .best, hours: nil)

    /// Ready in about `hours` (clamped to `hourLimits`, rounded to a quarter hour).
    public static func within(hours: Double) -> CastingPreference {
        let clamped = min(max(hours.isFinite ? hours : hourLimits.lowerBound, hourLimits.lowerBound), hourLimits.upperBound)
        return CastingPreference(kind: .hours, hours: (clamped * 4).rounded() / 4)
    }

    private init(kind: Kind, hours: Double?) {
        self.kind = kind
        self.hours = hours
    }

    /// `fastest`, `best` or `hours:N` (N a number of hours within `hourLimits`); anything else is nil.
    public init?(rawValue: String) {
        switch rawValue {
        case "fastest": self = .fastest
        case "best": self = .best
        default:
            guard rawValue.hasPrefix("hours:"), let hours = Double(rawValue.dropFirst("hours:".count)), Self.hourLimits.contains(hours) else {
                return nil
            }
            self = .within(hours: hours)
        }
    }

    public var rawValue: String {
        switch kind {
        case .fastest, .best: kind.rawValue
        case .hours:
            Self.hoursValue(hours ?? Self.hourLimits.lowerBound)
        }
    }

    public var description: String { rawValue }

    /// "hours:2", "hours:2.5".
    private static func hoursValue(_ hours: Double) -> String {
        hours == hours.rounded() ? "hours:\(Int(hours))" : "hours:\(hours)"
    }

    /// Seconds of rendering allowed for a book of `audioSeconds` on this machine; nil: no limit.
    public func renderBudget(audioSeconds: Double) -> Double? {
        switch kind {
        case .fastest: audioSeconds / Self.fastestSpeedup
        case .hours: (hours ?? Self.hourLimits.lowerBound) * 3600
        case .best: nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let preference = CastingPreference(rawValue: raw) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "'\(raw)' is not a choice of voices: use fastest, best or hours:N (N from 0.25 to 72)."))
        }
        self = preference
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
