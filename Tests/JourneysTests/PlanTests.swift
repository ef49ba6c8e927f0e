import Foundation
import Journeys
import Testing

@Suite struct PartCountTests {
    @Test(arguments: [
        (0.0, 1), (1, 1), (59, 1), (60, 1), (61, 2), (119.9, 2), (120, 2), (121, 3), (3599, 60), (3600, 60), (14_399, 240), (14_400, 240),
    ])
    func partsAreMinutesRoundedUp(seconds: Double, parts: Int) {
        #expect(JourneyPlanner.partCount(durationSeconds: seconds) == parts)
    }

    @Test func aDurationThatIsNoNumberStillMakesOnePart() {
        #expect(JourneyPlanner.partCount(durationSeconds: .nan) == 1)
        #expect(JourneyPlanner.partCount(durationSeconds: -5) == 1)
    }
}

@Suite struct WordsPerPartTests {
    @Test func theDefaultPaceFillsAMinuteWith145Words() {
        #expect(JourneyPlanner.wordsPerPart() == 145)
    }

    @Test(arguments: [(120.0, 120), (170.4, 170), (170.5, 171), (0.9, 1)])
    func aVoiceMeasuredPaceSetsTheWords(wordsPerMinute: Double, words: Int) {
        #expect(JourneyPlanner.wordsPerPart(wordsPerMinute: wordsPerMinute) == words)
    }

    @Test func anUnusablePaceFallsBackToTheDefault() {
        #expect(JourneyPlanner.wordsPerPart(wordsPerMinute: 0) == 145)
        #expect(JourneyPlanner.wordsPerPart(wordsPerMinute: -3) == 145)
        #expect(JourneyPlanner.wordsPerPart(wordsPerMinute: .infinity) == 145)
    }
}

@Suite struct PlanTests {
    let oxford = Place(name: "Oxford", latitude: 51.75222, longitude: -1.25596)
    let cambridge = Place(name: "Cambridge", latitude: 52.2, longitude: 0.11667)

    func route(seconds: Double) -> Route {
        Route(distanceMeters: 1000, durationSeconds: seconds, line: [oxford.coordinate, cambridge.coordinate], source: .router)
    }

    @Test func fourHoursExactlyIsAllowed() throws {
        let plan = try JourneyPlanner.plan(start: oxford, end: cambridge, mode: .driving, route: route(seconds: 14_400))
        #expect(plan.parts == 240)
        #expect(plan.wordsPerPart == 145)
        #expect(plan.storySeconds == 14_400)
    }

    @Test func overFourHoursIsRefusedSayingHowLong() {
        #expect {
            try JourneyPlanner.plan(start: oxford, end: cambridge, mode: .walking, route: route(seconds: 14_401))
        } throws: { error in
            guard let error = error as? JourneyError, error.kind == .tooLong else { return false }
            return error.message.contains("4 h 00 min") && error.message.contains("walking") && error.code == "too_long"
        }
        #expect(throws: JourneyError.self) {
            try JourneyPlanner.plan(start: oxford, end: cambridge, mode: .driving, route: route(seconds: 5 * 3600))
        }
    }

    @Test func theMessageForAFiveHourTripSaysFiveHours() {
        let error = JourneyError.tooLong(durationSeconds: 5 * 3600, mode: .driving)
        #expect(error.message.contains("5 h 00 min driving"))
    }

    @Test func aRouteWithoutANumberIsNotPlanned() {
        #expect(throws: JourneyError.self) {
            try JourneyPlanner.plan(start: oxford, end: cambridge, mode: .driving, route: route(seconds: .nan))
        }
    }

    @Test func theVoicePaceIsKept() throws {
        let plan = try JourneyPlanner.plan(start: oxford, end: cambridge, mode: .cycling, route: route(seconds: 61), wordsPerMinute: 160)
        #expect(plan.parts == 2)
        #expect(plan.wordsPerPart == 160)
        #expect(plan.wordsPerMinute == 160)
    }

    @Test func thePlanEncodesWithTheDocumentedFieldNames() throws {
        let plan = try JourneyPlanner.plan(start: oxford, end: cambridge, mode: .driving, route: route(seconds: 600))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(plan), as: UTF8.self)
        for field in ["\"distance_m\":1000", "\"duration_s\":600", "\"parts\":10", "\"words_per_part\":145", "\"lat\":51.75222", "\"lon\":-1.25596"] {
            #expect(json.contains(field), "\(field) in \(json)")
        }
        #expect(try JSONDecoder().decode(JourneyPlan.self, from: encoder.encode(plan)) == plan)
    }
}

@Suite struct SpokenLengthTests {
    @Test(arguments: [(45.0, "45 s"), (60, "1 min"), (150, "2 min 30 s"), (840, "14 min"), (7500, "2 h 05 min"), (14_400, "4 h 00 min")])
    func lengthsReadNaturally(seconds: Double, text: String) {
        #expect(Duration.seconds(seconds).spokenLength == text)
    }
}

/// A place's length is checked before anything looks it up (issue 46: a 900 KB name took
/// seconds of the gazetteer's time while every other request waited).
@Suite struct PlaceLengthTests {
    /// Names every place it is asked for Oxford or Cambridge, and remembers what it was asked.
    final class RecordingGeocoder: Geocoder, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [String] = []
        var queries: [String] { lock.withLock { asked } }

        func place(for query: String) async throws -> Place {
            lock.withLock { asked.append(query) }
            return query.hasPrefix("C") ? Place(name: "Cambridge", latitude: 52.2, longitude: 0.11667) : Place(name: "Oxford", latitude: 51.75222, longitude: -1.25596)
        }
    }

    struct StraightRouter: Router {
        func route(from start: Place, to end: Place, mode: TravelMode) async throws -> Route {
            Route(distanceMeters: 1000, durationSeconds: 600, line: [start.coordinate, end.coordinate], source: .router)
        }
    }

    /// The long texts are built in the test: as arguments they would be printed whole.
    @Test(arguments: ["201 ASCII characters as the start", "900 KB as the end", "201 letters with their accents as marks as the end"])
    func aPlaceOverTheLimitIsRefusedUnasked(_ what: String) async {
        let (start, end, field) = switch what {
        case "201 ASCII characters as the start": (String(repeating: "Oxford, ", count: 25) + "X", "Cambridge", "start")
        case "900 KB as the end": ("Oxford", String(repeating: "Qx, é", count: 150_000), "end")
        default: ("Oxford", String(repeating: "a\u{301}", count: 201), "end")
        }
        let geocoder = RecordingGeocoder()
        await #expect(throws: JourneyError.placeTooLong.about(field)) {
            try await JourneyPlanner.plan(from: start, to: end, mode: .driving, geocoder: geocoder, router: StraightRouter())
        }
        #expect(geocoder.queries.isEmpty, "the geocoder was asked for \(geocoder.queries.map(\.count)) characters")
        #expect(JourneyError.placeTooLong.message.contains("at most 200 characters"))
    }

    @Test func twoHundredCharactersAreAPlace() async throws {
        let geocoder = RecordingGeocoder()
        // 200 characters of 390 bytes: the limit counts characters, not bytes.
        let name = "Cambridge " + String(repeating: "é", count: 190)
        #expect(name.unicodeScalars.count == PlaceName.maximumLength)
        let plan = try await JourneyPlanner.plan(from: "Oxford", to: name, mode: .driving, geocoder: geocoder, router: StraightRouter())
        #expect(plan.end.name == "Cambridge")
        #expect(geocoder.queries.count == 2)
    }
}
