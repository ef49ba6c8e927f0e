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
