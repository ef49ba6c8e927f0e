import CallWorkflows
import Fluent
import Foundation
import Jobs
import JWT
import Persistence
import StoryWorkflows
import Vapor

/// Sets up the StoryVoice server on `app`: database and migrations, middleware, routes, and
/// in-process job workers. `storyvoice serve` calls this, then runs the app.
public func configure(_ app: Application, _ config: ServerConfig) async throws {
    try config.dataDirectory.create()
    // Unfinished renders of a server or worker that was killed (not those being written now).
    let freed = StoryWorker.sweepLeftovers(dataDirectory: config.dataDirectory.url)
    if freed > 0 { app.logger.notice("Removed \(freed / 1_000_000) MB left by interrupted exports.") }
    // Said to the operator, who can mend it; the app's users are told only that calls are unavailable.
    if config.calls.twilio == nil {
        app.logger.notice("Phone calls are off: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_PHONE_NUMBER and STORYVOICE_PUBLIC_URL to place them (browser calls work without).")
    }

    // Database: SQLite in the data directory, or PostgreSQL from DATABASE_URL.
    app.databases.use(try config.database.configurationFactory(), as: config.database.databaseID, isDefault: true)
    app.migrations.add(DatabaseMigrations.all, to: config.database.databaseID)
    if config.autoMigrate {
        try await ConcurrentMigration.run { try await app.autoMigrate() }
    }

    // Access tokens: HS256 with a key derived from the server secret (32 bytes, as jwt-kit wants).
    await app.jwt.keys.add(hmac: HMACKey(key: config.secret.derivedKey(for: "access-tokens")), digestAlgorithm: .sha256)

    // Middleware: errors become JSON; the web app is served from Public/.
    app.middleware = Middlewares()
    app.middleware.use(SecurityHeadersMiddleware())
    // CORS first, so even a refusal carries its headers and a preflight is answered here.
    if !config.corsOrigins.isEmpty {
        app.middleware.use(CORSMiddleware(configuration: .init(
            allowedOrigin: .any(config.corsOrigins), allowedMethods: [.GET, .POST, .PUT, .DELETE, .OPTIONS, .HEAD],
            allowedHeaders: [.accept, .authorization, .contentType, .origin, .userAgent, "X-App-Type"])))
    }
    app.middleware.use(RouteLoggingMiddleware(logLevel: .info))
    app.middleware.use(JSONErrorMiddleware())
    app.middleware.use(StaticMediaTypeMiddleware())
    app.middleware.use(StaticFilesMiddleware(publicDirectory: config.publicDirectory))
    // After the web app's files: a page load's dozens of assets are not API requests.
    if config.rateLimits.perMinute > 0 || config.rateLimits.expensivePerMinute > 0 {
        app.middleware.use(RateLimitMiddleware(limits: config.rateLimits, trustForwardedFor: config.trustForwardedFor))
    }
    app.routes.defaultMaxBodySize = ByteCount(value: config.maxJSONBodyBytes)
    // Every connection gets time limits: a request head, a body, the wait for the next request.
    let limits = config.connectionLimits
    app.servers.use { app in LimitedHTTPServer(inner: app.http.server.shared, limits: limits, logger: app.logger) }

    try routes(app, config)
    // Last in the chain, so it sees every route registered above.
    app.middleware.use(MethodNotAllowedMiddleware(routes: app.routes))

    if config.inProcessWorkers > 0, !config.effectiveJobHandlers.kinds.isEmpty {
        app.lifecycle.use(InProcessWorkers.lifecycle(config: config))
    }
    if config.warmsCallOpenings { app.lifecycle.use(CallStreamHooks.openingsWarmup(config: config)) }
}

func routes(_ app: Application, _ config: ServerConfig) throws {
    let json = app.grouped(BodyLimitMiddleware(maxBytes: config.maxJSONBodyBytes, what: "The request body"))

    json.get("health") { request in try await health(request, config) }
    OpenAPIController(publicDirectory: config.publicDirectory).register(routes: json)
    try AuthController(config: config).register(routes: json)

    let signedIn: [any Middleware] = [UserAuthenticator(), RequireUserMiddleware()]
    let api = json.grouped("api").grouped(signedIn)
    let uploads = app.grouped(BodyLimitMiddleware(maxBytes: config.maxUploadBytes, what: "The upload"))
        .grouped("api").grouped(signedIn)

    AccountController(box: SecretBox(secret: config.secret)).register(routes: api)
    JobsController(pollInterval: config.jobEventPollInterval, maxStreamDuration: config.jobEventStreamDuration)
        .register(routes: api)
    StoriesController(config: config).register(routes: api, uploads: uploads)
    AnalysisController(config: config).register(routes: api)
    CastController(config: config).register(routes: api)
    PlaybackController(config: config).register(routes: api)
    VoicesController(config: config).register(routes: api)
    VoiceController(config: config).register(routes: api, uploads: uploads)
    ChatConversationsController(config: config).register(routes: api)
    ChatExportsController(config: config).register(routes: api)
    ChatShareController(config: config).register(routes: json)
    JourneysController(config: config).register(routes: api)
    MobileController(config: config).register(signedIn: json.grouped(signedIn), open: json)
    if config.developmentMode { DevelopmentController(config: config).register(signedIn: json.grouped(signedIn)) }
    MediaStreamController(hooks: CallStreamHooks.hooks(app: app, config: config), limits: config.connectionLimits).register(routes: app)
}

struct HealthResponse: Content {
    var status: String
    var problems: [String]?
}

/// What serving needs: the database answers and the data directory takes a write (a
/// read-only directory once answered 200 here while every login failed).
func health(_ request: Request, _ config: ServerConfig) async throws -> Response {
    var problems: [String] = []
    do {
        _ = try await UserRepository(database: request.appDatabase).count()
    } catch {
        problems.append("the database does not answer (\(String(describing: error).prefix(200)))")
    }
    if let problem = config.dataDirectory.writeProblem() {
        problems.append(problem)
    }
    let healthy = problems.isEmpty
    return try Response.json(HealthResponse(status: healthy ? "ok" : "unhealthy", problems: healthy ? nil : problems),
                             status: healthy ? .ok : .serviceUnavailable)
}

/// Work that runs while the server runs: started after boot, cancelled and awaited at shutdown.
///
/// Vapor boots synchronously (`app.boot()`, as its testers do) or asynchronously (`execute`),
/// and calls only the matching callbacks, so both variants start it.
final class LifecycleTask: LifecycleHandler, @unchecked Sendable {
    private let start: @Sendable (Application) -> Task<Void, Never>
    // Touched only from Vapor's lifecycle callbacks, which run one at a time.
    private var task: Task<Void, Never>?

    init(_ start: @escaping @Sendable (Application) -> Task<Void, Never>) {
        self.start = start
    }

    func didBoot(_ application: Application) throws {
        begin(application)
    }

    func didBootAsync(_ application: Application) async throws {
        begin(application)
    }

    func shutdownAsync(_ application: Application) async {
        task?.cancel()
        await task?.value
        task = nil
    }

    func shutdown(_ application: Application) {
        // Synchronous shutdown cannot await; the cancelled work ends on its own (workers
        // release their jobs).
        task?.cancel()
        task = nil
    }

    private func begin(_ application: Application) {
        guard task == nil else { return }
        task = start(application)
    }
}

/// Job workers inside the server process: started after boot, cancelled and awaited at
/// shutdown so running jobs are released for the next start to resume.
enum InProcessWorkers {
    static func lifecycle(config: ServerConfig) -> LifecycleTask {
        LifecycleTask { application in
            let registry = config.effectiveJobHandlers
            let workers = JobWorker.lanes(
                queue: JobQueue(database: application.appDatabase), registry: registry, configuration: config.workerConfiguration,
                concurrency: [.long: config.inProcessWorkers, .live: config.liveWorkers, .quick: config.quickWorkers], logger: application.logger)
            return Task {
                await withTaskGroup(of: Void.self) { group in
                    for worker in workers { group.addTask { await worker.run() } }
                }
            }
        }
    }
}
