import Foundation

/// What the story for one trip will be: as many parts as the trip has minutes (rounded up), each
/// about a minute of speech in the chosen voice.
public struct JourneyPlan: Sendable, Hashable, Codable {
    public var start: Place
    public var end: Place
    public var mode: TravelMode
    public var route: Route
    public var parts: Int
    public var wordsPerPart: Int
    /// The pace the words were counted for.
    public var wordsPerMinute: Double
    /// Towns along the route, in order, for its map (empty without a gazetteer).
    public var towns: [Place]

    public init(start: Place, end: Place, mode: TravelMode, route: Route, parts: Int, wordsPerPart: Int, wordsPerMinute: Double, towns: [Place] = []) {
        self.start = start
        self.end = end
        self.mode = mode
        self.route = route
        self.parts = parts
        self.wordsPerPart = wordsPerPart
        self.wordsPerMinute = wordsPerMinute
        self.towns = towns
    }

    /// How long the whole story runs when read at `wordsPerMinute`: the trip rounded up to a minute.
    public var storySeconds: Double { Double(parts) * JourneyPlanner.partSeconds }

    /// One flat object, the CLI's `--format json` and the API's alike: `start`, `end`, `mode`,
    /// `distance_m`, `duration_s`, `source`, `line`, `parts`, `words_per_part`, `words_per_minute`,
    /// `towns` (left out when there are none).
    private enum CodingKeys: String, CodingKey {
        case start, end, mode, parts, source, line, towns
        case distanceMeters = "distance_m"
        case durationSeconds = "duration_s"
        case wordsPerPart = "words_per_part"
        case wordsPerMinute = "words_per_minute"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(Place.self, forKey: .start)
        end = try container.decode(Place.self, forKey: .end)
        mode = try container.decode(TravelMode.self, forKey: .mode)
        route = Route(
            distanceMeters: try container.decode(Double.self, forKey: .distanceMeters), durationSeconds: try container.decode(Double.self, forKey: .durationSeconds),
            line: try container.decode([Coordinate].self, forKey: .line), source: try container.decode(Route.Source.self, forKey: .source)
        )
        parts = try container.decode(Int.self, forKey: .parts)
        wordsPerPart = try container.decode(Int.self, forKey: .wordsPerPart)
        wordsPerMinute = try container.decode(Double.self, forKey: .wordsPerMinute)
        towns = try container.decodeIfPresent([Place].self, forKey: .towns) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(mode, forKey: .mode)
        try container.encode(route.distanceMeters, forKey: .distanceMeters)
        try container.encode(route.durationSeconds, forKey: .durationSeconds)
        try container.encode(route.source, forKey: .source)
        try container.encode(route.line, forKey: .line)
        try container.encode(parts, forKey: .parts)
        try container.encode(wordsPerPart, forKey: .wordsPerPart)
        try container.encode(wordsPerMinute, forKey: .wordsPerMinute)
        if !towns.isEmpty { try container.encode(towns, forKey: .towns) }
    }
}

/// The plan as pure functions of the route and the voice.
public enum JourneyPlanner {
    /// One part is a minute of speech: short enough to start within seconds, long enough to say something.
    public static let partSeconds: Double = 60
    /// The design's limit: four hours, 240 parts.
    public static let maximumDuration: Double = 4 * 3600
    /// A calm narrator's pace (audiobooks are read at 140–160 words a minute; local voices here
    /// measure 140–170). Replace it with the chosen voice's measured pace when there is one.
    public static let defaultWordsPerMinute: Double = 145

    /// max(1, ⌈duration / 60 s⌉): a story never ends before the trip does, and a trip of a few
    /// seconds still gets one part.
    public static func partCount(durationSeconds: Double) -> Int {
        guard durationSeconds.isFinite, durationSeconds > 0 else { return 1 }
        return max(1, Int((durationSeconds / partSeconds).rounded(.up)))
    }

    /// The words that fill one part at `wordsPerMinute` (at least one).
    public static func wordsPerPart(wordsPerMinute: Double = defaultWordsPerMinute) -> Int {
        guard wordsPerMinute.isFinite, wordsPerMinute > 0 else { return wordsPerPart() }
        return max(1, Int((wordsPerMinute * partSeconds / 60).rounded()))
    }

    /// The plan for `route`; a trip over four hours, or with no usable duration, is refused.
    public static func plan(start: Place, end: Place, mode: TravelMode, route: Route, wordsPerMinute: Double = defaultWordsPerMinute) throws(JourneyError) -> JourneyPlan {
        guard route.durationSeconds.isFinite, route.durationSeconds >= 0, route.distanceMeters.isFinite, route.distanceMeters >= 0 else {
            throw JourneyError(.serviceUnavailable, "The route came back without a usable distance or duration (\(route.distanceMeters) m, \(route.durationSeconds) s).")
        }
        guard route.durationSeconds <= maximumDuration else { throw .tooLong(durationSeconds: route.durationSeconds, mode: mode) }
        let pace = wordsPerMinute.isFinite && wordsPerMinute > 0 ? wordsPerMinute : defaultWordsPerMinute
        return JourneyPlan(
            start: start, end: end, mode: mode, route: route,
            parts: partCount(durationSeconds: route.durationSeconds), wordsPerPart: wordsPerPart(wordsPerMinute: pace), wordsPerMinute: pace
        )
    }

    /// Places closer than this are the same place: a trip of a few steps has no story.
    public static let samePlaceMeters: Double = 50

    /// Refuses a place over ``PlaceName/maximumLength`` characters, naming its field: done before
    /// any work on the text, since reading a long one through is the cost being refused.
    public static func checkLengths(start: String, end: String) throws(JourneyError) {
        for (text, field) in [(start, "start"), (end, "end")] where PlaceName.isTooLong(text) {
            throw JourneyError.placeTooLong.about(field)
        }
    }

    /// Finds both places, refuses the same place twice, routes, and plans.
    public static func plan(
        from startQuery: String, to endQuery: String, mode: TravelMode,
        geocoder: any Geocoder, router: any Router, wordsPerMinute: Double = defaultWordsPerMinute
    ) async throws -> JourneyPlan {
        try checkLengths(start: startQuery, end: endQuery)
        let startText = startQuery.trimmingCharacters(in: .whitespacesAndNewlines)
        let endText = endQuery.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !startText.isEmpty, !endText.isEmpty else {
            throw JourneyError(.invalidRequest, "Give both a start and a destination (a place name, an address, or “latitude,longitude”).")
        }
        // A place that cannot be found (or a service that fails on it) is named by its field,
        // so a form shows the refusal where it was typed.
        func place(_ text: String, field: String) async throws -> Place {
            do { return try await geocoder.place(for: text) } catch let error as JourneyError { throw error.about(field) }
        }
        async let startPlace = place(startText, field: "start")
        async let endPlace = place(endText, field: "end")
        let (start, end) = try await (startPlace, endPlace)
        guard GreatCircle.distance(start.coordinate, end.coordinate) >= samePlaceMeters else { throw JourneyError.samePlace(start, end) }
        let route = try await router.route(from: start, to: end, mode: mode)
        var plan = try plan(start: start, end: end, mode: mode, route: route, wordsPerMinute: wordsPerMinute)
        plan.towns = geocoder.towns(along: route.line.isEmpty ? [start.coordinate, end.coordinate] : route.line, from: start, to: end)
        return plan
    }
}
