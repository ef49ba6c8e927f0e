import ArgumentParser
import Foundation
import JourneyServices
import Journeys

/// `storyvoice journey`: stories exactly as long as a trip.
struct Journey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Journeys: a story exactly as long as the trip (see docs/journeys.md).",
        subcommands: [JourneyPlanCommand.self, JourneyFind.self]
    )
}

/// The services from the environment, or the offline gazetteer and estimate.
struct JourneyEnvironment {
    let configuration: JourneyServicesConfiguration

    init() throws {
        configuration = try JourneyServicesConfiguration(environment: ProcessInfo.processInfo.environment)
    }

    func geocoder() throws -> any Geocoder {
        try configuration.geocoder { () throws(JourneyError) in try Gazetteer(directory: Gazetteer.defaultDirectory()) }
    }
}

enum JourneyOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

extension TravelMode: ExpressibleByArgument {}

struct JourneyPlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Find both places, the route and the story's plan: distance, duration, parts, words per part.",
        discussion: """
        Example: storyvoice journey plan "Oxford, UK" "Cambridge, UK" --mode driving
        Places are names ("Cambridge", "Cambridge, MA"), or "latitude,longitude". Routing and geocoding use \
        STORYVOICE_OSRM_URL_WALKING/_CYCLING/_DRIVING and STORYVOICE_NOMINATIM_URL when set, else the offline \
        gazetteer (installed by scripts/setup) and an estimate from the straight-line distance.
        """
    )

    @Argument(help: "Where the trip starts.")
    var start: String

    @Argument(help: "Where it ends.")
    var destination: String

    @Option(help: "walking, cycling or driving.")
    var mode: TravelMode = .driving

    @Option(help: "text or json.")
    var format: JourneyOutputFormat = .text

    @Option(name: .customLong("words-per-minute"), help: "The voice's measured pace (default 145).")
    var wordsPerMinute: Double = JourneyPlanner.defaultWordsPerMinute

    func validate() throws {
        guard wordsPerMinute.isFinite, (40...400).contains(wordsPerMinute) else {
            throw ValidationError("--words-per-minute must be between 40 and 400 (a narrator reads 130–170).")
        }
    }

    func run() async throws {
        let environment = try JourneyEnvironment()
        let plan = try await JourneyPlanner.plan(
            from: start, to: destination, mode: mode, geocoder: try environment.geocoder(), router: environment.configuration.router(),
            wordsPerMinute: wordsPerMinute
        )
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(plan), as: UTF8.self))
        case .text:
            print(Self.describe(plan, configuration: environment.configuration))
        }
    }

    static func describe(_ plan: JourneyPlan, configuration: JourneyServicesConfiguration) -> String {
        func place(_ place: Place) -> String {
            let label = place.label.map { $0 == place.name ? "" : " (\($0))" } ?? ""
            return "\(place.name)\(label)  \(place.coordinate.text)"
        }
        let routeSource: String
        switch plan.route.source {
        case .router:
            routeSource = "by \(configuration.routers[plan.mode]?.baseURL ?? "the router")"
        case .estimate:
            let estimate = TripEstimate.forMode(plan.mode)
            routeSource = "estimated offline: straight line × \(estimate.detourFactor); set \(JourneyServicesConfiguration.osrmVariable(for: plan.mode)) for real roads"
        }
        return """
        From      \(place(plan.start))
        To        \(place(plan.end))
        Mode      \(plan.mode.rawValue)
        Distance  \(String(format: "%.1f", plan.route.distanceMeters / 1000)) km (\(routeSource))
        Duration  \(Duration.seconds(plan.route.durationSeconds).spokenLength)
        Story     \(plan.parts) part\(plan.parts == 1 ? "" : "s") of about \(plan.wordsPerPart) words (a minute each at \(Int(plan.wordsPerMinute.rounded())) words a minute)
        """ + (configuration.geocoder == nil ? "\nPlaces    GeoNames (CC BY 4.0), found offline" : "")
    }
}

struct JourneyFind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Show the place each name is found as (one line each; unknown names are reported, the rest still shown).",
        discussion: "Example: storyvoice journey find \"Oxford, UK\" \"Cambridge, MA\" \"51.75,-1.25\""
    )

    @Argument(help: "Place names, or \"latitude,longitude\".")
    var queries: [String]

    func run() async throws {
        let geocoder = try JourneyEnvironment().geocoder()
        var failures = 0
        for query in queries {
            do {
                let place = try await geocoder.place(for: query)
                print("\(query)\t\(place.name)\t\(place.label ?? place.name)\t\(place.coordinate.text)")
            } catch {
                failures += 1
                Terminal.printError("\(error)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
