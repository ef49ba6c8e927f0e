import Crypto
import DatabaseTestSupport
import Foundation
import LanguageModels
import Persistence
import Platform
import Testing

/// What every product stands on, without HTTP (issue 50): a user's models are reached with
/// their own key only, a model spec cannot point the server elsewhere, and a server without
/// voices says so in words a person can act on.
@Suite("Platform: the user's context")
struct UserContextTests {
    static func context(_ database: StoryDatabase, data: DataDirectory, owner: UUID, models: ModelAccess) -> UserContext {
        UserContext(database: database.database, dataDirectory: data, narration: nil, models: models, ownerID: owner)
    }

    @Test("a model is reached with its user's key alone: another user's stored key is never used", arguments: Backend.available)
    func keysAreTheirOwners(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, test in
            let data = DataDirectory(url: test.directory.appendingPathComponent("data", isDirectory: true))
            let models = ModelAccess.make(environment: [:], secret: try ServerSecret(key: SymmetricKey(size: .bits256)), dataDirectory: data)
            let users = UserRepository(database: database.database)
            let ada = try await users.create(email: "ada@example.com", passwordHash: "h").id
            let bob = try await users.create(email: "bob@example.com", passwordHash: "h").id
            try await SettingsRepository(database: database.database, box: models.box).setKey("sk-ada-secret", for: .openai, userID: ada)
            let spec = try ModelAccess.spec("openai:gpt-4o-mini")

            _ = try await models.model(spec, userID: ada, database: database.database)
            let refused = await #expect(throws: LanguageModelError.self) {
                _ = try await models.model(spec, userID: bob, database: database.database)
            }
            #expect(refused?.kind == .missingKey)
            #expect(refused.map { "\($0)" }?.contains("sk-ada") == false)
        }
    }

    @Test("a model spec names a provider and a model; a base URL or a kilobyte of text is refused")
    func specsAreChecked() throws {
        #expect(try ModelAccess.spec("anthropic:claude-3-5-haiku-latest").provider == .anthropic)
        #expect(try ModelAccess.spec("local").provider == .local)
        for bad in ["openai:gpt-4o@http://10.0.0.1:8080", String(repeating: "x", count: 1_000), "nobody:model"] {
            let refused = #expect(throws: ServiceError.self, "\(bad.prefix(40))") { _ = try ModelAccess.spec(bad) }
            #expect(refused?.code == "invalid_model" && refused?.kind == .invalid)
        }
    }

    @Test("a server without speech engines tells the user what to do, as a stable code")
    func noVoicesSaysSo() async throws {
        try await withDatabase(.sqlite) { database, test in
            let data = DataDirectory(url: test.directory.appendingPathComponent("data", isDirectory: true))
            let models = ModelAccess.make(environment: [:], secret: try ServerSecret(key: SymmetricKey(size: .bits256)), dataDirectory: data)
            let user = Self.context(database, data: data, owner: UUID(), models: models)
            let refused = await #expect(throws: ServiceError.self) { _ = try await user.userNarration() }
            #expect(refused?.kind == .unavailable && refused?.code == "narration_unavailable")
            #expect(refused?.message.contains("storyvoice serve") == true)
        }
    }
}
