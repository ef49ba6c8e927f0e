import DatabaseTestSupport
import Crypto
import FluentKit
import FluentSQL
import Foundation
@_spi(Fluent) import Persistence
import Testing

@Suite("Settings, provider keys and the server secret")
struct SettingsAndSecretTests {
    static func box() throws -> SecretBox {
        SecretBox(secret: try ServerSecret(key: SymmetricKey(size: .bits256)))
    }

    @Test("API keys are sealed at rest and come back only through key(for:)", arguments: Backend.available)
    func keysEncrypted(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "a@b.co", passwordHash: "h")
            let userID = user.id
            let settings = SettingsRepository(database: database.database, box: try Self.box())
            let key = "sk-proj-TOPSECRETVALUE1234567890abcd"
            try await settings.setKey(key, for: .openai, userID: userID)

            let row = try #require(try await database.database.fluent.requireSQL().raw("SELECT * FROM provider_keys").first())
            let sealed = try row.decode(column: "sealed_key", as: Data.self)
            let masked = try row.decode(column: "masked", as: String.self)
            #expect(sealed.range(of: Data(key.utf8)) == nil)
            #expect(sealed.range(of: Data("TOPSECRET".utf8)) == nil)
            #expect(masked == "sk-…abcd")

            #expect(try await settings.maskedKeys(userID: userID) == [.openai: "sk-…abcd"])
            #expect(try await settings.key(for: .openai, userID: userID) == key)

            try await settings.setKey("sk-ant-replacement-key-9876", for: .openai, userID: userID)
            #expect(try await settings.key(for: .openai, userID: userID) == "sk-ant-replacement-key-9876")
            try await settings.removeKey(for: .openai, userID: userID)
            #expect(try await settings.key(for: .openai, userID: userID) == nil)
        }
    }

    @Test("a sealed key opens only for its owner and vendor; a key stored unbound is bound on first read", arguments: Backend.available)
    func keysAreBoundToOwnerAndVendor(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let users = UserRepository(database: database.database)
            let ada = try await users.create(email: "ada@b.co", passwordHash: "h").id
            let bob = try await users.create(email: "bob@b.co", passwordHash: "h").id
            let box = try Self.box()
            let settings = SettingsRepository(database: database.database, box: box)
            try await settings.setKey("sk-ada-secret-0123456789", for: .openai, userID: ada)
            let sql = try database.database.fluent.requireSQL()
            let sealed = try #require(try await sql.raw("SELECT sealed_key FROM provider_keys").first()).decode(column: "sealed_key", as: Data.self)

            // Copied into Bob's row, or under another vendor, Ada's sealed key does not open.
            try await settings.setKey("sk-bob-own-key-0123456789", for: .openai, userID: bob)
            try await settings.setKey("sk-ada-gemini-0123456789", for: .gemini, userID: ada)
            try await sql.update("provider_keys").set("sealed_key", to: sealed).where("user_id", .equal, bob).run()
            await #expect(throws: PersistenceError.self) { try await settings.key(for: .openai, userID: bob) }
            try await sql.update("provider_keys").set("sealed_key", to: sealed).where("provider", .equal, "gemini").run()
            await #expect(throws: PersistenceError.self) { try await settings.key(for: .gemini, userID: ada) }
            #expect(try await settings.key(for: .openai, userID: ada) == "sk-ada-secret-0123456789")

            // A key stored before keys were bound still opens, and is bound from then on.
            try await sql.update("provider_keys").set("sealed_key", to: try box.seal("sk-old-unbound-0123456789"))
                .where("user_id", .equal, ada).where("provider", .equal, "openai").run()
            #expect(try await settings.key(for: .openai, userID: ada) == "sk-old-unbound-0123456789")
            let rebound = try #require(try await sql.raw("SELECT sealed_key FROM provider_keys WHERE provider = 'openai' AND sealed_key IS NOT NULL").all())
                .map { try $0.decode(column: "sealed_key", as: Data.self) }
            #expect(rebound.contains { (try? box.open($0, boundTo: nil)) == nil })
            #expect(try await settings.key(for: .openai, userID: ada) == "sk-old-unbound-0123456789")
        }
    }

    @Test("narration defaults start standard and persist", arguments: Backend.available)
    func narrationDefaults(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let user = try await UserRepository(database: database.database).create(email: "a@b.co", passwordHash: "h")
            let settings = SettingsRepository(database: database.database, box: try Self.box())
            #expect(try await settings.narrationDefaults(userID: user.id) == .standard)
            let chosen = NarrationDefaults(rate: 1.25, pitch: 0.9, volume: 0.8)
            try await settings.setNarrationDefaults(chosen, userID: user.id)
            try await settings.setNarrationDefaults(chosen, userID: user.id)
            #expect(try await settings.narrationDefaults(userID: user.id) == chosen)
        }
    }

    @Test func sealedValuesNeedTheSameKey() throws {
        let sealed = try Self.box().seal("sk-something-long-enough")
        #expect(throws: PersistenceError.decryptionFailed) { _ = try Self.box().open(sealed) }
    }

    @Test func keyFileIsCreatedOwnerOnlyAndReused() throws {
        let directory = DataDirectory(url: FileManager.default.temporaryDirectory
            .appendingPathComponent("sv-secret-\(UUID().uuidString)", isDirectory: true))
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let first = try ServerSecret.load(environment: [:], dataDirectory: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.secretKeyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let second = try ServerSecret.load(environment: [:], dataDirectory: directory)
        let sealed = try SecretBox(secret: first).seal("sk-abcdefghijklmnop")
        #expect(try SecretBox(secret: second).open(sealed) == "sk-abcdefghijklmnop")
    }

    @Test func environmentKeyWinsAndIsValidated() throws {
        let directory = DataDirectory(url: FileManager.default.temporaryDirectory
            .appendingPathComponent("sv-secret-\(UUID().uuidString)", isDirectory: true))
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let raw = Data(repeating: 7, count: 32).base64EncodedString()
        _ = try ServerSecret.load(environment: ["STORYVOICE_SECRET_KEY": raw], dataDirectory: directory)
        #expect(!FileManager.default.fileExists(atPath: directory.secretKeyFile.path))
        #expect(throws: PersistenceError.self) {
            _ = try ServerSecret.load(environment: ["STORYVOICE_SECRET_KEY": Data(count: 16).base64EncodedString()], dataDirectory: directory)
        }
        #expect(throws: PersistenceError.self) {
            _ = try ServerSecret.load(environment: ["STORYVOICE_SECRET_KEY": "not base64!"], dataDirectory: directory)
        }
    }

    @Test func derivedKeysDifferByPurpose() throws {
        let secret = try ServerSecret(key: SymmetricKey(size: .bits256))
        let a = secret.derivedKey(for: "provider-api-keys").withUnsafeBytes { Data($0) }
        let b = secret.derivedKey(for: "access-tokens").withUnsafeBytes { Data($0) }
        #expect(a != b)
        #expect(a.count == 32)
    }

    @Test(arguments: [
        ("sk-proj-abcdefghijklmnopWXYZ", "sk-…WXYZ"),
        ("sk_live_0123456789abcd", "sk_…abcd"),
        ("AIzaSyA1234567890abcdefgh", "…efgh"),
        ("short", "…"),
    ])
    func masking(key: String, masked: String) {
        #expect(APIKeyMask.mask(key) == masked)
    }
}
