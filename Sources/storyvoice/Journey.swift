import ArgumentParser
import Audio
import Foundation
import JourneyServices
import JourneyWorkflows
import Journeys
import LanguageModels
import StoryWorkflows

/// `storyvoice journey`: stories exactly as long as a trip.
struct Journey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Journeys: a story exactly as long as the trip (see docs/journeys.md).",
        subcommands: [JourneyPlanCommand.self, JourneyFind.self, JourneyTell.self]
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

/// Where a trip starts and ends, and how one travels.
struct TripArguments: ParsableArguments {
    @Argument(help: "Where the trip starts.")
    var start: String

    @Argument(help: "Where it ends.")
    var destination: String

    @Option(help: "walking, cycling or driving.")
    var mode: TravelMode = .driving

    /// The plan with the services from the environment.
    func plan(wordsPerMinute: Double = JourneyPlanner.defaultWordsPerMinute) async throws -> JourneyPlan {
        let environment = try JourneyEnvironment()
        return try await JourneyPlanner.plan(
            from: start, to: destination, mode: mode, geocoder: try environment.geocoder(), router: environment.configuration.router(),
            wordsPerMinute: wordsPerMinute)
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

    @OptionGroup var trip: TripArguments

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
        let plan = try await trip.plan(wordsPerMinute: wordsPerMinute)
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

/// `storyvoice journey tell`: the whole story for a trip, written and voiced here, as one audio
/// file with a chapter per part.
struct JourneyTell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tell",
        abstract: "Tell the story for a trip and write it as an audiobook with a chapter per part.",
        discussion: """
        The story has a part for every minute of the trip (see `journey plan`), written by the model and \
        spoken by the voice. Example: storyvoice journey tell "51.7520,-1.2577" "51.7600,-1.2500" --mode walking --style fantasy -o walk.m4b
        """
    )

    @OptionGroup var trip: TripArguments

    @Option(help: "noir, childrens, historical, fantasy or custom (with --style-description).")
    var style: String = "fantasy"

    @Option(name: .customLong("style-description"), help: "Your own description of the story (up to 300 characters).")
    var styleDescription: String?

    @Option(help: "A voice id from `storyvoice voices` (default: the best installed voice that speaks faster than real time).")
    var voice: String?

    @Option(help: "local (the default, on this machine), openai:MODEL, anthropic:MODEL, gemini:MODEL or openai-compatible:MODEL@URL.")
    var model: String = "local"

    @Option(name: .shortAndLong, help: "The audio file to write (.m4b, .m4a, .mp3 or .wav).")
    var output: String

    func validate() throws {
        guard let format = AudioFormat(fileExtension: URL(fileURLWithPath: output).pathExtension), format != .opus else {
            throw ValidationError("'\(output)': the output must end in .m4b, .m4a, .mp3 or .wav.")
        }
    }

    func run() async throws {
        let storyStyle = try StoryStyle(id: style, description: styleDescription)
        let plan = try await trip.plan()
        let speaker = try await JourneyVoice(id: voice)
        let (spec, chosen) = try LocalModels.model(named: model)
        do {
            try await tell(plan, style: storyStyle, speaker: speaker, model: chosen, spec: spec)
            await LocalModels.server?.stop()
        } catch {
            await LocalModels.server?.stop()
            throw error
        }
    }

    private func tell(_ plan: JourneyPlan, style storyStyle: StoryStyle, speaker: JourneyVoice, model chosen: any LanguageModel, spec: ModelSpec) async throws {
        FileHandle.standardError.write(Data("""
            \(plan.start.name) → \(plan.end.name), \(Duration.seconds(plan.route.durationSeconds).spokenLength) \(plan.mode.rawValue): \
            \(plan.parts) part\(plan.parts == 1 ? "" : "s"), told by \(spec) in \(speaker.voice.id)'s voice.\n
            """.utf8))
        let bar = ProgressBar(enabled: Terminal.isStandardErrorInteractive, stream: .standardError)
        let result: JourneyRecording.Result
        do {
            result = try await JourneyRecording(plan: plan, style: storyStyle, voice: speaker, model: chosen).write(to: URL(fileURLWithPath: output)) { step in
                switch step {
                case .telling(let part, let parts):
                    bar.update(fraction: Double(part - 1) / Double(parts), label: "Telling", detail: "part \(part) of \(parts)", force: true)
                case .writing(let fraction):
                    bar.update(fraction: fraction, label: "Writing", detail: output)
                }
            }
        } catch let error as JourneyTellError {
            throw UserFacingError(error.description)
        }
        bar.finish()
        let fallbacks = result.fallbacks
        print("Wrote \(output): “\(result.title)”, \(result.parts) parts, \(Format.duration(result.storySeconds)) of story in \(Format.duration(result.elapsedSeconds)) "
            + "(\(String(format: "%.2f", result.storySeconds / max(result.elapsedSeconds, 0.001))) minutes of story a minute)"
            + (fallbacks > 0 ? "; \(fallbacks) part\(fallbacks == 1 ? " was" : "s were") told from the outline after the model failed." : "."))
    }
}
