import Foundation
import JourneyServices
import Journeys
import Testing

/// The real gazetteer `scripts/setup` extracts into `.models/gazetteer`.
enum InstalledGazetteer {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".models/gazetteer")

    static let shared: Result<Gazetteer, JourneyError> = Result { () throws(JourneyError) in try Gazetteer(directory: directory) }

    static func geocoder() throws -> GazetteerGeocoder {
        GazetteerGeocoder(gazetteer: try shared.get())
    }
}

@Suite struct GazetteerTests {
    @Test(arguments: [
        ("Oxford, UK", "Oxford", "Oxford, England, United Kingdom", 51.75222, -1.25596),
        ("Cambridge", "Cambridge", "Cambridge, England, United Kingdom", 52.2, 0.11667),
        ("cambridge, MA", "Cambridge", "Cambridge, Massachusetts, United States", 42.3751, -71.10561),
        ("Cambridge, Massachusetts, USA", "Cambridge", "Cambridge, Massachusetts, United States", 42.3751, -71.10561),
        ("Oxford, Mississippi", "Oxford", "Oxford, Mississippi, United States", 34.3665, -89.51925),
        ("Cambridge, Ontario", "Cambridge", "Cambridge, Ontario, Canada", 43.3601, -80.31269),
        ("Perth, WA", "Perth", "Perth, Western Australia, Australia", -31.95224, 115.8614),
        ("Cologne", "Köln", "Köln, Germany", 50.93333, 6.95),
        ("Venice", "Venice", "Venice, Italy", 45.43713, 12.33265),
        ("St Petersburg", "Saint Petersburg", "Saint Petersburg, Russia", 59.93863, 30.31413),
        ("zurich", "Zürich", "Zürich, Switzerland", 47.36667, 8.55),
        ("Paris, France", "Paris", "Paris, France", 48.85341, 2.3488),
        ("10 Downing Street, London", "London", "London, England, United Kingdom", 51.50853, -0.12574),
    ])
    func theMostPopulousMatchInTheNamedCountryWins(query: String, name: String, label: String, latitude: Double, longitude: Double) throws {
        let place = try InstalledGazetteer.geocoder().resolve(query)
        #expect(place.name == name)
        #expect(place.label == label)
        #expect(abs(place.latitude - latitude) < 0.01 && abs(place.longitude - longitude) < 0.01, "\(place.coordinate)")
    }

    @Test("a name several places share offers the others, each as words that find it; a qualified or unique one offers none (issue 51)")
    func ambiguousNamesOfferTheirCandidates() throws {
        let geocoder = try InstalledGazetteer.geocoder()
        let cambridge = try geocoder.resolve("Cambridge")
        #expect(cambridge.label == "Cambridge, England, United Kingdom")
        #expect(cambridge.alternatives.contains("Cambridge, Massachusetts, United States"), "\(cambridge.alternatives)")
        #expect(!cambridge.alternatives.contains(cambridge.label ?? ""))
        #expect((1...3).contains(cambridge.alternatives.count))
        for alternative in cambridge.alternatives {
            let chosen = try geocoder.resolve(alternative)
            #expect(chosen.label == alternative)
            #expect(chosen.coordinate != cambridge.coordinate)
        }
        #expect(try geocoder.resolve("Cambridge, MA").alternatives.isEmpty)
        #expect(try geocoder.resolve("Abingdon, UK").alternatives.isEmpty)
    }

    @Test("the towns a route passes are near its line, in order along it, spread out, and neither end (issue 51)")
    func townsAlongTheRoute() throws {
        let geocoder = try InstalledGazetteer.geocoder()
        let oxford = try geocoder.resolve("Oxford, UK"), london = try geocoder.resolve("London, UK")
        let line = [oxford.coordinate, london.coordinate]
        let towns = geocoder.towns(along: line, from: oxford, to: london)
        print("towns from Oxford to London: \(towns.map { $0.label ?? $0.name })")
        #expect((2...5).contains(towns.count), "\(towns.map(\.name))")
        let length = GreatCircle.distance(oxford.coordinate, london.coordinate)
        var last = 0.0
        for town in towns {
            #expect(town.name != "Oxford" && town.name != "London")
            let fromStart = GreatCircle.distance(oxford.coordinate, town.coordinate)
            // Near the line: a detour through the town is at most the corridor's 15 km either side.
            #expect(fromStart + GreatCircle.distance(town.coordinate, london.coordinate) - length < 2 * 15_000, "\(town.name)")
            #expect(fromStart > last, "\(towns.map(\.name)) out of order")
            last = fromStart
        }
        #expect(towns.contains { $0.name == "High Wycombe" }, "\(towns.map(\.name))")
        #expect(geocoder.towns(along: [oxford.coordinate], from: oxford, to: oxford).isEmpty)
    }

    @Test func coordinatesAreTakenAsGiven() throws {
        #expect(try InstalledGazetteer.geocoder().resolve("51.5,-0.12").coordinate == Coordinate(latitude: 51.5, longitude: -0.12))
    }

    @Test("a place given as coordinates is told by the place it is in, or near, never by its numbers (issue 51)", arguments: [
        ("51.7520,-1.2577", "Oxford", "51.75200, -1.25770: Oxford, England, United Kingdom"),
        // 1.3 km from Oxford's centre, in its reach (a city's grows with its people).
        ("51.759, -1.24", "Oxford", "51.75900, -1.24000: Oxford, England, United Kingdom"),
        // Farther from a place than its reach, within three.
        ("57.3,-4.5", "near Drumnadrochit", "57.30000, -4.50000: Drumnadrochit, Scotland, United Kingdom, 4 kilometres south of it"),
        ("51.80,-1.40", "near Eynsham", "51.80000, -1.40000: Eynsham, England, United Kingdom, 2.8 kilometres north-west of it"),
    ])
    func coordinatesAreNamed(query: String, name: String, label: String) throws {
        let place = try InstalledGazetteer.geocoder().resolve(query)
        #expect(place.name == name)
        #expect(place.label == label)
        #expect(place.coordinate == Coordinate(text: query))
    }

    @Test("a point far from any place keeps its coordinates, which the storyteller says in words")
    func farFromAnyPlace() throws {
        let place = try InstalledGazetteer.geocoder().resolve("0,-30")
        #expect(place.name == "0.00000, -30.00000" && place.label == nil)
        #expect(TripWords.spokenName(place) == nil)
    }

    @Test func aNameKnownOnlyElsewhereSaysWhere() throws {
        #expect {
            try InstalledGazetteer.geocoder().resolve("Oxford, Japan")
        } throws: { ($0 as? JourneyError)?.says(.unknownPlace, "“Oxford, Japan”", "only elsewhere", "Oxford, England, United Kingdom") == true }
    }

    @Test func anUnknownQualifierIsNamed() throws {
        #expect {
            try InstalledGazetteer.geocoder().resolve("Cambridge, Narnia")
        } throws: { ($0 as? JourneyError)?.says(.unknownPlace, "“Narnia” is neither a country, a region nor a town") == true }
    }

    /// Issue 51: "Headington, UK" became the village of Uk in Russia (a 1,513-hour walk from Oxford).
    @Test("a country after the name is never taken for a place of that name")
    func aCountryIsNotAPlace() throws {
        #expect {
            try InstalledGazetteer.geocoder().resolve("Qwzxyvillebury, UK")
        } throws: { ($0 as? JourneyError)?.says(.unknownPlace, "No place called “Qwzxyvillebury, UK”") == true }
    }

    @Test("a town after the name picks the place near it, and refuses one that is only far from it")
    func aTownQualifiesByNearness() throws {
        // The more populous Cambridge is in England; the one near Boston is in Massachusetts.
        let cambridge = try InstalledGazetteer.geocoder().resolve("Cambridge, Boston")
        #expect(cambridge.label == "Cambridge, Massachusetts, United States")
        #expect {
            try InstalledGazetteer.geocoder().resolve("Boston, Oxford")
        } throws: { ($0 as? JourneyError)?.says(.unknownPlace, "only elsewhere", "Boston, England") == true }
    }

    /// Issue 51: "Oxford, UK" → "Headington, UK" was refused; a suburb below the towns' floor of
    /// 500 people is found by name from GeoNames' postal localities.
    @Test("a suburb is found by name; with a town after it, the one by that town")
    func suburbsAreFound() throws {
        let geocoder = try InstalledGazetteer.geocoder()
        let headington = try geocoder.resolve("Headington, UK")
        #expect(headington.label == "Headington, England, United Kingdom")
        #expect(GreatCircle.distance(headington.coordinate, Coordinate(latitude: 51.760, longitude: -1.215)) < 1_500)
        // Botley by Oxford, not the more populous one in Hampshire, nor the one 45 km off in Buckinghamshire.
        let botley = try geocoder.resolve("Botley, Oxford, UK")
        #expect(GreatCircle.distance(botley.coordinate, Coordinate(latitude: 51.752, longitude: -1.255)) < 4_000, "\(botley.coordinate)")
        #expect(try geocoder.resolve("Botley, UK").coordinate.latitude < 51, "the town of 2,562 in Hampshire, not a locality")
        // A locality never names a point: Oxford's centre is still Oxford.
        #expect(GazetteerGeocoder.named(Coordinate(latitude: 51.752, longitude: -1.256), by: geocoder.gazetteer).name == "Oxford")
    }

    @Test func anUnknownNameSaysWhatTheGazetteerKnows() throws {
        #expect {
            try InstalledGazetteer.geocoder().resolve("Qwzxyvillebury")
        } throws: {
            // Said to a user, who cannot set the server's variables: no variable is named.
            guard let error = $0 as? JourneyError else { return false }
            return error.says(.unknownPlace, "No place called “Qwzxyvillebury”", "nearest town") && !error.message.contains("STORYVOICE_")
        }
    }

    @Test func aMissingGazetteerSaysToRunSetup() {
        #expect {
            try Gazetteer(directory: URL(fileURLWithPath: "/nonexistent/gazetteer"))
        } throws: { ($0 as? JourneyError)?.says(.gazetteerMissing, "scripts/setup", "STORYVOICE_NOMINATIM_URL") == true }
    }

    @Test func everyNameIsFoundAndItsKeyIsTheOneSwiftComputes() throws {
        // Every 401st line: Python's key (setup) and Swift's must agree, or the binary search misses.
        let text = try String(contentsOf: InstalledGazetteer.directory.appendingPathComponent("places.tsv"), encoding: .utf8)
        let gazetteer = try InstalledGazetteer.shared.get()
        var checked = 0, previous = ""
        for (index, line) in text.split(separator: "\n").enumerated() where index % 401 == 0 {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let key = String(fields[0])
            #expect(Array(previous.utf8).lexicographicallyPrecedes(Array(key.utf8)) || previous == key, "sorted: \(previous) then \(key)")
            previous = key
            if fields[1] == "n" { #expect(PlaceName.key(String(fields[2])) == key, "\(fields[2])") }
            #expect(gazetteer.entries(forKey: key).contains { $0.name == fields[2] && $0.country == fields[3] }, "\(line)")
            checked += 1
        }
        #expect(checked > 900)
    }

    @Test func theFirstAndLastNamesAreFound() throws {
        let text = try String(contentsOf: InstalledGazetteer.directory.appendingPathComponent("places.tsv"), encoding: .utf8)
        let gazetteer = try InstalledGazetteer.shared.get()
        let lines = text.split(separator: "\n")
        for line in [lines.first!, lines.last!] {
            #expect(!gazetteer.entries(forKey: String(line.split(separator: "\t")[0])).isEmpty, "\(line)")
        }
        #expect(gazetteer.entries(forKey: "").isEmpty)
        #expect(gazetteer.entries(forKey: "zzzzzzzzzzzz").isEmpty)
    }

    @Test func oxfordToCambridgeOfflineIsAboutTwoHoursDriving() async throws {
        let plan = try await JourneyPlanner.plan(from: "Oxford, UK", to: "Cambridge, UK", mode: .driving, geocoder: InstalledGazetteer.geocoder(), router: EstimatingRouter())
        #expect((105...120).contains(plan.parts))
        #expect(plan.route.source == .estimate)
        await #expect {
            try await JourneyPlanner.plan(from: "Oxford", to: "Oxford, England", mode: .driving, geocoder: InstalledGazetteer.geocoder(), router: EstimatingRouter())
        } throws: { ($0 as? JourneyError)?.kind == .samePlace }
        await #expect {
            try await JourneyPlanner.plan(from: "Oxford, UK", to: "Cambridge, UK", mode: .walking, geocoder: InstalledGazetteer.geocoder(), router: EstimatingRouter())
        } throws: { ($0 as? JourneyError)?.kind == .tooLong }
    }
}
