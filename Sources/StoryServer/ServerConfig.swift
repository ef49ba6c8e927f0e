import Bootstrap
import CallWorkflows
import ChatWorkflows
import Foundation
import Jobs
import JourneyServices
import JourneyWorkflows
import LanguageModels
import ObjectStorage
import Persistence
import Platform
import Speech
import StoryWorkflows
import Telephony
import VoiceWorkflows

/// Everything `configure(_:_:)` needs. `fromEnvironment` reads the documented variables;
/// tests build one directly.
public struct ServerConfig: Sendable {
    public var dataDirectory: DataDirectory
    /// Where finished files are kept (exports, chat videos, journey audio): the data directory,
    /// or the bucket of `STORYVOICE_S3_URL` that every server and worker shares.
    public var artifacts: any ArtifactStore
    public var database: DatabaseLocation
    public var secret: ServerSecret
    /// The web app and `openapi.yaml`.
    public var publicDirectory: URL

    /// Access tokens (JWT HS256) live this long.
    public var accessTokenLifetime: TimeInterval = 15 * 60
    /// Refresh tokens live this long unless rotated or revoked first.
    public var refreshTokenLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// Login attempts allowed per email and client address within `loginRateWindow`.
    public var loginAttemptsPerWindow: Int = 5
    public var loginRateWindow: TimeInterval = 60
    /// Logins and registrations (each costs a password hash) allowed per client address within
    /// `loginRateWindow`, whatever the email.
    public var hashingRequestsPerAddress: Int = 30
    /// Where passwords are hashed (its own threads, a bounded queue).
    var passwordHasher = PasswordHasher.shared
    /// Bcrypt cost for new password hashes.
    public var bcryptCost: Int = 12
    /// Largest JSON or form body accepted anywhere.
    public var maxJSONBodyBytes: Int = 1 << 20
    /// Largest story upload accepted by `POST /api/stories`.
    public var maxUploadBytes: Int = 20 << 20
    /// Texts longer than this are kept as content-addressed files instead of in the database.
    public var inlineTextLimitBytes: Int = 256 << 10
    /// Mark cookies `Secure` (set when the server is reached over HTTPS).
    public var secureCookies: Bool = false
    /// Take the client address for rate limiting from `X-Forwarded-For` (behind a proxy only).
    public var trustForwardedFor: Bool = false
    /// Run migrations during `configure`.
    public var autoMigrate: Bool = true
    /// The narration pipeline (voices, casting, rendering). `storyvoice` supplies the local
    /// engines; without one, voice and audio routes answer 503 and no story jobs run.
    public var narration: (any NarrationService)?
    /// Speech to text for voice chat (`storyvoice` supplies faster-whisper when installed);
    /// without one, recordings answer 503 and only typed questions work.
    public var transcriber: (any SpeechTranscriber)?
    /// Speech being sent while it is spoken, per user, until a turn takes it (this process only).
    public let listenings = ListeningSessions()
    /// A story file put in every new account's library and analysed, so a first visit has
    /// something to play (`storyvoice serve --welcome-story`; `make run` gives the sample).
    public var welcomeStory: URL?
    /// ffmpeg for chat story videos; nil looks it up on PATH.
    public var chatFFmpegPath: String?
    /// Job handlers for workers started inside the server process; when empty, the standard
    /// jobs (`standardJobHandlers()`) run.
    public var jobHandlers = JobHandlerRegistry()
    /// Workers run inside the server (0 when `storyvoice worker` processes do the work).
    public var inProcessWorkers: Int = 1
    /// Workers per lane beside the `inProcessWorkers` of long jobs: a listener's next part
    /// (`JobLane.live`, looked for every 0.25 s) and short jobs someone is looking at
    /// (`JobLane.quick`: an analysis never waits behind a video). Lanes are given where each
    /// kind is registered.
    public var liveWorkers: Int = 2
    public var quickWorkers: Int = 1
    public var workerConfiguration = JobWorker.Configuration()
    /// How often server-sent job events look for changes.
    public var jobEventPollInterval: Duration = .milliseconds(250)
    /// How long one job event stream stays open before the client has to reconnect.
    public var jobEventStreamDuration: Duration = .seconds(300)

    /// The users' own language models: keys from their Settings, base URLs from the environment.
    public var models: ModelAccess
    /// Stories' plans, reused by every line the player fetches while the story is unchanged.
    public let plans = PlanCache()
    /// Renders the lines after the one each listener is hearing, in the background.
    /// Nil renders only the lines asked for.
    public var ahead: RenderAhead? = RenderAhead()
    /// Where journeys' places and routes come from: the routers and geocoder the environment
    /// names (`fromEnvironment`), else the offline gazetteer and estimate. One for the server,
    /// so the services' request limits hold across requests.
    public var journeyRouting: JourneyRouting
    /// Journey openings the model on this machine writes while the user looks at the plan
    /// (`POST /api/journeys/prepare`), taken by the teller of the journey they start.
    public let journeyOpenings = PreparedOpenings()
    /// The AI phone calls' Twilio account and App Store verification (`CallServices.fromEnvironment`);
    /// unset parts answer 503 saying what to configure.
    public var calls = CallServices()
    /// Calls' opening words voiced ahead, per scenario and local voice (in `call-openings/` of
    /// the data directory), so the local agent speaks as the call is answered.
    public var callOpenings: CallOpenings
    /// Voice the built-in scenarios' openings in the background once the server runs
    /// (`STORYVOICE_CALL_OPENINGS_AHEAD=0` turns it off; off unless read from the environment).
    public var warmsCallOpenings = false
    /// `/test/*` development endpoints exist only when this is set (`STORYVOICE_ENV=development`).
    public var developmentMode = false
    /// Requests per client address and minute (`RateLimits.fromEnvironment`).
    public var rateLimits = RateLimits()
    /// How long a connection may wait to send its request, a body or a media-stream frame
    /// (`ConnectionLimits.fromEnvironment`).
    public var connectionLimits = ConnectionLimits()
    /// Origins whose pages may call the API from another site (`STORYVOICE_CORS_ORIGINS`,
    /// comma-separated); empty allows none (the web app is served from the same origin).
    public var corsOrigins: [String] = []

    public init(
        dataDirectory: DataDirectory, database: DatabaseLocation, secret: ServerSecret, publicDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.dataDirectory = dataDirectory
        self.artifacts = DirectoryStore(root: dataDirectory.url)
        self.database = database
        self.secret = secret
        self.publicDirectory = publicDirectory
        self.callOpenings = CallOpenings(directory: dataDirectory.url.appendingPathComponent("call-openings", isDirectory: true))
        self.models = ModelAccess.make(environment: environment, secret: secret, dataDirectory: dataDirectory)
        self.journeyRouting = JourneyRouting(
            configuration: JourneyServicesConfiguration(), gazetteerDirectory: Gazetteer.defaultDirectory(environment: environment))
    }

    /// Every product's jobs, from the one registry `storyvoice worker` uses too (`LiveServices.jobs`).
    public func standardJobHandlers() -> JobHandlerRegistry {
        services.jobs()
    }

    /// The parts jobs need, as this configuration has them.
    public var services: LiveServices {
        LiveServices(
            dataDirectory: dataDirectory, secret: secret, models: models, narration: narration, artifacts: artifacts, calls: calls,
            chatFFmpegPath: chatFFmpegPath, journeyOpenings: journeyOpenings)
    }

    /// Takes the live parts `storyvoice serve` built (`LiveServices.live`): voices, model access
    /// with its prices, the store and the calls' services. The data directory and secret stay
    /// this configuration's (the services were built from them), as do its journey openings.
    public mutating func use(_ services: LiveServices) {
        models = services.models
        narration = services.narration
        artifacts = services.artifacts
        calls = services.calls
        if let ffmpeg = services.chatFFmpegPath { chatFFmpegPath = ffmpeg }
    }

    /// Where imported stories go.
    var library: StoryLibrary {
        StoryLibrary(dataDirectory: dataDirectory, artifacts: artifacts, inlineTextLimitBytes: inlineTextLimitBytes, welcomeStory: welcomeStory,
                     analyzesStories: narration != nil)
    }

    /// The handlers in-process workers run: `jobHandlers`, else the story jobs.
    var effectiveJobHandlers: JobHandlerRegistry {
        jobHandlers.kinds.isEmpty ? standardJobHandlers() : jobHandlers
    }

    /// Reads `STORYVOICE_DATA_DIR`, `DATABASE_URL`, `STORYVOICE_SECRET_KEY` (else the data
    /// directory's `secret.key`), `STORYVOICE_PUBLIC_DIR` (else `publicDirectory`),
    /// `STORYVOICE_SECURE_COOKIES=1`, `STORYVOICE_TRUST_PROXY=1`, `STORYVOICE_ACCESS_TOKEN_SECONDS`
    /// (tests shorten sessions with it), `STORYVOICE_PRICES` (a
    /// JSON price table over the built-in one; else the data directory's `prices.json`) and the
    /// journeys' services (`STORYVOICE_OSRM_URL_*`, `STORYVOICE_NOMINATIM_URL`, …; a value that
    /// is not usable throws its `JourneyError`, so the server does not start with it).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        publicDirectory: URL
    ) throws -> ServerConfig {
        let dataDirectory = DataDirectory.resolve(environment: environment)
        try dataDirectory.create()
        var config = ServerConfig(
            dataDirectory: dataDirectory,
            database: DatabaseLocation.resolve(environment: environment, dataDirectory: dataDirectory),
            secret: try ServerSecret.load(environment: environment, dataDirectory: dataDirectory),
            publicDirectory: environment["STORYVOICE_PUBLIC_DIR"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? publicDirectory,
            environment: environment
        )
        config.models.prices = try PriceTable.configured(
            environment: environment, defaultFile: dataDirectory.url.appendingPathComponent("prices.json"))
        config.journeyRouting = try JourneyRouting.fromEnvironment(environment)
        config.calls = try CallServices.fromEnvironment(environment)
        config.developmentMode = environment["STORYVOICE_ENV"] == "development"
        config.warmsCallOpenings = environment["STORYVOICE_CALL_OPENINGS_AHEAD"] != "0"
        config.rateLimits = RateLimits.fromEnvironment(environment)
        config.connectionLimits = ConnectionLimits.fromEnvironment(environment)
        config.corsOrigins = (environment["STORYVOICE_CORS_ORIGINS"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        config.secureCookies = environment["STORYVOICE_SECURE_COOKIES"] == "1"
        config.trustForwardedFor = environment["STORYVOICE_TRUST_PROXY"] == "1"
        if let seconds = environment["STORYVOICE_ACCESS_TOKEN_SECONDS"].flatMap(TimeInterval.init), seconds > 0 {
            config.accessTokenLifetime = seconds
        }
        return config
    }
}
